"""The interaction timeline of one duplexbench episode, read from its trace and saved.

Segments come from the trace's `floor.segment` events (the energy VAD over the
clean user channel and the delivered agent channel, the same for every agent),
joined per utterance: the VAD segments that overlap one `user.utterance` (cut
where the user yielded) or one `agent.utterance` most become one segment from
the first one's start to the last one's end, so a pause inside a sentence is
not the end of a turn (τ-Voice's turns are whole utterances too). A VAD
segment that belongs to no utterance stays as it is.
Each user segment takes the kind of the `user.utterance` it overlaps most:
`turn`, `backchannel`, `vocal_tic` or `non_directed` (an utterance's kind is
set by the simulator: a backchannel plan, a cough, a side remark). In action
episodes the user channel is a replayed timeline: a `replay.segment` of role
`user` is a turn, one of role `other` (speech to someone else) or `background`
(another person in the room) is non-directed speech. The call
ends at `episode.audio`'s duration (the recorded call, flush included).

Each agent segment also records whether the agent cut that utterance short
(`agent.utterance` `truncated` or `cancelled`) or it ended naturally (`agent_cut`),
so the panel's yield needs a real stop, not a turn that happened to end.

The record is stored in each episode's `result.json` (`interaction`), so a run's
panel is pooled from the scores alone, as τ-Voice pools over simulations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from duplexbench.scoring._interaction.metrics import interaction_metrics
from duplexbench.scoring._interaction.timeline import (
    InteractionTimeline,
    Segment,
    SegmentKind,
    make_timeline,
)
from duplexbench.trace import (
    AgentUtterance,
    EpisodeAudio,
    FloorSegment,
    ReplaySegment,
    TraceEvent,
    UserUtterance,
    UserYielded,
)


class TimelineRecord(BaseModel):
    """Speech segments of one call: `[speaker, start_ms, end_ms, kind]` rows."""

    model_config = ConfigDict(extra="forbid")
    end_ms: int
    segments: list[tuple[Literal["user", "agent"], int, int, SegmentKind]]
    agent_cut: list[int] | None = Field(
        None,
        description="Indices into `segments` of the agent segments the agent cut short; "
        "every other agent segment ended naturally. None in records written before it.",
    )

    def timeline(self) -> InteractionTimeline:
        cut = None if self.agent_cut is None else set(self.agent_cut)
        segs = [
            Segment(who, start, end, kind, cut=None if who == "user" or cut is None else i in cut)
            for i, (who, start, end, kind) in enumerate(self.segments)
        ]
        return make_timeline(segs, self.end_ms)


Row = tuple[Literal["user", "agent"], int, int, SegmentKind]
Span = tuple[int, int, SegmentKind]


def _user_spans(events: Sequence[TraceEvent]) -> list[Span]:
    """What the user channel carried, with its kind: utterances (cut where the user
    yielded) and replayed segments."""
    spans: list[Span] = []
    for e in events:
        if isinstance(e, UserUtterance):
            spans.append((e.t_ms, e.data.end_ms, e.data.kind))
        elif isinstance(e, UserYielded) and spans:
            start, end, kind = spans[-1]
            spans[-1] = (start, min(end, e.t_ms), kind)
        elif isinstance(e, ReplaySegment):
            kind2: SegmentKind = "turn" if e.data.role == "user" else "non_directed"
            spans.append((e.data.start_ms, e.data.end_ms, kind2))
    return spans


def _agent_spans(events: Sequence[TraceEvent]) -> tuple[list[Span], list[bool]]:
    """Agent utterances as spans, and whether each was cut short."""
    turns = [e.data for e in events if isinstance(e, AgentUtterance)]
    return [(d.start_ms, d.end_ms, "turn") for d in turns], [d.cut_short for d in turns]


def _best(start: int, end: int, spans: Sequence[Span]) -> int | None:
    """Index of the span overlapping [start, end) most (None: none overlaps)."""
    best, most = None, 0
    for i, (s_start, s_end, _) in enumerate(spans):
        overlap = min(end, s_end) - max(start, s_start)
        if overlap > most:
            best, most = i, overlap
    return best


def _merge(
    channel: Literal["user", "agent"], vad: Sequence[tuple[int, int]], spans: Sequence[Span]
) -> list[Row]:
    """VAD segments grouped by the utterance they belong to: one segment per utterance
    (a pause inside an utterance is not the end of a turn); the rest stay as they are."""
    groups: dict[int, Row] = {}
    rows: list[Row] = []
    for start, end in vad:
        i = _best(start, end, spans)
        if i is None:
            rows.append((channel, start, end, "turn"))
            continue
        kind = spans[i][2]
        old = groups.get(i)
        groups[i] = (channel, start, end, kind) if old is None else (channel, old[1], end, kind)
    return sorted(rows + list(groups.values()), key=lambda r: (r[1], r[2]))


def timeline_record(events: Sequence[TraceEvent]) -> TimelineRecord | None:
    """The episode's timeline, or None when the trace has no recorded audio (text)."""
    audio = next((e for e in events if isinstance(e, EpisodeAudio)), None)
    if audio is None:
        return None
    floor = [e.data for e in events if isinstance(e, FloorSegment)]
    user = [(d.start_ms, d.end_ms) for d in floor if d.channel == "user"]
    agent = [(d.start_ms, d.end_ms) for d in floor if d.channel == "agent"]
    spans, cut = _agent_spans(events)
    rows = _merge("user", user, _user_spans(events)) + _merge("agent", agent, spans)
    rows.sort(key=lambda r: (r[1], r[2], r[0]))
    for who, start, end, _ in rows:  # a damaged trace: fail here, inside the episode's scoring
        if end < start:
            raise ValueError(f"{who} segment ends before it starts: {start}..{end}")
    agent_cut = [
        i
        for i, (who, start, end, _) in enumerate(rows)
        if who == "agent" and (j := _best(start, end, spans)) is not None and cut[j]
    ]
    return TimelineRecord(end_ms=audio.data.duration_ms, segments=rows, agent_cut=agent_cut)


def pooled_panel(records: Sequence[TimelineRecord | None]) -> dict[str, Any] | None:
    """τ-Voice's panel pooled over the episodes that have a timeline (None: none has)."""
    timelines = [r.timeline() for r in records if r is not None]
    return interaction_metrics(timelines) if timelines else None
