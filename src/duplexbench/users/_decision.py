"""Who decides, at a check while the agent speaks, whether the user interrupts.

By default the rule (a seeded draw against the persona's interruption tendency,
in `user_floor.py`). Optionally an OpenAI-compatible model (τ-Voice lets an LLM
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

from pydantic import BaseModel, ConfigDict

from duplexbench.yesno import CachedJudge, JsonlStore, YesNo, ask_yes_no

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


class _Verdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: str
    key: str
    answer: bool
    reason: str


class _Store:
    """The JSONL verdict file as a `yesno.VerdictCache` keyed by prompt hash."""

    def __init__(self, path: Path | None) -> None:
        self.entries = JsonlStore(path, _Verdict, lambda v: (v.model, v.key))

    def get(self, model: str, question: tuple[str, str]) -> YesNo | None:
        found = self.entries.get((model, _key(question)))
        return None if found is None else YesNo(found.answer, found.reason)

    def put(self, model: str, question: tuple[str, str], verdict: YesNo) -> None:
        key = _key(question)
        self.entries.add(
            _Verdict(model=model, key=key, answer=verdict.answer, reason=verdict.reason)
        )


def _key(question: tuple[str, str]) -> str:
    return hashlib.sha256("\n".join(question).encode()).hexdigest()


@dataclass(frozen=True)
class _Endpoint:
    call: Asker

    def ask(self, question: tuple[str, str]) -> YesNo:
        return self.call(*question)


class LLMInterruptDecider:
    """An OpenAI-compatible model decides (module docstring); cache first, via
    `yesno.CachedJudge`."""

    def __init__(self, model: str, ask: Asker, cache: Path | None = None) -> None:
        self.name = f"llm:{model}"
        self.judge: CachedJudge[tuple[str, str], YesNo] = CachedJudge(
            model, _Store(cache), _Endpoint(ask)
        )

    @property
    def asked(self) -> int:
        return self.judge.calls

    @property
    def failures(self) -> int:
        return len(self.judge.failures)

    def should_interrupt(self, moment: FloorMoment) -> bool:
        user = f"CALLER: {moment.persona}\nGOAL: {moment.goal}\nASSISTANT SO FAR: {moment.heard}"
        verdict = self.judge.lookup((INTERRUPT_PROMPT, user))
        return verdict is not None and verdict.answer


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
