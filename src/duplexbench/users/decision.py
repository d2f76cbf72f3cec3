"""Who decides, at a check while the agent speaks, whether the user interrupts.

By default the rule (a seeded draw against the persona's interruption tendency,
in `floor.py`). Optionally an OpenAI-compatible model (τ-Voice lets an LLM
make the user's turn-taking decisions): :class:`LLMInterruptDecider` asks it,
at each check where the rules allow an interruption (the agent has spoken at
least 2 s, has asked, read back or requested something, and is not in the
middle of a question), whether the caller would cut in now. It decides
timing only: what the user then says comes from the policy as always. A
failed or malformed answer counts as NO (and is counted). Answers are cached
by (model, prompt), in memory and optionally in a JSONL file, so a rerun with
the cache gives the same decisions without the endpoint.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from duplexbench.yesno import JsonlStore, JudgeUnavailable, YesNo, ask_yes_no

INTERRUPT_PROMPT = """\
You play a caller on a phone call with an automated assistant. The assistant is talking
right now. Decide whether the caller, as described, would naturally cut in NOW: the
assistant has already asked or read back what the caller can answer and keeps talking,
or is rambling. Callers do not interrupt a question that is still being asked.
Reply with strict JSON only: {"answer": "YES" or "NO", "reason": "<one sentence>"}"""

Asker = Callable[[str, str], YesNo]
"""(system prompt, user message) -> the endpoint's answer."""


@dataclass(frozen=True)
class FloorMoment:
    """What the caller knows at a check."""

    t_ms: int
    heard: str
    """The agent's words heard since the caller's last turn (the current sentence too)."""
    persona: str
    goal: str


class InterruptDecider(Protocol):
    name: str

    def should_interrupt(self, moment: FloorMoment) -> bool: ...


class _Verdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: str
    key: str
    answer: bool
    reason: str


class LLMInterruptDecider:
    """An OpenAI-compatible model decides (module docstring)."""

    def __init__(self, model: str, ask: Asker, cache: Path | None = None) -> None:
        self.name = f"llm:{model}"
        self.model, self.ask = model, ask
        self.store = JsonlStore(cache, _Verdict, lambda v: (v.model, v.key))
        self.asked = 0
        self.failures = 0

    def should_interrupt(self, moment: FloorMoment) -> bool:
        user = f"CALLER: {moment.persona}\nGOAL: {moment.goal}\nASSISTANT SO FAR: {moment.heard}"
        key = hashlib.sha256(f"{INTERRUPT_PROMPT}\n{user}".encode()).hexdigest()
        stored = self.store.get((self.model, key))
        if stored is not None:
            return stored.answer
        self.asked += 1
        try:
            verdict = self.ask(INTERRUPT_PROMPT, user)
        except JudgeUnavailable:
            self.failures += 1
            return False
        self.store.add(
            _Verdict(model=self.model, key=key, answer=verdict.answer, reason=verdict.reason)
        )
        return verdict.answer


@dataclass(frozen=True)
class DeciderConfig:
    """The optional LLM decision model of the user (None fields: the rule decides)."""

    model: str
    base_url: str
    cache: Path | None = None

    def build(self) -> LLMInterruptDecider:
        def ask(system: str, user: str) -> YesNo:
            return ask_yes_no(self.base_url, self.model, system, user, timeout_s=30)

        return LLMInterruptDecider(self.model, ask, self.cache)
