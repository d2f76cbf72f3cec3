"""Events of the audio channel's floor: the recorded audio, speech segments, overlaps and
barge-in outcomes (split from `events.py`, which re-exports them)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from duplexbench.trace._base import _Data, _Event


class EpisodeAudioData(_Data):
    """The episode's audio file and the checksums of its channels."""

    file: str = "audio.wav"
    sample_rate: int
    frame_ms: int
    duration_ms: int
    user_sha256: str
    agent_sha256: str
    line_file: str | None = Field(
        None, description="Mono WAV of the user channel as the agent received it (degraded)."
    )
    line_sha256: str | None = Field(None, description="Checksum of that degraded channel.")


class EpisodeAudio(_Event):
    actor: Literal["harness"] = "harness"
    type: Literal["episode.audio"] = "episode.audio"
    data: EpisodeAudioData


class FloorSegmentData(_Data):
    channel: Literal["user", "agent"]
    start_ms: int
    end_ms: int


class FloorSegment(_Event):
    """Speech segment of one channel (VAD over the recorded audio)."""

    actor: Literal["harness"] = "harness"
    type: Literal["floor.segment"] = "floor.segment"
    data: FloorSegmentData


class FloorOverlapData(_Data):
    start_ms: int
    end_ms: int
    initiator: Literal["user", "agent"]
    barge_in: str | None = Field(None, description="Authored event that caused it, if any.")


class FloorOverlap(_Event):
    actor: Literal["harness"] = "harness"
    type: Literal["floor.overlap"] = "floor.overlap"
    data: FloorOverlapData


class FloorYieldData(_Data):
    """Outcome of an authored barge-in that started while the agent was speaking."""

    event_id: str
    onset_ms: int
    agent_end_ms: int
    stop_latency_ms: int
    max_stop_latency_ms: int
    yielded: bool = Field(
        description="Stopped within the limit by cutting its turn short (docs/metrics.md); "
        "before version 6: the turn ended within the limit, however it ended."
    )
    ended_naturally: bool | None = Field(
        None,
        description="The turn ended within the limit without being cut short (the agent "
        "finished what it had to say): not a yield. None before version 6.",
    )


class FloorYield(_Event):
    actor: Literal["harness"] = "harness"
    type: Literal["floor.yield"] = "floor.yield"
    data: FloorYieldData
