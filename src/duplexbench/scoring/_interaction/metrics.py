"""τ-Voice voice-interaction panel (docs/metrics.md, "τ-Voice panel") on neutral timelines.

Events are pooled over all timelines before any rate is taken, as τ-Voice does.
Times are milliseconds in, seconds out. "Agent speaking at t" means some agent
segment has start <= t < end (half-open). Each timeline first loses its call-end
artifact (``timeline.drop_call_end_artifact``).

Readings made here:

* Eligible user turn (response events): a user segment of kind "turn" such that the
  agent is not speaking at its end. Backchannels, vocal tics and non-directed speech
  are never eligible; an interruption the agent did not resolve (agent still speaking
  when the user stops) is excluded by the "agent silent at the end" test.
* Response: the first agent segment starting at or after the turn's end, if it starts
  no later than the next user "turn" segment starting at or after that end. Latency =
  agent start - user end. ``no_response``: the user starts another turn first. An
  eligible turn with neither a later agent segment nor a later user turn (the call
  ended) yields no event.
* Real interruption: a user "turn" segment starting while the agent speaks. The agent
  "stops" at the end of the agent segment active at the user's start. Yield when
  stop - user start <= 2.0 s (2.0 s is a yield, 2.001 s is not) and the agent cut
  that segment short (``Segment.cut``: queued audio dropped or a cancel); a segment
  that stopped in the window but ended naturally (``cut`` False: the agent had
  finished what it was saying) is "ended naturally", no yield, and counts in the
  yield rate's denominator (``ended_naturally_rate`` beside it). Timelines that do
  not record cuts (``cut`` None: tau2 trajectories) are judged on the stop alone.
  Yield latency is stop - user start, averaged over yields only.
* Agent interruption: an agent segment starting while any user segment is active.
  Rate = count / eligible user turns (response + no_response), so it can exceed 1.
* Backchannel selectivity: user backchannels starting during agent speech; error when
  the agent stops within 1.0 s (inclusive) of the backchannel's start, else correct.
  A backchannel starting in silence is no event.
* Vocal tic / non-directed selectivity: if it starts during agent speech, error when
  the agent stops within 1.0 s (inclusive) of its start; if it starts in silence,
  error when an agent segment starts in [its start, its end + 2.0 s] (inclusive).
* Sufficiency: every panel entry is {"value", "count", "insufficient"}; with fewer than
  10 events behind it (latencies: samples; rates: denominator) value is None and
  insufficient is True. ``selectivity`` overall = unweighted mean of the three
  selectivities, only when each has >= 10 events.
* Unresponsive period: within one timeline, 3 or more consecutive ``no_response``
  eligible turns (consecutive in eligible-turn order).
* Dead air: spans inside [0, end_ms] where no segment of either speaker is active;
  total and longest in seconds, fraction of summed call time, count of gaps > 3.0 s.

Two rule sets (``rules``): "duplexbench" (default) is the set of readings above, for
our own traces, where tics and side remarks are utterances of their own.
"tau2" is tau2-bench's reading of the same definitions, for tau2 trajectories, where
tics and side remarks are effects mixed into user speech or played in its pauses;
``tau2_rules.py`` lists each difference. Under it the call-end filter, response,
yield, interruption and selectivity events follow tau2-bench, values behind < 10
events are kept (still flagged insufficient), and overall selectivity is the mean
of the three whenever all three have a value. Dead air and unresponsive periods use
the same readings under both, on the timeline after that rule set's call-end filter.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean
from typing import Any, Literal

from duplexbench.scoring._interaction.event_pool import (
    SELECTIVITY_KINDS,
    EventPool,
    agent_segment_at,
    count_stop,
    tally_responses,
)
from duplexbench.scoring._interaction.tau2_rules import collect_tau2_events, drop_final_tick
from duplexbench.scoring._interaction.timeline import (
    InteractionTimeline,
    drop_call_end_artifact,
)

Rules = Literal["duplexbench", "tau2"]
RULES: tuple[Rules, ...] = ("duplexbench", "tau2")

MIN_EVENTS = 10
NO_YIELD_WINDOW_MS = 2000.0
SELECTIVITY_YIELD_WINDOW_MS = 1000.0
SELECTIVITY_RESPONSE_WINDOW_MS = 2000.0
UNRESPONSIVE_RUN = 3
LONG_GAP_MS = 3000.0


def _response_events(tl: InteractionTimeline, ev: EventPool) -> None:
    agent = tl.agent
    turns = [u for u in tl.user if u.kind == "turn"]
    eligible = [u for u in turns if agent_segment_at(agent, u.end_ms) is None]
    tally_responses(eligible, agent, lambda _, u: (t for t in turns if t is not u), ev)


def _overlap_events(tl: InteractionTimeline, ev: EventPool) -> None:
    agent = tl.agent
    user = tl.user
    for u in user:
        speaking = agent_segment_at(agent, u.start_ms)
        if speaking is not None:
            stop_after = speaking.end_ms - u.start_ms
            if u.kind == "turn":
                count_stop(ev, speaking, stop_after, stop_after <= NO_YIELD_WINDOW_MS)
            else:
                bucket = ev.error if stop_after <= SELECTIVITY_YIELD_WINDOW_MS else ev.correct
                bucket[u.kind] += 1
        elif u.kind in ("vocal_tic", "non_directed"):
            limit = u.end_ms + SELECTIVITY_RESPONSE_WINDOW_MS
            responded = any(u.start_ms <= a.start_ms <= limit for a in agent)
            (ev.error if responded else ev.correct)[u.kind] += 1
    ev.agent_interruptions += sum(1 for a in agent if any(u.active_at(a.start_ms) for u in user))


def _dead_air(tl: InteractionTimeline, ev: EventPool) -> None:
    cursor = 0.0
    for s in tl.segments:  # sorted by start
        start = min(s.start_ms, tl.end_ms)
        if start > cursor:
            ev.gaps_ms.append(start - cursor)
        cursor = max(cursor, min(s.end_ms, tl.end_ms))
    if tl.end_ms > cursor:
        ev.gaps_ms.append(tl.end_ms - cursor)
    ev.call_ms += tl.end_ms


def _entry(value: float | None, count: int, keep: bool) -> dict[str, Any]:
    """A panel entry; below ``MIN_EVENTS`` the value is dropped unless ``keep``."""
    insufficient = count < MIN_EVENTS
    shown = value if keep or not insufficient else None
    return {"value": shown, "count": count, "insufficient": insufficient}


def _rate(num: int, den: int, keep: bool) -> dict[str, Any]:
    return _entry(num / den if den else None, den, keep)


def _mean_s(values_ms: Sequence[float], keep: bool) -> dict[str, Any]:
    return _entry(fmean(values_ms) / 1000.0 if values_ms else None, len(values_ms), keep)


def _collect_events(timelines: Sequence[InteractionTimeline], rules: Rules) -> EventPool:
    """Pool events over ``timelines`` (each after its rule set's call-end filter)."""
    if rules not in RULES:
        raise ValueError(f"unknown interaction rules {rules!r}; expected one of {RULES}")
    ev = EventPool()
    for raw in timelines:
        if rules == "tau2":
            tl = drop_final_tick(raw)
            collect_tau2_events(tl, ev)
        else:
            tl = drop_call_end_artifact(raw)
            _response_events(tl, ev)
            _overlap_events(tl, ev)
        _dead_air(tl, ev)
    return ev


def _selectivity_overall(parts: Sequence[dict[str, Any]], keep: bool) -> dict[str, Any]:
    enough = all(p["count"] >= MIN_EVENTS for p in parts)
    has_all = all(p["value"] is not None for p in parts)
    shown = (keep or enough) and has_all
    return {
        "value": fmean(p["value"] for p in parts) if shown else None,
        "count": sum(p["count"] for p in parts),
        "insufficient": not enough,
    }


def interaction_metrics(
    timelines: Sequence[InteractionTimeline], rules: Rules = "duplexbench"
) -> dict[str, Any]:
    """The τ-Voice panel pooled over ``timelines`` under ``rules``; see the module docstring."""
    ev = _collect_events(timelines, rules)
    keep = rules == "tau2"
    responses = len(ev.response_latencies_ms)
    response_total = responses + ev.no_response
    yields = len(ev.yield_latencies_ms)
    interruptions = yields + ev.no_yield + ev.ended_naturally
    out: dict[str, Any] = {
        "response_latency": _mean_s(ev.response_latencies_ms, keep),
        "response_rate": _rate(responses, response_total, keep),
        "yield_latency": _mean_s(ev.yield_latencies_ms, keep),
        "yield_rate": _rate(yields, interruptions, keep),
        "ended_naturally_rate": _rate(ev.ended_naturally, interruptions, keep),
        "agent_interruption_rate": _rate(ev.agent_interruptions, response_total, keep),
    }
    for kind in SELECTIVITY_KINDS:
        total = ev.correct[kind] + ev.error[kind]
        out[f"selectivity_{kind}"] = _rate(ev.correct[kind], total, keep)
    out["selectivity"] = _selectivity_overall(
        [out[f"selectivity_{k}"] for k in SELECTIVITY_KINDS], keep
    )
    runs = ev.longest_unanswered_run
    out["unresponsive_period"] = {
        "flag": any(r >= UNRESPONSIVE_RUN for r in runs),
        "timelines_flagged": sum(r >= UNRESPONSIVE_RUN for r in runs),
        "longest_run": max(runs, default=0),
    }
    gaps = [g for g in ev.gaps_ms if g > 0]
    out["dead_air"] = {
        "total_s": sum(gaps) / 1000.0,
        "fraction": sum(gaps) / ev.call_ms if ev.call_ms else None,
        "longest_s": max(gaps, default=0.0) / 1000.0,
        "gaps_over_3s": sum(g > LONG_GAP_MS for g in gaps),
    }
    out["counts"] = _counts(ev, response_total, yields)
    return out


def _counts(ev: EventPool, response_total: int, yields: int) -> dict[str, int]:
    counts = {
        "n_timelines": len(ev.longest_unanswered_run),
        "response_total": response_total,
        "no_response": ev.no_response,
        "yield_total": yields + ev.no_yield + ev.ended_naturally,
        "no_yield": ev.no_yield,
        "ended_naturally": ev.ended_naturally,
        "agent_interrupts_count": ev.agent_interruptions,
    }
    for kind in SELECTIVITY_KINDS:
        counts[f"{kind}_total"] = ev.correct[kind] + ev.error[kind]
        counts[f"{kind}_error"] = ev.error[kind]
    return counts
