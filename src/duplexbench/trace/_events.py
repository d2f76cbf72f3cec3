"""The trace: a closed, versioned union of typed events (docs/formats/trace.md).

Every line of `events.jsonl` is one event with `seq`, `t_ms` (media time),
`wall_ms` (secondary, never used in scoring), `actor`, `type` and `data`.
The `type` selects the model of `data`. Adding or changing an event type is a
contract change: bump :data:`TRACE_VERSION` and document it in
docs/formats/trace.md.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from duplexbench.trace._base import TRACE_VERSION, Actor, _Data, _Event
from duplexbench.trace._condition_events import ConditionSetup, UserEffect
from duplexbench.trace._floor_events import (
    EpisodeAudio,
    EpisodeAudioData,
    FloorOverlap,
    FloorOverlapData,
    FloorSegment,
    FloorSegmentData,
    FloorYield,
    FloorYieldData,
)
from duplexbench.trace._repair_events import UserRepair
from duplexbench.trace._replay_events import ReplayCue, ReplaySegment, ReplayUserStopped
from duplexbench.trace._workbench_events import (
    ActionBlocked,
    ActionBlockedData,
    ActionData,
    ActionExecuted,
    ApprovalGranted,
    ApprovalGrantedData,
    ApprovalRequested,
    ApprovalRequestedData,
    ApprovalRevoked,
    ApprovalRevokedData,
    BlockReason,
    DatabaseWrite,
    DatabaseWriteData,
    FieldSet,
    FieldSetData,
    KnowledgeSearch,
    KnowledgeSearchData,
    LifecycleChanged,
    LifecycleData,
    ToolCall,
    ToolCallData,
    ToolResult,
    ToolResultData,
)

__all__ = [
    "EVENT_TYPES",
    "TRACE_VERSION",
    "ActionBlocked",
    "ActionBlockedData",
    "ActionData",
    "ActionExecuted",
    "Actor",
    "AgentActs",
    "AgentActsData",
    "AgentTruncated",
    "AgentTruncatedData",
    "AgentUsage",
    "AgentUsageData",
    "AgentUtterance",
    "AgentUtteranceData",
    "ApprovalGranted",
    "ApprovalGrantedData",
    "ApprovalRequested",
    "ApprovalRequestedData",
    "ApprovalRevoked",
    "ApprovalRevokedData",
    "BlockReason",
    "ConditionSetup",
    "DatabaseWrite",
    "DatabaseWriteData",
    "DuplexEventData",
    "DuplexEventFired",
    "EpisodeAudio",
    "EpisodeAudioData",
    "EpisodeEnd",
    "EpisodeEndData",
    "EpisodeStart",
    "EpisodeStartData",
    "FactRevealed",
    "FactRevealedData",
    "FieldSet",
    "FieldSetData",
    "FloorOverlap",
    "FloorOverlapData",
    "FloorSegment",
    "FloorSegmentData",
    "FloorYield",
    "FloorYieldData",
    "HarnessError",
    "HarnessErrorData",
    "KnowledgeSearch",
    "KnowledgeSearchData",
    "LifecycleChanged",
    "LifecycleData",
    "ReplayCue",
    "ReplaySegment",
    "ReplayUserStopped",
    "ToolCall",
    "ToolCallData",
    "ToolResult",
    "ToolResultData",
    "TraceEvent",
    "UserEffect",
    "UserPlan",
    "UserPlanData",
    "UserRepair",
    "UserUtterance",
    "UserUtteranceData",
    "UserYielded",
    "UserYieldedData",
]


# ---------------------------------------------------------------- harness


class EpisodeStartData(_Data):
    trace_version: str = TRACE_VERSION
    item_id: str
    item_version: str
    item_checksum: str
    suite: str
    agent: str
    condition: str
    repetition: int
    seed: int = Field(description="Simulator seed (the campaign seed).")
    repetition_seed: int = Field(description="Seed of this repetition, derived from seed.")
    channel: Literal["text", "audio"]
    instructions: str
    tools: list[dict[str, Any]]


class EpisodeStart(_Event):
    actor: Literal["harness"] = "harness"
    type: Literal["episode.start"] = "episode.start"
    data: EpisodeStartData


EndReason = Literal[
    "user_ended",
    "agent_ended",
    "agent_idle",
    "turn_limit",
    "time_limit",
    "idle_limit",
    "agent_flood",
    "error",
]


ErrorKind = Literal["agent", "harness"]
"""Whose fault an `error` episode is (docs/metrics.md, "Errors")."""


class EpisodeEndData(_Data):
    reason: EndReason
    detail: str = ""
    error_kind: ErrorKind | None = Field(
        None,
        description="With reason `error`: `agent` (counted as a failed episode) or `harness` "
        "(retried, left out of the rates). None otherwise; an error trace written before "
        "version 6 has none and is read as `agent`.",
    )


class EpisodeEnd(_Event):
    actor: Literal["harness"] = "harness"
    type: Literal["episode.end"] = "episode.end"
    data: EpisodeEndData


class HarnessErrorData(_Data):
    message: str
    where: str = ""


class HarnessError(_Event):
    actor: Literal["harness"] = "harness"
    type: Literal["harness.error"] = "harness.error"
    data: HarnessErrorData


class AgentActsData(_Data):
    """Semantic acts the observer read from agent speech, as heard (text: what was read)."""

    acts: list[str]
    text: str = ""


class AgentActs(_Event):
    actor: Literal["harness"] = "harness"
    type: Literal["agent.acts"] = "agent.acts"
    data: AgentActsData


# ---------------------------------------------------------------- user


class UserPlanData(_Data):
    plan_id: str
    act: str
    facts: list[str] = Field(default_factory=list)
    event_id: str | None = None
    approval_id: str | None = None
    slots: list[str] = Field(
        default_factory=list,
        description="Slots the plan names without revealing them (which_slot, what_value, "
        "more_later, ask_readback).",
    )


class UserPlan(_Event):
    actor: Literal["user"] = "user"
    type: Literal["user.plan"] = "user.plan"
    data: UserPlanData


class UserUtteranceData(_Data):
    text: str
    end_ms: int = Field(ge=0, description="Planned end; a yield cuts it (user.yielded).")
    plan_ids: list[str] = Field(default_factory=list)
    variant_ids: list[str] = Field(default_factory=list)
    voice: str | None = Field(None, description="Voice of the clips (audio channel).")
    clips: list[str] = Field(
        default_factory=list, description="Speech-bank checksum of each plan's clip."
    )
    audio_sha256: str | None = Field(None, description="Checksum of the samples played.")
    kind: Literal["turn", "backchannel", "vocal_tic", "non_directed"] = Field(
        "turn", description="A turn, or out-of-turn speech the agent should not take up."
    )


class UserUtterance(_Event):
    actor: Literal["user"] = "user"
    type: Literal["user.utterance"] = "user.utterance"
    data: UserUtteranceData


class UserYieldedData(_Data):
    """The user stopped talking because the agent talked over them."""

    plan_ids: list[str]
    dropped_ms: int = Field(ge=0)


class UserYielded(_Event):
    actor: Literal["user"] = "user"
    type: Literal["user.yielded"] = "user.yielded"
    data: UserYieldedData


class FactRevealedData(_Data):
    fact: str
    slot: str
    rule: Literal["volunteer", "when_asked", "on_event"]
    because: str = Field(description="What allowed it: an act, an event id or `opening`.")


class FactRevealed(_Event):
    actor: Literal["user"] = "user"
    type: Literal["fact.revealed"] = "fact.revealed"
    data: FactRevealedData


class DuplexEventData(_Data):
    event_id: str
    kind: str
    anchor: str = Field(description="What fired it, e.g. `act:CONFIRM:total` or `at_ms:30000`.")
    delivery: Literal["barge_in", "after_turn"]


class DuplexEventFired(_Event):
    actor: Literal["user"] = "user"
    type: Literal["duplex.event"] = "duplex.event"
    data: DuplexEventData


# ---------------------------------------------------------------- agent


class AgentUtteranceData(_Data):
    """Agent speech as delivered: on the audio channel, the words actually played."""

    text: str
    start_ms: int = Field(ge=0)
    end_ms: int = Field(ge=0)
    truncated: bool = False
    cancelled: bool = Field(
        False,
        description="The agent cancelled its speech while this utterance played (it stopped "
        "on purpose, whether or not queued audio was left to drop); false before version 6.",
    )
    transcribed: bool = Field(
        False, description="The adapter gave no transcript: the text is ASR of channel 1."
    )
    word_end_ms: list[int] = Field(
        default_factory=list,
        description="When each word of `text` finished playing (action episodes; may be empty).",
    )
    unmatched_questions: list[str] = Field(
        default_factory=list,
        description="Sentences of this utterance that were a question or request by the "
        "observer's cues and in which it read no act (or only OTHER): the caller did not "
        "understand what was asked (failure attribution, docs/metrics.md). Empty in traces "
        "written before it was recorded.",
    )

    @property
    def cut_short(self) -> bool:
        """The agent cut this utterance short: queued audio or words were dropped
        (`truncated`) or it cancelled (`cancelled`); otherwise it ended naturally."""
        return self.truncated or self.cancelled


class AgentUtterance(_Event):
    actor: Literal["agent"] = "agent"
    type: Literal["agent.utterance"] = "agent.utterance"
    data: AgentUtteranceData


class AgentUsageData(_Data):
    """Tokens a provider reported for one response."""

    input_tokens: int = 0
    output_tokens: int = 0
    input_audio_tokens: int = 0
    output_audio_tokens: int = 0


class AgentUsage(_Event):
    actor: Literal["agent"] = "agent"
    type: Literal["agent.usage"] = "agent.usage"
    data: AgentUsageData


class AgentTruncatedData(_Data):
    """Agent audio buffered but never played (the agent stopped or was cut) was dropped."""

    dropped_ms: int = Field(ge=0)
    unheard_text: str = ""


class AgentTruncated(_Event):
    actor: Literal["harness"] = "harness"
    type: Literal["agent.truncated"] = "agent.truncated"
    data: AgentTruncatedData


TraceEvent = Annotated[
    EpisodeStart
    | EpisodeEnd
    | EpisodeAudio
    | UserYielded
    | AgentTruncated
    | AgentUsage
    | FloorSegment
    | FloorOverlap
    | FloorYield
    | HarnessError
    | AgentActs
    | UserPlan
    | UserUtterance
    | FactRevealed
    | DuplexEventFired
    | AgentUtterance
    | ToolCall
    | ToolResult
    | KnowledgeSearch
    | FieldSet
    | LifecycleChanged
    | DatabaseWrite
    | ApprovalRequested
    | ApprovalGranted
    | ApprovalRevoked
    | ActionExecuted
    | ActionBlocked
    | ReplaySegment
    | ReplayCue
    | ReplayUserStopped
    | ConditionSetup
    | UserEffect
    | UserRepair,
    Field(discriminator="type"),
]
EVENT_TYPES: tuple[str, ...] = (
    "episode.start",
    "episode.end",
    "episode.audio",
    "user.yielded",
    "agent.truncated",
    "agent.usage",
    "floor.segment",
    "floor.overlap",
    "floor.yield",
    "harness.error",
    "agent.acts",
    "user.plan",
    "user.utterance",
    "fact.revealed",
    "duplex.event",
    "agent.utterance",
    "tool.call",
    "tool.result",
    "knowledge.search",
    "artifact.field",
    "artifact.lifecycle",
    "database.write",
    "approval.requested",
    "approval.granted",
    "approval.revoked",
    "action.executed",
    "action.blocked",
    "replay.segment",
    "replay.cue",
    "replay.user_stopped",
    "episode.condition",
    "user.effect",
    "user.repair",
)
