"""Reveal rules hold over whole episodes: no fact is spoken before its rule allows.

Audited from the trace alone, for every fixture and several agents, including
an agent that asks for everything at once and one that never asks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from duplexbench.agents import AgentTurn, ScriptedAgent, TextAgent
from duplexbench.agents._audio_builtin import AudioOracle, SilentAgent
from duplexbench.agents._builtin import NoopAgent, OracleAgent
from duplexbench.items._workflow import WorkflowItem
from duplexbench.trace._events import AgentActs, DuplexEventFired, FactRevealed, UserUtterance
from support.fixtures import FIXTURES, fixture_item
from support.helpers import run_audio, run_episode

NAMES = sorted(p.stem for p in FIXTURES.glob("*.yaml") if p.stem != "suite")


def greedy(item: WorkflowItem) -> TextAgent:
    """Asks for every field by name, then confirms, then closes."""
    names = [f.id.replace("_", " ") for f in item.user.facts]
    ask = AgentTurn(say=" ".join(f"What is the {n}?" for n in names))
    return ScriptedAgent([ask, ask, AgentTurn(say="Goodbye!", end_call=True)])


AGENTS: dict[str, Callable[[WorkflowItem], TextAgent]] = {
    "oracle": lambda item: OracleAgent(),
    "noop": lambda item: NoopAgent(),
    "greedy": greedy,
}


@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize("name", NAMES)
def test_every_reveal_is_allowed_and_nothing_leaks(name: str, agent: str) -> None:
    item = fixture_item(name)
    audit(item, run_episode(item, AGENTS[agent](item), privileged=agent == "oracle").events)


@pytest.mark.parametrize("agent", ["oracle", "silent"])
@pytest.mark.parametrize("name", NAMES)
def test_reveal_rules_hold_on_the_audio_channel(name: str, agent: str) -> None:
    item = fixture_item(name)
    built = AudioOracle() if agent == "oracle" else SilentAgent()
    audit(item, run_audio(item, built, privileged=agent == "oracle").events)


def audit(item: WorkflowItem, events: list[Any]) -> None:
    asked: set[str] = set()
    fired: dict[str, int] = {}
    revealed: set[str] = set()
    for event in events:
        if isinstance(event, AgentActs):
            asked.update(a.partition(":")[2] for a in event.data.acts if a.startswith("ASK:"))
        elif isinstance(event, DuplexEventFired):
            fired[event.data.event_id] = event.t_ms
        elif isinstance(event, FactRevealed):
            fact = item.user.fact(event.data.fact)
            assert fact is not None and fact.reveal == event.data.rule
            if fact.reveal == "volunteer":
                assert event.data.because == "opening"
            elif fact.reveal == "when_asked":
                assert item.user.slot_of(fact.id) in asked, (fact.id, asked)
            else:
                authored = next(e for e in item.user.events if e.id == event.data.because)
                assert fact.id in authored.reveals and fired.get(authored.id) == event.t_ms
            revealed.add(fact.id)
        elif isinstance(event, UserUtterance):
            for fact in item.user.facts:
                if fact.id not in revealed and len(fact.spoken) > 3:
                    assert fact.spoken not in event.data.text, (fact.id, event.data.text)
