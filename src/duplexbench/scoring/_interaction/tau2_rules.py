"""tau2-bench's rule set for the τ-Voice panel: ``interaction_metrics(..., rules="tau2")``.

Re-implemented from the reading of tau2-bench's ``tau2.metrics.voice_interaction_metrics``
(a port of the τ-Voice paper pipeline) so that tau2 trajectories give tau2-bench's
numbers (the parity test pins its golden experiment). It works on neutral timelines
and uses the fields only this rule set reads: ``Segment.inserts``,
``Segment.out_of_turn`` and ``InteractionTimeline.tick_ms``.

"Speech segments" below are the user segments that are not ``out_of_turn``; the
out-of-turn ones ("effects") are tics or side remarks played in the user's pauses.
A speech segment "has a tic" when its kind is "vocal_tic" or "vocal_tic" is among its
inserts (likewise "non-directed"). Windows are converted to whole ticks as tau2 does
(``int(window / tick)``); on a timeline without a tick grid they are used as they are.
Where this differs from the duplexbench rules (``metrics.py``):

1. Response eligibility: every speech segment except backchannels and segments with
   the agent speaking at their end, so a turn with a tic or side remark inside it is
   still a turn; "no response" means the next *eligible* segment started first
   (duplexbench: only kind "turn" segments, and any later turn).
2. Effects that start while the agent speaks give an event only when the agent
   stopped within 1.0 s (inclusive) of their start (an error); the agent talking
   through them records nothing (duplexbench: a correct event).
3. Stop detection for speech segments starting during agent speech (interruptions,
   backchannels, speech with a tic / side remark): the agent must fall silent on a
   tick before the call ends and within ``int(window / tick)`` ticks of the user's
   start, so the window is exclusive (2.0 s is not a yield, 1.0 s is not a
   backchannel error) and an agent talking to the last tick never stops
   (duplexbench: the agent segment's end, window inclusive).
4. Call end: when the last user speech segment is one tick (<= 200 ms without a grid)
   and ends the call, that final tick is cut from the call: the segment goes, segments
   starting on it go, the others are clipped, and ``end_ms`` moves back one tick
   (duplexbench: only that segment goes, and only if it is the last to start).
5. Agent interruptions count agent segments starting while a *speech* segment is
   active (duplexbench: any user segment, out-of-turn inserts included).
6. Speech segments with a tic / side remark starting in silence give a tic / ND event
   (agent starting in [start, end + 2.0 s] = error), a backchannel included; a
   backchannel starting in silence with no insert gives no event (as duplexbench).
7. Sufficiency: tau2-bench reports every rate with a nonzero denominator, so the
   panel keeps values backed by < 10 events (still flagged ``insufficient``).

Shared with the duplexbench rules: an interruption whose agent segment stopped in the
window but is known to have ended naturally (``Segment.cut`` False) is "ended
naturally", not a yield. tau2 trajectories record no cuts (``cut`` None), so on them
the stop alone decides, exactly as in tau2-bench.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from duplexbench.scoring._interaction.event_pool import (
    EventPool,
    agent_segment_at,
    count_stop,
    tally_responses,
)
from duplexbench.scoring._interaction.timeline import (
    DEFAULT_ARTIFACT_MAX_MS,
    InteractionTimeline,
    Segment,
)

# tau2-bench's InteractionMetricsConfig defaults (milliseconds here).
NO_YIELD_WINDOW_MS = 2000.0
SELECTIVITY_YIELD_WINDOW_MS = 1000.0
SELECTIVITY_RESPONSE_WINDOW_MS = 2000.0


def _within(span_ms: float, window_ms: float, tick_ms: float | None, *, strict: bool) -> bool:
    """``span`` inside ``window``, both counted in whole ticks when there is a grid."""
    if tick_ms is None:
        return span_ms < window_ms if strict else span_ms <= window_ms
    span, window = round(span_ms / tick_ms), int(window_ms / tick_ms)
    return span < window if strict else span <= window


def _has(u: Segment, kind: str) -> bool:
    return u.kind == kind or kind in u.inserts


def _insert_kind(u: Segment) -> str | None:
    """The tic / ND kind a segment counts as (tic first), None when it has neither."""
    if _has(u, "vocal_tic"):
        return "vocal_tic"
    if _has(u, "non_directed"):
        return "non_directed"
    return None


def drop_final_tick(tl: InteractionTimeline) -> InteractionTimeline:
    """Cut a one-tick user speech segment that ends the call, with its tick (rule 4)."""
    speech = [u for u in tl.user if not u.out_of_turn]
    if not speech:
        return tl
    last = max(speech, key=lambda s: s.start_ms)
    one_tick = tl.tick_ms if tl.tick_ms is not None else DEFAULT_ARTIFACT_MAX_MS
    if not (last.end_ms >= tl.end_ms and last.duration_ms <= one_tick and last.start_ms > 0):
        return tl
    cut = last.start_ms
    kept = tuple(
        replace(s, end_ms=min(s.end_ms, cut))
        for s in tl.segments
        if s is not last and s.start_ms < cut
    )
    return replace(tl, segments=kept, end_ms=cut)


def _response_events(speech: Sequence[Segment], agent: Sequence[Segment], ev: EventPool) -> None:
    """Rule 1: eligible speech segments and what followed each."""
    eligible = [
        u for u in speech if u.kind != "backchannel" and agent_segment_at(agent, u.end_ms) is None
    ]
    tally_responses(eligible, agent, lambda i, _: eligible[i + 1 :], ev)


def _agent_responded(agent: Sequence[Segment], u: Segment, tick_ms: float | None) -> bool:
    """An agent segment starts in [u.start, u.end + response window] (inclusive)."""
    return any(
        a.start_ms >= u.start_ms
        and _within(a.start_ms - u.end_ms, SELECTIVITY_RESPONSE_WINDOW_MS, tick_ms, strict=False)
        for a in agent
    )


def _speech_event(
    tl: InteractionTimeline, u: Segment, agent: Sequence[Segment], ev: EventPool
) -> None:
    """Rules 3 and 6: one speech segment's yield or selectivity event, if any."""
    speaking = agent_segment_at(agent, u.start_ms)
    insert = _insert_kind(u)
    if speaking is None:
        if insert is not None:
            ev.selectivity(insert, error=_agent_responded(agent, u, tl.tick_ms))
        return
    kind = "backchannel" if u.kind == "backchannel" else insert
    window = NO_YIELD_WINDOW_MS if kind is None else SELECTIVITY_YIELD_WINDOW_MS
    stop_after = speaking.end_ms - u.start_ms
    stopped = speaking.end_ms < tl.end_ms and _within(stop_after, window, tl.tick_ms, strict=True)
    if kind is not None:
        ev.selectivity(kind, error=stopped)
    else:
        count_stop(ev, speaking, stop_after, stopped)


