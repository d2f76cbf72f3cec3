"""Events of action episodes (direct and simulator replay of a fixed user timeline)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from duplexbench.trace._base import _Data, _Event


class ReplaySegmentData(_Data):
    """A user-channel segment as placed: absolute ms, after any cue offset."""

    segment: str
    role: Literal["user", "other", "background"]
    part: Literal["main", "cue"]
    text: str
    voice: str
    start_ms: int = Field(ge=0)
    end_ms: int = Field(ge=0)
    audio_sha256: str = Field(description="sha256 of the rendered samples (after role effects).")


class ReplaySegment(_Event):
    actor: Literal["user"] = "user"
    type: Literal["replay.segment"] = "replay.segment"
    data: ReplaySegmentData


class ReplayCueData(_Data):
    """The cue-injection controller placed the cue (its segments follow)."""

    start_ms: int = Field(ge=0)
    end_ms: int = Field(ge=0)
    forced: bool = Field(False, description="No suitable point was found in time.")
    controller: str = "rule"
    reason: str = ""


class ReplayCue(_Event):
    actor: Literal["harness"] = "harness"
    type: Literal["replay.cue"] = "replay.cue"
    data: ReplayCueData


class ReplayUserStoppedData(_Data):
    """Interrupt: the agent took over, so the rest of the user audio was not played."""

    dropped_ms: int = Field(ge=0)
    reason: str = ""


class ReplayUserStopped(_Event):
    actor: Literal["user"] = "user"
    type: Literal["replay.user_stopped"] = "replay.user_stopped"
    data: ReplayUserStoppedData
