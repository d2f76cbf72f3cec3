"""Floor control (APEX-Voice Table 4) and correction uptake.

Per episode, from the floor events the orchestrator derived:
- barge-ins: authored barge-ins (expected floor action `yield`; backchannels,
  which expect `continue`, are not counted) that started while the agent held the floor;
  yields: those the agent stopped for within the event's `max_stop_latency_ms` by
  cutting its turn short (queued audio dropped or a cancel; `trace/_barge_in.py`);
  ended naturally: those where the turn ended within the limit without being cut
  short (it had finished what it was saying: not a yield, reported beside it);
  stop latency: user speech onset -> end of the agent's delivered speech.
  The rule is re-applied to the trace's `agent.utterance` events, so traces
  recorded before it (whose `floor.yield.yielded` meant "ended in time") are
  scored the same way.
- unintended overlaps: overlapping speech not caused by an authored barge-in
  (the agent talking over the user, or the user over the agent unprompted),
  rated per agent turn.

Correction uptake, over runs: AFA on fields whose user fact was corrected
during the episode against AFA on the other fields (gap in points), and the
share of Artifact Validity failures in which a corrected field is wrong.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from duplexbench.scoring._outcomes import WorkflowOutcome
from duplexbench.scoring._view import EpisodeView
from duplexbench.trace import AgentUtterance, BargeInOutcome, barge_in_outcome, turn_at


class FloorScore(BaseModel):
    model_config = ConfigDict(extra="forbid")
    barge_ins: int = 0
    yields: int = 0
    ended_naturally: int = 0
    """Barge-ins whose agent turn ended within the limit without being cut short."""
    stop_latencies_ms: list[int] = Field(default_factory=list)
    overlaps: int = 0
    unintended_overlaps: int = 0
    agent_turns: int = 0


def floor_score(view: EpisodeView) -> FloorScore | None:
    """None for episodes without audio (no floor to measure)."""
    if not any(e.type == "episode.audio" for e in view.events):
        return None
    outcomes = _outcomes(view)
    return FloorScore(
        barge_ins=len(view.yields),
        yields=outcomes.count("yielded"),
        ended_naturally=outcomes.count("ended_naturally"),
        stop_latencies_ms=[y.data.stop_latency_ms for y in view.yields],
        overlaps=len(view.overlaps),
        unintended_overlaps=sum(o.data.barge_in is None for o in view.overlaps),
        agent_turns=view.agent_turns,
    )


def _outcomes(view: EpisodeView) -> list[BargeInOutcome]:
    """Each barge-in's outcome under the rule of `trace/_barge_in.py`, from the trace."""
    turns = [e.data for e in view.events if isinstance(e, AgentUtterance)]
    return [
        barge_in_outcome(
            y.data.stop_latency_ms, y.data.max_stop_latency_ms, turn_at(turns, y.data.onset_ms)
        )
        for y in view.yields
    ]


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def floor_block(scores: Sequence[WorkflowOutcome]) -> dict[str, Any] | None:
    floors = [s.floor for s in scores if s.status == "ok" and s.floor is not None]
    if not floors:
        return None
    barge_ins = sum(f.barge_ins for f in floors)
    latencies = [ms for f in floors for ms in f.stop_latencies_ms]
    turns = sum(f.agent_turns for f in floors)
    unintended = sum(f.unintended_overlaps for f in floors)
    ended = sum(f.ended_naturally for f in floors)
    return {
        "yield_rate": _round(sum(f.yields for f in floors) / barge_ins) if barge_ins else None,
        "ended_naturally_rate": _round(ended / barge_ins) if barge_ins else None,
        "ended_naturally": ended,
        "barge_ins": barge_ins,
        "median_stop_latency_ms": statistics.median(latencies) if latencies else None,
        "unintended_overlap_rate": _round(unintended / turns) if turns else None,
        "unintended_overlaps": unintended,
        "agent_turns": turns,
    }


def correction_block(scores: Sequence[WorkflowOutcome]) -> dict[str, Any]:
    ok = [s for s in scores if s.status == "ok"]
    corrected = [f for s in ok for f in s.fields if f.correction_linked]
    other = [f for s in ok for f in s.fields if not f.correction_linked]
    afa_c = sum(f.correct for f in corrected) / len(corrected) if corrected else None
    afa_o = sum(f.correct for f in other) / len(other) if other else None
    av_failed = [s for s in ok if s.gates.get("AV") is False]
    linked = [s for s in av_failed if any(f.correction_linked and not f.correct for f in s.fields)]
    gap = None if afa_c is None or afa_o is None else round(100 * (afa_o - afa_c), 2)
    return {
        "afa_corrected_fields": _round(afa_c),
        "corrected_fields": len(corrected),
        "afa_other_fields": _round(afa_o),
        "other_fields": len(other),
        "gap_points": gap,
        "av_failures": len(av_failed),
        "av_failures_correction_linked": len(linked),
        "correction_linked_share": _round(len(linked) / len(av_failed)) if av_failed else None,
    }


def timing_block(scores: Sequence[WorkflowOutcome]) -> dict[str, Any]:
    ok = [s for s in scores if s.status == "ok"]
    solved = [s.time_to_resolution_ms for s in ok if s.ws == 1 and s.time_to_resolution_ms]
    failed = [s.termination_ms for s in ok if s.ws != 1 and s.termination_ms is not None]
    return {
        "median_time_to_resolution_ms": statistics.median(solved) if solved else None,
        "resolved_runs": len(solved),
        "median_termination_ms_unsuccessful": statistics.median(failed) if failed else None,
        "unsuccessful_runs": len(failed),
    }