def _effect_event(
    tl: InteractionTimeline, e: Segment, agent: Sequence[Segment], ev: EventPool
) -> None:
    """Rule 2: an out-of-turn tic / side remark."""
    speaking = agent_segment_at(agent, e.start_ms)
    if speaking is None:
        ev.selectivity(e.kind, error=_agent_responded(agent, e, tl.tick_ms))
        return
    stop_after = speaking.end_ms - e.start_ms
    if _within(stop_after, SELECTIVITY_YIELD_WINDOW_MS, tl.tick_ms, strict=False):
        ev.selectivity(e.kind, error=True)


def collect_tau2_events(tl: InteractionTimeline, ev: EventPool) -> None:
    """Add one timeline's events under the tau2 rules; call ``drop_final_tick`` first."""
    agent = tl.agent
    speech = tuple(u for u in tl.user if not u.out_of_turn)
    _response_events(speech, agent, ev)
    for u in speech:
        _speech_event(tl, u, agent, ev)
    for e in (u for u in tl.user if u.out_of_turn):
        _effect_event(tl, e, agent, ev)
    ev.agent_interruptions += sum(1 for a in agent if any(u.active_at(a.start_ms) for u in speech))


TAU2_PANEL_FIELDS = {
    "response_latency_mean": "response_latency",
    "yield_latency_mean": "yield_latency",
    "response_rate": "response_rate",
    "yield_rate": "yield_rate",
    "agent_interruption_rate": "agent_interruption_rate",
    "selectivity_backchannel": "selectivity_backchannel",
    "selectivity_vocal_tic": "selectivity_vocal_tic",
    "selectivity_non_directed": "selectivity_non_directed",
}
TAU2_COUNT_FIELDS = {
    "n_simulations": "n_timelines",
    "response_total": "response_total",
    "yield_total": "yield_total",
    "backchannel_total": "backchannel_total",
    "vocal_tic_total": "vocal_tic_total",
    "non_directed_total": "non_directed_total",
    "agent_interrupts_count": "agent_interrupts_count",
}


def as_tau2_metrics(panel: dict[str, Any]) -> dict[str, Any]:
    """A panel in tau2-bench's layout (the keys of its per-domain metrics block).

    Meaningful for a panel computed with ``rules="tau2"``, which keeps every value.
    """
    out: dict[str, Any] = {name: panel[key]["value"] for name, key in TAU2_PANEL_FIELDS.items()}
    out["counts"] = {theirs: panel["counts"][key] for theirs, key in TAU2_COUNT_FIELDS.items()}
    return out
