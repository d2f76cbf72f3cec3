"""Defect agents: the oracle with exactly one defect, to show each metric catches it.

A metric that cannot fail is a defect of the benchmark. Each agent here plays
the item's reference trajectory (it is privileged, like the oracle) but breaks
one thing a real voice agent gets wrong; `tests/validity/` runs each on the
fixtures and checks that the metric built to catch the defect moves while the
unrelated headline metrics do not (docs/metrics.md, "Validity"):

| agent | defect | metric that must move |
|---|---|---|
| `IgnoresCorrections` | keeps the first value it wrote for a field | correction uptake, AFA, WS |
| `CommitsEarly` | tries the committing action before asking | AV gate (blocked action), WS |
| `MishearsDigits` | writes every value with a digit one digit off | AFA, WS |
| `RaisesWhenFailing` | `MishearsDigits`, then raises at its last turn | nothing better than it |
| `WritesBeforeRevealed` | writes every reference value at its first turn | unsupported values |
| `AnswersLate` (audio) | the audio oracle, every event held back | response latency |
| `NeverYields` (audio) | the audio oracle, deaf to barge-ins | yield rate |
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from duplexbench.agents import (
    AgentError,
    AgentEvent,
    AgentInput,
    AgentSession,
    AgentToolCall,
    AgentTurn,
    AudioOracle,
    AudioSession,
    OracleAgent,
    ToolResultMessage,
)
from duplexbench.audio import AudioFrame

_LAST_DIGIT = re.compile(r"(\d)(?!.*\d)")


def _fields(call: AgentToolCall) -> dict[str, Any] | None:
    """The field values a write call sets (`{"fields": {...}}`), or None."""
    if not isinstance(call.arguments, dict):
        return None
    fields = call.arguments.get("fields")
    return fields if isinstance(fields, dict) else None


def _with_fields(call: AgentToolCall, fields: dict[str, Any]) -> AgentToolCall:
    return AgentToolCall(call.name, {**call.arguments, "fields": fields}, call.call_id)


def misheard(value: Any) -> Any:
    """`value` with its last digit one off (9 -> 0); values without a digit unchanged."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        return _LAST_DIGIT.sub(lambda m: str((int(m.group(1)) + 1) % 10), value)
    if isinstance(value, list):
        return [misheard(v) for v in value]
    return value


class _Rewriting(OracleAgent):
    """The oracle, with each of its turns passed through `rewrite`."""

    def respond(self, observation: AgentInput) -> AgentTurn:
        return self.rewrite(super().respond(observation))

    def rewrite(self, turn: AgentTurn) -> AgentTurn:
        return turn


class IgnoresCorrections(_Rewriting):
    """Writes each field once: a later value (the caller's correction) is never written."""

    def start(self, session: AgentSession) -> None:
        super().start(session)
        self._written: set[tuple[str, str]] = set()

    def rewrite(self, turn: AgentTurn) -> AgentTurn:
        calls = []
        for call in turn.tool_calls:
            fields = _fields(call)
            if fields is None:
                calls.append(call)
                continue
            fresh = {k: v for k, v in fields.items() if (call.name, k) not in self._written}
            self._written |= {(call.name, k) for k in fields}
            if fresh:
                calls.append(_with_fields(call, fresh))
        return AgentTurn(turn.say, tuple(calls), turn.end_call)


class MishearsDigits(_Rewriting):
    """Writes every value that has a digit with its last digit one off."""

    def rewrite(self, turn: AgentTurn) -> AgentTurn:
        calls = []
        for call in turn.tool_calls:
            fields = _fields(call)
            changed = {k: misheard(v) for k, v in (fields or {}).items()}
            calls.append(call if fields is None else _with_fields(call, changed))
        return AgentTurn(turn.say, tuple(calls), turn.end_call)


class RaisesWhenFailing(MishearsDigits):
    """`MishearsDigits` that knows it failed and raises instead of ending the call, hoping
    the errored episode is left out of the rates."""

    def rewrite(self, turn: AgentTurn) -> AgentTurn:
        turn = super().rewrite(turn)
        if turn.end_call:
            raise AgentError("giving up: I could not complete this call")
        return turn


class CommitsEarly(_Rewriting):
    """Makes the reference's approved calls (the committing actions) on its first turn,
    before any read-back or approval, then goes on as the oracle."""

    def start(self, session: AgentSession) -> None:
        super().start(session)
        self._first = True
        assert session.privileged is not None
        self._early = tuple(
            AgentToolCall(c.name, dict(c.arguments), f"early-{c.name}")
            for turn in session.privileged.reference.turns
            if (turn.expect or "").startswith("approve:")
            for c in turn.tool_calls
        )

    def rewrite(self, turn: AgentTurn) -> AgentTurn:
        if not self._first:
            return turn
        self._first = False
        return AgentTurn(turn.say, self._early + turn.tool_calls, turn.end_call)


class WritesBeforeRevealed(_Rewriting):
    """Writes every value of the reference trajectory on its first turn (before the
    caller has said any of them), then goes on as the oracle."""

    def start(self, session: AgentSession) -> None:
        super().start(session)
        self._first = True

    def rewrite(self, turn: AgentTurn) -> AgentTurn:
        if not self._first:
            return turn
        self._first = False
        assert self._session is not None and self._session.privileged is not None
        early = []
        for i, ref in enumerate(self._session.privileged.reference.turns):
            for j, c in enumerate(ref.tool_calls):
                call = AgentToolCall(c.name, dict(c.arguments), f"early-{i}-{j}")
                if _fields(call):
                    early.append(call)
        return AgentTurn(turn.say, (*early, *turn.tool_calls), turn.end_call)


class NeverYields(AudioOracle):
    """The audio oracle, deaf to barge-ins: it talks on whoever speaks, then goes on with
    its script (without checking the caller's plans, which talking over them upsets)."""

    def __init__(self) -> None:
        super().__init__(barge_in_ms=10**9)

    def start(self, session: AudioSession) -> None:
        text = session.session
        if text.privileged is not None:
            reference = text.privileged.reference
            turns = [t.model_copy(update={"expect": None}) for t in reference.turns]
            unchecked = replace(
                text.privileged, reference=reference.model_copy(update={"turns": turns})
            )
            session = replace(session, session=replace(text, privileged=unchecked))
        super().start(session)


class AnswersLate(AudioOracle):
    """The audio oracle with every event it sends held back `delay_ms`."""

    def __init__(self, delay_ms: int = 2000) -> None:
        super().__init__()
        self.delay_ms = delay_ms
        self._held: deque[tuple[int, Sequence[AgentEvent]]] = deque()

    def start(self, session: AudioSession) -> None:
        super().start(session)
        self._held.clear()

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        events = super().step(frame, tool_results)
        if events:
            self._held.append((frame.t_ms + self.delay_ms, events))
        out: list[AgentEvent] = []
        while self._held and self._held[0][0] <= frame.t_ms:
            out += self._held.popleft()[1]
        return out
