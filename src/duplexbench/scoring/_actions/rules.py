"""Immediate execution: one rule per action, exactly the table in docs/actions.md, Scoring.

All times are integer ms (t = 0 at the first streamed user sample). An
agent segment [s, e) overlaps an interval [a, b] when s < b and e > a;
every onset window [lo, hi] is inclusive at both ends. "Substantive" is
:attr:`AgentSegment.substantive` (more than three words, counted by
:mod:`duplexbench.words`: a token without a letter or digit is no word, so
"Okay — got it." is a three-word backchannel).

Readings of our own (where the definitions leave a choice):

- :data:`TURN_GAP_MS` (500 ms): agent segments separated by a silence
  shorter than this are one turn. VAD segments end at breath pauses while
  the agent keeps talking, so Stop asks whether the *turn* active at cue
  onset ended, not the VAD segment. The same constant decides whether a
  backchannel is genuine: one followed by another agent segment starting
  less than 500 ms after its end is the start of a turn, not a backchannel.
- Stop counts only trials where an agent segment contains the cue onset
  (start <= onset < end); otherwise the verdict is not applicable (None)
  and the trial is left out of I. Any cued action whose cue was never
  placed is not applicable either.
- Backchannel: only the first 1-3-word segment starting inside
  `backchannel_span` (inclusive) is judged; if it is not genuine or its
  function is wrong the trial fails even if a later one would pass. Its
  audio is `agent_audio` from sample `start_ms * rate / 1000` (sample 0 is
  t = 0).
- Timing diagnostics use the first qualifying onset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from duplexbench.audio import Int16Array
from duplexbench.items import Action, Span
from duplexbench.scoring._actions.backchannel import backchannel_function
from duplexbench.scoring._actions.observation import (
    BACKCHANNEL_MAX_WORDS,
    ActionObservation,
    AgentSegment,
)

TURN_GAP_MS = 500
"""Agent segments closer than this are one turn (Stop; genuine backchannels)."""
HOLD_FLOOR_TAIL_MS = 1000
"""Hold Floor's window runs to cue end + this."""
HOLD_FLOOR_MAX_GAP_MS = 500
"""Longest silence (leading and trailing included) Hold Floor allows."""
RECOVER_BEFORE_MS = 2000
RECOVER_AFTER_MS = 5000
"""Recover: a substantive onset in [cue end − 2000, cue end + 5000]."""
INTERRUPT_MARGIN_MS = 1000
"""Interrupt: a substantive onset in [user start, user end − 1000]."""
STOP_FINAL_MS = 1000
"""Stop follow-through: new substantive onsets are allowed only in the cue's final 1000 ms."""


@dataclass(frozen=True)
class Verdict:
    """One rule's (or heuristic's, or judge's) answer; `success` None = not applicable."""

    success: bool | None
    reason: str
    timing_ms: int | None = None


class MissingAnnotation(ValueError):
    """The item lacks an annotation (or the observation a cue) its action needs."""


def agent_sorted(obs: ActionObservation) -> list[AgentSegment]:
    return sorted(obs.agent, key=lambda s: (s.start_ms, s.end_ms))


def overlaps(seg: AgentSegment, start_ms: int, end_ms: int) -> bool:
    """[s, e) overlaps [a, b]: s < b and e > a."""
    return seg.start_ms < end_ms and seg.end_ms > start_ms


def onsets(
    obs: ActionObservation, lo: int, hi: int, substantive: bool = True
) -> list[AgentSegment]:
    """Agent segments (substantive ones by default) with onset in [lo, hi]."""
    return [
        s
        for s in agent_sorted(obs)
        if lo <= s.start_ms <= hi and (s.substantive or not substantive)
    ]


def turns(segments: Sequence[AgentSegment]) -> list[tuple[int, int]]:
    """Merge agent segments separated by gaps < TURN_GAP_MS into (start, end) turns."""
    out: list[tuple[int, int]] = []
    for seg in sorted(segments, key=lambda s: (s.start_ms, s.end_ms)):
        if out and seg.start_ms - out[-1][1] < TURN_GAP_MS:
            out[-1] = (out[-1][0], max(out[-1][1], seg.end_ms))
        else:
            out.append((seg.start_ms, seg.end_ms))
    return out


