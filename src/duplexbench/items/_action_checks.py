"""Cross-field checks of an action item (what the schema alone cannot say).

Each problem is `(path, message)`. An item is rejected when its annotations
fall outside its audio, its segments overlap impossibly (one speaker talking
over themselves; other-directed speech is the user's own voice, so it cannot
overlap the user either), or it misses a field its condition requires.
"""

from __future__ import annotations

import itertools

from duplexbench.items._action import (
    CUED,
    TAKE_TURN_WINDOWS,
    ActionItem,
    Segment,
    Span,
    adaptation_of,
)

Found = list[tuple[str, str]]

REQUIRED: dict[str, tuple[str, ...]] = {
    "wait": ("wait_interval",),
    "ignore": ("distractor_interval",),
    "take_turn": ("user_end_ms", "response_window"),
    "backchannel": ("backchannel_span",),
    "stop": (),
    "hold_floor": ("adaptation",),
    "recover": ("adaptation",),
    "interrupt": ("target_point_ms",),
}
"""Annotation fields each action needs."""


def check_action_item(item: ActionItem) -> Found:
    found: Found = []
    found += _segments(item)
    found += _required(item)
    if found:
        return found
    found += _inside_audio(item)
    checker = _BY_ACTION.get(item.action)
    if checker is not None:
        found += checker(item)
    return found


def _segments(item: ActionItem) -> Found:
    found: Found = []
    ids = [s.id for s in item.segments]
    for i, seg in enumerate(item.segments):
        if ids.index(seg.id) != i:
            found.append((f"segments[{i}].id", f"duplicate segment id {seg.id!r}"))
    for part in ("main", "cue"):
        segs = item.part(part)
        voiced = [s for s in segs if s.role in ("user", "other")]
        for a, b in itertools.pairwise(voiced):
            if b.start_ms < a.end_ms:
                found.append(
                    (
                        f"segments[{item.segments.index(b)}]",
                        f"{b.id!r} ({b.role}) starts at {b.start_ms} ms inside {a.id!r} "
                        f"({a.role}, until {a.end_ms} ms): the user's voice cannot overlap itself",
                    )
                )
        backs = [s for s in segs if s.role == "background"]
        for a, b in itertools.pairwise(backs):
            if b.start_ms < a.end_ms:
                found.append(
                    (
                        f"segments[{item.segments.index(b)}]",
                        f"background {b.id!r} overlaps {a.id!r}",
                    )
                )
    if not item.part("main"):
        found.append(("segments", "no `main` segment: nothing plays from t = 0"))
    if item.action in CUED and not item.part("cue"):
        found.append(("segments", f"{item.action} needs `cue` segments (the user intervention)"))
    if item.action not in CUED and item.part("cue"):
        found.append(("segments", f"{item.action} plays one fixed timeline: no `cue` segments"))
    return found


def _required(item: ActionItem) -> Found:
    ann = item.annotations
    return [
        (f"annotations.{name}", f"required for {item.condition}")
        for name in REQUIRED[item.action]
        if getattr(ann, name) is None
    ]


def _inside_audio(item: ActionItem) -> Found:
    ann, end = item.annotations, item.main_end_ms
    found: Found = []
    spans: list[tuple[str, Span | None]] = [
        ("wait_interval", ann.wait_interval),
        ("distractor_interval", ann.distractor_interval),
        ("backchannel_span", ann.backchannel_span),
    ]
    for name, span in spans:
        if span is not None and span.end_ms > end:
            found.append(
                (f"annotations.{name}", f"ends at {span.end_ms} ms, after the audio ({end} ms)")
            )
    for name, t in (("user_end_ms", ann.user_end_ms), ("target_point_ms", ann.target_point_ms)):
        if t is not None and t > end:
            found.append((f"annotations.{name}", f"{t} ms is after the audio ({end} ms)"))
    return found


def _covered_by(span: Span, segs: list[Segment]) -> bool:
    return any(s.start_ms < span.end_ms and s.end_ms > span.start_ms for s in segs)


def _wait(item: ActionItem) -> Found:
    span = item.annotations.wait_interval
    assert span is not None
    users = [s for s in item.part("main") if s.role == "user"]
    whole = item.user_span()
    if item.condition == "wait.continuous_speech":
        if whole is None or (span.start_ms, span.end_ms) != (whole.start_ms, whole.end_ms):
            return [("annotations.wait_interval", "must be the whole user speech")]
        return []
    if span.end_ms <= span.start_ms:
        return [("annotations.wait_interval", "the pause is empty")]
    if _covered_by(span, users):
        return [("annotations.wait_interval", "the pause overlaps user speech")]
    before = any(s.end_ms <= span.start_ms for s in users)
    after = any(s.start_ms >= span.end_ms for s in users)
    if not (before and after):
        return [("annotations.wait_interval", "a pause needs user speech on both sides")]
    return []


def _ignore(item: ActionItem) -> Found:
    span = item.annotations.distractor_interval
    assert span is not None
    role = "other" if item.condition.endswith("other_directed_speech") else "background"
    distractors = [s for s in item.part("main") if s.role == role]
    if not distractors or not _covered_by(span, distractors):
        return [("annotations.distractor_interval", f"covers no `{role}` segment")]
    return []


def _take_turn(item: ActionItem) -> Found:
    ann, whole = item.annotations, item.user_span()
    found: Found = []
    if whole is None or ann.user_end_ms != whole.end_ms:
        found.append(("annotations.user_end_ms", "must be the end of the user speech"))
    expected = TAKE_TURN_WINDOWS[item.condition.partition(".")[2]]
    if ann.response_window is not None and tuple(ann.response_window) != expected:
        found.append(
            ("annotations.response_window", f"{item.condition} uses the window {list(expected)}")
        )
    return found


def _backchannel(item: ActionItem) -> Found:
    span, whole = item.annotations.backchannel_span, item.user_span()
    assert span is not None
    if whole is None or span.start_ms < whole.start_ms or span.end_ms > whole.end_ms:
        return [("annotations.backchannel_span", "must lie inside the user speech")]
    return []


def _cued(item: ActionItem) -> Found:
    found: Found = []
    if not [s for s in item.part("main") if s.role == "user"]:
        found.append(("segments", "no lead-in: a `main` user segment must elicit a response"))
    cue_roles = {s.role for s in item.part("cue")}
    wanted = {"user"}
    if item.condition == "hold_floor.other_directed_speech":
        wanted = {"other"}
    elif item.condition == "hold_floor.background_speech":
        wanted = {"background"}
    if cue_roles != wanted:
        found.append(("segments", f"{item.condition} cues are spoken by {sorted(wanted)}"))
    expected = adaptation_of(item.condition)
    if expected is not None and item.annotations.adaptation != expected:
        found.append(("annotations.adaptation", f"{item.condition} requires {expected!r}"))
    return found


def _interrupt(item: ActionItem) -> Found:
    t, whole = item.annotations.target_point_ms, item.user_span()
    assert t is not None
    if whole is None or not whole.start_ms <= t <= whole.end_ms - 1000:
        return [
            (
                "annotations.target_point_ms",
                "must lie in the user speech, at least 1000 ms before it ends",
            )
        ]
    return []


_BY_ACTION = {
    "wait": _wait,
    "ignore": _ignore,
    "take_turn": _take_turn,
    "backchannel": _backchannel,
    "stop": _cued,
    "hold_floor": _cued,
    "recover": _cued,
    "interrupt": _interrupt,
}
