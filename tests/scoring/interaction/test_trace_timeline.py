"""The interaction timeline read from a duplexbench trace, and its pooled panel."""

from __future__ import annotations

from duplexbench.scoring._interaction.record import TimelineRecord, pooled_panel, timeline_record
from duplexbench.trace._events import (
    EpisodeAudio,
    EpisodeAudioData,
    FloorSegment,
    FloorSegmentData,
    TraceEvent,
    UserUtterance,
    UserUtteranceData,
)


def utterance(seq: int, t: int, end: int, kind: str = "turn") -> UserUtterance:
    data = UserUtteranceData(text="x", end_ms=end, kind=kind)
    return UserUtterance(seq=seq, t_ms=t, data=data)


def segment(seq: int, channel: str, start: int, end: int) -> FloorSegment:
    data = FloorSegmentData(channel=channel, start_ms=start, end_ms=end)
    return FloorSegment(seq=seq, t_ms=20_000, data=data)


def audio(seq: int, duration: int) -> EpisodeAudio:
    data = EpisodeAudioData(
        sample_rate=16_000, frame_ms=20, duration_ms=duration, user_sha256="u", agent_sha256="a"
    )
    return EpisodeAudio(seq=seq, t_ms=duration, data=data)


def test_user_segments_take_the_kind_of_the_utterance_they_overlap_most() -> None:
    events: list[TraceEvent] = [
        utterance(0, 0, 1500),  # a turn
        utterance(1, 3000, 3400, "backchannel"),
        utterance(2, 6000, 6500, "vocal_tic"),
        utterance(3, 9000, 10_000, "non_directed"),
        audio(4, 12_000),
        segment(5, "user", 40, 1480),
        segment(6, "agent", 2000, 5000),
        segment(7, "user", 3050, 3350),
        segment(8, "user", 6020, 6400),
        segment(9, "user", 9100, 9900),
        segment(10, "user", 11_000, 11_200),  # no utterance there: a turn
    ]
    record = timeline_record(events)
    assert record is not None and record.end_ms == 12_000
    kinds = [(s[0], s[3]) for s in record.segments]
    assert kinds == [
        ("user", "turn"),
        ("agent", "turn"),
        ("user", "backchannel"),
        ("user", "vocal_tic"),
        ("user", "non_directed"),
        ("user", "turn"),
    ]
    again = TimelineRecord.model_validate_json(record.model_dump_json())
    assert again == record


def test_no_audio_no_timeline() -> None:
    assert timeline_record([utterance(0, 0, 100)]) is None
    assert pooled_panel([None, None]) is None


def test_panel_pools_events_over_episodes() -> None:
    # each call: user turn 0..1000, agent answers 1500..3000 (0.5 s); 10 calls -> sufficient
    one = TimelineRecord(
        end_ms=5000, segments=[("user", 0, 1000, "turn"), ("agent", 1500, 3000, "turn")]
    )
    panel = pooled_panel([one] * 9 + [None])
    assert panel is not None
    assert panel["response_rate"] == {"value": None, "count": 9, "insufficient": True}
    panel = pooled_panel([one] * 10)
    assert panel is not None
    assert panel["response_rate"]["value"] == 1.0
    assert panel["response_latency"]["value"] == 0.5
