"""Overlapping speech -> an ordered message list for judges and text views.

Rule: a segment lying entirely inside another speaker's segment (start >= its start
and end <= its end, not identical) is placed where it stopped: its sort key is its
end time, so it follows the turn it sat inside (after any message starting before it
stopped). Every other segment is keyed by its start time, so with partial overlap the
earlier speaker goes first. Ties: start time, then user before agent. Text is never
split (segments carry no word timing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from duplexbench.scoring._interaction.timeline import Segment, SegmentKind, Speaker


@dataclass(frozen=True)
class Message:
    speaker: Speaker
    text: str
    start_ms: float
    end_ms: float
    kind: SegmentKind = "turn"
    inserted: bool = False  # True when placed inside another speaker's turn


def _contained(seg: Segment, others: Sequence[Segment]) -> bool:
    return any(
        o.speaker != seg.speaker
        and o.start_ms <= seg.start_ms
        and seg.end_ms <= o.end_ms
        and (o.start_ms, o.end_ms) != (seg.start_ms, seg.end_ms)
        for o in others
    )


def linearize(segments: Sequence[Segment]) -> list[Message]:
    """Order ``segments`` into messages (see module docstring)."""
    keyed: list[tuple[float, float, int, Message]] = []
    for seg in segments:
        inside = _contained(seg, segments)
        key = seg.end_ms if inside else seg.start_ms
        msg = Message(seg.speaker, seg.text, seg.start_ms, seg.end_ms, seg.kind, inside)
        keyed.append((key, seg.start_ms, 0 if seg.speaker == "user" else 1, msg))
    keyed.sort(key=lambda k: (k[0], k[1], k[2]))
    return [k[3] for k in keyed]
