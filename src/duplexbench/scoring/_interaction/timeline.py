"""Neutral input types for the τ-Voice interaction panel.

A timeline is a list of contiguous speech segments on two channels (user, agent),
in milliseconds from the call start, plus the call end. Nothing here knows about
duplexbench traces or tau2 ticks; readers build timelines.

Rules fixed here:

* Classification priority (``classify_user_segment``): a user segment that fits
  several kinds is backchannel > vocal tic > non-directed > real turn.
* Call-end artifact (``drop_call_end_artifact``): the final user segment is dropped
  when it is the last segment to start, it ends at the call end (``end_ms``), and it
  lasts at most ``artifact_max_ms`` (default 200 ms, one τ-Voice tick). This is the
  neutral form of τ-Voice's rule (a 1-tick user segment on the very last tick, caused
  by the user simulator's ###STOP###). ``end_ms`` is kept unchanged.

Extra fields read only by the tau2-bench rule set (``tau2_rules.py``); readers that
do not know them leave the defaults and every other rule ignores them:

* ``Segment.inserts``: the insert kinds ("vocal_tic", "non_directed") a user
  segment carries besides its own ``kind`` (a turn with a cough played inside it
  has kind "vocal_tic" and inserts {"vocal_tic"}; a backchannel with a tic keeps
  kind "backchannel").
* ``Segment.out_of_turn``: the segment is an audio insert played while the user
  was not speaking (a tic or side remark in a pause), not user speech.
* ``InteractionTimeline.tick_ms``: the time grid the timeline was sampled on (tau2
  trajectories: 200 ms ticks); None for continuous timelines.

``Segment.cut`` (agent segments) is read by both rule sets: a stop within the yield
window counts as a yield only when the segment was not known to end naturally
(``cut`` False: an "ended naturally" event instead). duplexbench traces always record
it; tau2 trajectories do not (None: the stop alone decides, as in tau2-bench).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

Speaker = Literal["user", "agent"]
SegmentKind = Literal["turn", "backchannel", "vocal_tic", "non_directed"]
InsertKind = Literal["vocal_tic", "non_directed"]

DEFAULT_ARTIFACT_MAX_MS = 200.0


@dataclass(frozen=True)
class Segment:
    """Contiguous speech of one speaker; ``kind`` other than "turn" is user-only."""

    speaker: Speaker
    start_ms: float
    end_ms: float
    kind: SegmentKind = "turn"
    text: str = ""
    inserts: frozenset[InsertKind] = frozenset()
    out_of_turn: bool = False
    cut: bool | None = None
    """Agent only: the agent cut this speech short (dropped queued audio or cancelled:
    True) or it ended naturally (False); None when the source does not record it."""

    def __post_init__(self) -> None:
        if self.end_ms < self.start_ms:
            raise ValueError(f"segment ends before it starts: {self.start_ms}..{self.end_ms}")
        if self.speaker == "user" and self.cut is not None:
            raise ValueError("only agent segments are cut short or end naturally")
        if self.speaker == "agent" and (self.kind != "turn" or self.inserts or self.out_of_turn):
            raise ValueError("only user segments may have a kind other than 'turn' or inserts")
        if self.out_of_turn and self.kind not in ("vocal_tic", "non_directed"):
            raise ValueError("an out-of-turn segment is a vocal tic or non-directed speech")

    @property
    def duration_ms(self) -> float:
        return self.end_ms - self.start_ms

    def active_at(self, t_ms: float) -> bool:
        """Half-open: speaking at ``t_ms`` when start <= t < end."""
        return self.start_ms <= t_ms < self.end_ms


@dataclass(frozen=True)
class InteractionTimeline:
    """All segments of one call, plus when the call ended."""

    segments: tuple[Segment, ...]
    end_ms: float
    tick_ms: float | None = None

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.segments, key=lambda s: (s.start_ms, s.end_ms, s.speaker)))
        object.__setattr__(self, "segments", ordered)

    @property
    def user(self) -> tuple[Segment, ...]:
        return tuple(s for s in self.segments if s.speaker == "user")

    @property
    def agent(self) -> tuple[Segment, ...]:
        return tuple(s for s in self.segments if s.speaker == "agent")


def classify_user_segment(
    *, backchannel: bool = False, vocal_tic: bool = False, non_directed: bool = False
) -> SegmentKind:
    """Pick one kind by priority: backchannel > vocal tic > non-directed > turn."""
    if backchannel:
        return "backchannel"
    if vocal_tic:
        return "vocal_tic"
    if non_directed:
        return "non_directed"
    return "turn"


def drop_call_end_artifact(
    timeline: InteractionTimeline, artifact_max_ms: float = DEFAULT_ARTIFACT_MAX_MS
) -> InteractionTimeline:
    """Return ``timeline`` without a spurious final user segment (see module docstring)."""
    if not timeline.segments:
        return timeline
    last = max(timeline.segments, key=lambda s: (s.start_ms, s.end_ms))
    is_artifact = (
        last.speaker == "user"
        and last.end_ms >= timeline.end_ms
        and last.duration_ms <= artifact_max_ms
        and all(s.start_ms < last.start_ms for s in timeline.segments if s is not last)
    )
    if not is_artifact:
        return timeline
    kept = tuple(s for s in timeline.segments if s is not last)
    return replace(timeline, segments=kept)


def make_timeline(
    segments: Sequence[Segment], end_ms: float | None = None, tick_ms: float | None = None
) -> InteractionTimeline:
    """Build a timeline; ``end_ms`` defaults to the latest segment end (0 when empty)."""
    if end_ms is None:
        end_ms = max((s.end_ms for s in segments), default=0.0)
    return InteractionTimeline(segments=tuple(segments), end_ms=end_ms, tick_ms=tick_ms)
