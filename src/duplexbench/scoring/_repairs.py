"""What careful listening cost: the repairs of an episode (docs/metrics.md, "Repairs").

A *repair turn* is a caller turn that answers an agent's repair request (say it
again, spell it, read the digits, slow down): the turns that carry `user.repair`
events. Its *time* runs from the start of the agent turn that asked (the last
agent utterance that began before the caller's turn) to the end of the caller's
answer (its planned end, or where it yielded). Both channels have repairs: the
text channel's times are its estimated durations.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from duplexbench.trace import AgentUtterance, TraceEvent, UserRepair, UserUtterance, UserYielded


class RepairScore(BaseModel):
    """The repairs of one episode (`result.json`)."""

    model_config = ConfigDict(extra="forbid")
    turns: int = 0
    """Caller turns that answered a repair request."""
    ms: int = 0
    """Media time from each request's agent turn to the end of the caller's answer."""
    kinds: dict[str, int] = Field(default_factory=dict)
    """Repairs by kind (repeat, spell, digits, slower, none)."""
    over_budget: int = 0
    """Repairs past the caller's patience."""
    call_ms: int = 0


def repair_score(events: Sequence[TraceEvent]) -> RepairScore:
    repairs = [e for e in events if isinstance(e, UserRepair)]
    turns = sorted({e.t_ms for e in repairs})
    ms = sum(_repair_ms(events, t) for t in turns)
    return RepairScore(
        turns=len(turns),
        ms=ms,
        kinds=dict(Counter(e.data.kind for e in repairs)),
        over_budget=sum(e.data.over_budget for e in repairs),
        call_ms=events[-1].t_ms if events else 0,
    )


def _repair_ms(events: Sequence[TraceEvent], t: int) -> int:
    """From the start of the agent turn that asked to the end of the answer at `t`."""
    asked = [
        e.data.start_ms for e in events if isinstance(e, AgentUtterance) and e.data.start_ms < t
    ]
    answer = next(
        (e for e in events if isinstance(e, UserUtterance) and e.t_ms == t and e.data.plan_ids),
        None,
    )
    if answer is None:
        return 0
    end = answer.data.end_ms
    cut = next(
        (
            e.t_ms
            for e in events
            if isinstance(e, UserYielded)
            and e.t_ms >= t
            and set(e.data.plan_ids) == set(answer.data.plan_ids)
        ),
        None,
    )
    end = min(end, cut) if cut is not None else end
    start = max(asked) if asked else t
    return max(0, end - start)


def _round(x: float | None, digits: int = 3) -> float | None:
    return None if x is None else round(x, digits)


def repair_block(rs: Sequence[RepairScore]) -> dict[str, Any] | None:
    """Repairs over the valid episodes' scores (None: none carries a repair score)."""
    if not rs:
        return None
    kinds: Counter[str] = Counter()
    for r in rs:
        kinds.update(r.kinds)
    call_ms = sum(r.call_ms for r in rs)
    return {
        "episodes": len(rs),
        "episodes_with_repairs": sum(r.turns > 0 for r in rs),
        "turns_per_episode": _round(statistics.mean(r.turns for r in rs)),
        "seconds_per_episode": _round(statistics.mean(r.ms for r in rs) / 1000),
        "share_of_call_time": _round(sum(r.ms for r in rs) / call_ms) if call_ms else None,
        "kinds": dict(sorted(kinds.items())),
        "over_budget": sum(r.over_budget for r in rs),
    }