def turn_at(segments: Sequence[AgentSegment], t_ms: int) -> tuple[int, int] | None:
    """The turn whose segment contains `t_ms` (start <= t < end), if any."""
    if not any(s.start_ms <= t_ms < s.end_ms for s in segments):
        return None
    return next(t for t in turns(segments) if t[0] <= t_ms < t[1])


def _need(value: object, what: str, obs: ActionObservation) -> None:
    if value is None:
        raise MissingAnnotation(f"{obs.item.id} ({obs.item.condition}) has no {what}")


def _window(lo: int, hi: int) -> str:
    return f"[{lo}, {hi}]"


def _silent_through(obs: ActionObservation, span: Span, name: str) -> Verdict:
    where = f"the {name} {_window(span.start_ms, span.end_ms)}"
    for s in agent_sorted(obs):
        if s.substantive and overlaps(s, span.start_ms, span.end_ms):
            return Verdict(
                False, f"substantive agent speech {s.start_ms}-{s.end_ms} ms overlaps {where}"
            )
    return Verdict(True, f"no substantive agent speech overlaps {where}")


def wait(obs: ActionObservation) -> Verdict:
    span = obs.item.annotations.wait_interval
    _need(span, "annotations.wait_interval", obs)
    assert span is not None
    return _silent_through(obs, span, "wait interval")


def ignore(obs: ActionObservation) -> Verdict:
    span = obs.item.annotations.distractor_interval
    _need(span, "annotations.distractor_interval", obs)
    assert span is not None
    return _silent_through(obs, span, "distractor interval")


def _first_onset(obs: ActionObservation, lo: int, hi: int, name: str) -> tuple[int | None, str]:
    hits = onsets(obs, lo, hi)
    where = f"the {name} {_window(lo, hi)}"
    if not hits:
        return None, f"no substantive onset in {where}"
    return hits[0].start_ms, f"substantive onset at {hits[0].start_ms} ms in {where}"


def take_turn(obs: ActionObservation) -> Verdict:
    ann = obs.item.annotations
    _need(ann.user_end_ms, "annotations.user_end_ms", obs)
    _need(ann.response_window, "annotations.response_window", obs)
    assert ann.user_end_ms is not None and ann.response_window is not None
    lo, hi = ann.user_end_ms + ann.response_window[0], ann.user_end_ms + ann.response_window[1]
    t, reason = _first_onset(obs, lo, hi, "response window")
    return Verdict(t is not None, reason, None if t is None else t - ann.user_end_ms)


def backchannel_segment(obs: ActionObservation) -> AgentSegment | None:
    """The first 1-3-word agent segment with onset inside annotations.backchannel_span."""
    span = obs.item.annotations.backchannel_span
    if span is None:
        return None
    for s in agent_sorted(obs):
        if 1 <= s.n_words <= BACKCHANNEL_MAX_WORDS and span.start_ms <= s.start_ms <= span.end_ms:
            return s
    return None


def segment_audio(obs: ActionObservation, seg: AgentSegment) -> Int16Array | None:
    """The delivered agent audio under a segment (sample 0 = t 0), if recorded."""
    if obs.agent_audio is None:
        return None
    lo = seg.start_ms * obs.sample_rate // 1000
    hi = seg.end_ms * obs.sample_rate // 1000
    part: Int16Array = np.asarray(obs.agent_audio[lo:hi], dtype=np.int16)
    return part if len(part) else None


def backchannel(obs: ActionObservation) -> Verdict:
    span = obs.item.annotations.backchannel_span
    _need(span, "annotations.backchannel_span", obs)
    assert span is not None
    bc = backchannel_segment(obs)
    if bc is None:
        where = _window(span.start_ms, span.end_ms)
        return Verdict(False, f"no 1-3-word agent segment starts inside the user speech {where}")
    said = f"{bc.text!r} at {bc.start_ms} ms"
    for s in agent_sorted(obs):
        if s is not bc and bc.end_ms <= s.start_ms < bc.end_ms + TURN_GAP_MS:
            why = f"agent speech follows at {s.start_ms} ms, < {TURN_GAP_MS} ms after its end"
            return Verdict(False, f"{said} starts a turn: {why}", bc.start_ms)
    function = backchannel_function(bc.words, segment_audio(obs, bc), obs.sample_rate)
    wanted = obs.item.condition.partition(".")[2]
    reason = f"{said} is a genuine {function} backchannel; the condition wants {wanted}"
    return Verdict(function == wanted, reason, bc.start_ms)


