"""The pool of panel events both rule sets fill (``metrics.py``, ``tau2_rules.py``).

Times are milliseconds. Events are pooled over all timelines before any rate is
taken, as τ-Voice does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from duplexbench.scoring._interaction.timeline import Segment

SELECTIVITY_KINDS = ("backchannel", "vocal_tic", "non_directed")


@dataclass
class EventPool:
    """Mutable pool of event outcomes across timelines."""

    response_latencies_ms: list[float] = field(default_factory=list)
    no_response: int = 0
    yield_latencies_ms: list[float] = field(default_factory=list)
    no_yield: int = 0
    ended_naturally: int = 0
    """Interruptions where the agent's speech ended in the window without being cut short."""
    agent_interruptions: int = 0
    correct: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SELECTIVITY_KINDS, 0))
    error: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SELECTIVITY_KINDS, 0))
    longest_unanswered_run: list[int] = field(default_factory=list)
    gaps_ms: list[float] = field(default_factory=list)
    call_ms: float = 0.0

    def selectivity(self, kind: str, error: bool) -> None:
        """Record one selectivity outcome of ``kind``."""
        (self.error if error else self.correct)[kind] += 1


def count_stop(ev: EventPool, speaking: Segment, stop_after: float, stopped: bool) -> None:
    """One real interruption: a yield when the agent stopped in the window and did not
    end naturally (``speaking.cut`` False), "ended naturally" when it did, else no yield."""
    if not stopped:
        ev.no_yield += 1
    elif speaking.cut is False:
        ev.ended_naturally += 1
    else:
        ev.yield_latencies_ms.append(stop_after)


def agent_segment_at(agent: Sequence[Segment], t_ms: float) -> Segment | None:
    """The agent segment active at ``t_ms`` (half-open), if any."""
    return next((a for a in agent if a.active_at(t_ms)), None)


def tally_responses(
    eligible: Sequence[Segment],
    agent: Sequence[Segment],
    later_users: Callable[[int, Segment], Iterable[Segment]],
    ev: EventPool,
) -> None:
    """Response / no-response of each eligible user turn, and its longest unanswered run.

    A turn is answered when the first agent segment starting at or after its end
    starts no later than the next user segment (from ``later_users(i, turn)``)
    starting at or after that end; with neither, the call ended: no event.
    """
    run = longest = 0
    for i, u in enumerate(eligible):
        next_agent = next((a.start_ms for a in agent if a.start_ms >= u.end_ms), None)
        later = (t.start_ms for t in later_users(i, u) if t.start_ms >= u.end_ms)
        next_user = next(later, None)
        if next_agent is not None and (next_user is None or next_agent <= next_user):
            ev.response_latencies_ms.append(next_agent - u.end_ms)
            run = 0
        elif next_user is not None:
            ev.no_response += 1
            run += 1
            longest = max(longest, run)
    ev.longest_unanswered_run.append(longest)
