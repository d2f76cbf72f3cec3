"""The caller understands repair requests in clean audio too (issue 35): the probe of
tests/validity/test_repair_requests.py wrapped in the reference cascade, on the first
workflows-mini items, with the neutral caller's voice. Slow (audio episodes with TTS and
ASR): run by `make test-e2e`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import pytest

from duplexbench.agents import get_agent
from duplexbench.agents._cascade import CascadeAgent
from duplexbench.items import WorkflowItem, load_suite
from duplexbench.suites import resolve_suite
from support.helpers import run_audio
from support.repair_probe import (
    REPEAT_PHRASINGS,
    SPELL_PHRASINGS,
    ProbeOutcome,
    RepairProbe,
    probe_outcomes,
)

pytestmark = pytest.mark.slow
TARGET = 0.90
ITEMS = 3


@pytest.fixture(scope="module")
def items() -> list[WorkflowItem]:
    return list(load_suite(resolve_suite("workflows-mini")).items)[:ITEMS]


def _probe(items: Sequence[WorkflowItem], phrasings: Sequence[str]) -> list[ProbeOutcome]:
    outcomes: list[ProbeOutcome] = []
    for item in items:
        info, spec = get_agent("reference")
        agent = cast(CascadeAgent, info.create(spec, "audio"))
        agent.brain = RepairProbe(agent.brain, phrasings)
        record = run_audio(item, agent, privileged=True, voice="piper:joe")
        assert record.error is None, record.error
        outcomes += probe_outcomes(record.events, phrasings)
    return outcomes


def test_the_caller_repeats_when_asked_in_audio(items: list[WorkflowItem]) -> None:
    outcomes = _probe(items, REPEAT_PHRASINGS)
    repeated = [o for o in outcomes if o.answered("repeat")]
    assert len(outcomes) >= 10
    assert len(repeated) / len(outcomes) >= TARGET, [o for o in outcomes if o not in repeated]


def test_the_caller_spells_when_asked_in_audio(items: list[WorkflowItem]) -> None:
    outcomes = _probe(items, SPELL_PHRASINGS)
    spelled = [o for o in outcomes if o.answered("spell", "repeat")]
    assert len(outcomes) >= 10
    assert len(spelled) / len(outcomes) >= TARGET, [o for o in outcomes if o not in spelled]