def stop(obs: ActionObservation) -> Verdict:
    cue = obs.cue
    if cue is None:
        return Verdict(None, "no cue was placed")
    turn = turn_at(obs.agent, cue.start_ms)
    if turn is None:
        return Verdict(None, f"agent not speaking at cue onset ({cue.start_ms} ms)")
    end, at = turn[1], f"the agent turn active at cue onset {cue.start_ms} ms"
    if end >= obs.end_ms:
        return Verdict(False, f"{at} is still going at the recording end ({obs.end_ms} ms)")
    return Verdict(True, f"{at} ended at {end} ms", end - cue.start_ms)


def hold_floor(obs: ActionObservation) -> Verdict:
    cue = obs.cue
    if cue is None:
        return Verdict(None, "no cue was placed")
    lo, hi = cue.start_ms, cue.end_ms + HOLD_FLOOR_TAIL_MS
    clipped = sorted(
        (max(s.start_ms, lo), min(s.end_ms, hi)) for s in obs.agent if overlaps(s, lo, hi)
    )
    if not clipped:
        return Verdict(False, f"no agent speech in {_window(lo, hi)}")
    longest, cursor = 0, lo
    for start, end in clipped:
        longest = max(longest, start - cursor)
        cursor = max(cursor, end)
    longest = max(longest, hi - cursor)
    ok = longest <= HOLD_FLOOR_MAX_GAP_MS
    limit = f"{'within' if ok else 'over'} the {HOLD_FLOOR_MAX_GAP_MS} ms limit"
    return Verdict(ok, f"longest silence in {_window(lo, hi)} is {longest} ms, {limit}", longest)


def recover(obs: ActionObservation) -> Verdict:
    cue = obs.cue
    if cue is None:
        return Verdict(None, "no cue was placed")
    lo, hi = cue.end_ms - RECOVER_BEFORE_MS, cue.end_ms + RECOVER_AFTER_MS
    t, reason = _first_onset(obs, lo, hi, "recovery window")
    return Verdict(t is not None, reason, None if t is None else t - cue.end_ms)


def interrupt(obs: ActionObservation) -> Verdict:
    span = obs.item.user_span()
    _need(span, "addressed user speech", obs)
    assert span is not None
    lo, hi = span.start_ms, span.end_ms - INTERRUPT_MARGIN_MS
    t, reason = _first_onset(obs, lo, hi, "interruption window")
    target = obs.item.annotations.target_point_ms
    timing = None if t is None or target is None else t - target
    return Verdict(t is not None, reason, timing)


def stop_follow_through(obs: ActionObservation) -> Verdict:
    """No new substantive onset in (turn end, cue end − 1000 ms), ≤ 3-word onsets allowed.

    Not applicable (None) unless Stop succeeded, or when the agent stopped
    only after the intervention had ended.
    """
    first = stop(obs)
    if first.success is not True:
        return Verdict(None, f"not evaluated: immediate Stop did not succeed ({first.reason})")
    cue = obs.cue
    assert cue is not None and first.timing_ms is not None
    turn_end = cue.start_ms + first.timing_ms
    if turn_end >= cue.end_ms:
        why = f"the agent stopped at {turn_end} ms, after the intervention ended ({cue.end_ms} ms)"
        return Verdict(None, f"n/a: {why}")
    limit = cue.end_ms - STOP_FINAL_MS
    for s in agent_sorted(obs):
        if s.substantive and turn_end < s.start_ms < limit:
            why = f"before the intervention's final {STOP_FINAL_MS} ms (from {limit} ms)"
            return Verdict(False, f"new substantive onset at {s.start_ms} ms, {why}")
    return Verdict(
        True, f"no new substantive onset between the stop ({turn_end} ms) and {limit} ms"
    )


RULES: dict[Action, Callable[[ActionObservation], Verdict]] = {
    "wait": wait,
    "ignore": ignore,
    "take_turn": take_turn,
    "backchannel": backchannel,
    "stop": stop,
    "hold_floor": hold_floor,
    "recover": recover,
    "interrupt": interrupt,
}


def immediate(obs: ActionObservation) -> Verdict:
    """Immediate execution of the item's action (raises MissingAnnotation on a bad item)."""
    return RULES[obs.item.action](obs)
