"""The barge-in rule shared by the orchestrator (which records `floor.yield`) and the
scorer (which re-applies it to every trace, older ones included).

A barge-in over agent speech is *yielded* only when the agent stopped within the
event's limit by cutting its turn short: the agent utterance the user's onset fell
in was truncated (queued audio or words dropped unplayed) or cancelled by the
agent (`AgentUtteranceData.cut_short`). A turn that ended within the limit
without being cut short *ended naturally*: the agent had simply finished what it
was saying, which says nothing about barge-in handling. A turn that ran past the
limit is neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from duplexbench.trace._events import AgentUtteranceData

BargeInOutcome = Literal["yielded", "ended_naturally", "kept_talking"]


def turn_at(turns: Sequence[AgentUtteranceData], onset_ms: int) -> AgentUtteranceData | None:
    """The agent utterance holding the floor at `onset_ms` (start <= onset < end)."""
    return next((u for u in turns if u.start_ms <= onset_ms < u.end_ms), None)


def barge_in_outcome(
    stop_latency_ms: int, max_stop_latency_ms: int, turn: AgentUtteranceData | None
) -> BargeInOutcome:
    """What the agent did about one barge-in (see the module docstring)."""
    if stop_latency_ms > max_stop_latency_ms:
        return "kept_talking"
    if turn is not None and turn.cut_short:
        return "yielded"
    return "ended_naturally"
