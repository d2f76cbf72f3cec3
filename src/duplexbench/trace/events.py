"""The trace: a closed, versioned union of typed events (DESIGN.md contract 3).

Every line of `events.jsonl` is one event with `seq`, `t_ms` (media time),
`wall_ms` (secondary, never used in scoring), `actor`, `type` and `data`.
The `type` selects the model of `data`. Adding or changing an event type is a
contract change: bump :data:`TRACE_VERSION` and document it in
docs/formats/trace.md.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

TRACE_VERSION = "1"
Actor = Literal["user", "agent", "workbench", "harness"]


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    seq: int = Field(ge=0)
    t_ms: int = Field(ge=0)
    wall_ms: int = Field(0, ge=0)


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


EndReason = Literal["user_ended", "agent_ended", "agent_idle", "turn_limit", "time_limit", "error"]


class EpisodeEndData(_Data):
    reason: EndReason
    detail: str = ""


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
    """Semantic acts the observer read from one agent utterance."""

    utterance_seq: int
    acts: list[str]


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


class UserPlan(_Event):
    actor: Literal["user"] = "user"
    type: Literal["user.plan"] = "user.plan"
    data: UserPlanData


class UtteranceData(_Data):
    text: str
    end_ms: int = Field(ge=0)
    plan_ids: list[str] = Field(default_factory=list)
    variant_ids: list[str] = Field(default_factory=list)


class UserUtterance(_Event):
    actor: Literal["user"] = "user"
    type: Literal["user.utterance"] = "user.utterance"
    data: UtteranceData


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


class AgentUtterance(_Event):
    actor: Literal["agent"] = "agent"
    type: Literal["agent.utterance"] = "agent.utterance"
    data: UtteranceData


class ToolCallData(_Data):
    call_id: str
    name: str
    arguments: Any = None


class ToolCall(_Event):
    actor: Literal["agent"] = "agent"
    type: Literal["tool.call"] = "tool.call"
    data: ToolCallData


# ---------------------------------------------------------------- workbench


class ToolResultData(_Data):
    call_id: str
    name: str
    ok: bool
    result: Any = None
    error_code: str | None = None
    error: str | None = None


class ToolResult(_Event):
    actor: Literal["workbench"] = "workbench"
    type: Literal["tool.result"] = "tool.result"
    data: ToolResultData


class KnowledgeSearchData(_Data):
    call_id: str
    query: str
    documents: list[str]
    scores: list[float]


class KnowledgeSearch(_Event):
    actor: Literal["workbench"] = "workbench"
    type: Literal["knowledge.search"] = "knowledge.search"
    data: KnowledgeSearchData


class FieldSetData(_Data):
    artifact: str
    field: str
    old: Any = None
    new: Any = None
    fact_version: str | None = Field(None, description="User fact version the value matches.")
    call_id: str


class FieldSet(_Event):
    actor: Literal["workbench"] = "workbench"
    type: Literal["artifact.field"] = "artifact.field"
    data: FieldSetData


class LifecycleData(_Data):
    artifact: str
    old: str
    new: str
    call_id: str


class LifecycleChanged(_Event):
    actor: Literal["workbench"] = "workbench"
    type: Literal["artifact.lifecycle"] = "artifact.lifecycle"
    data: LifecycleData


class DatabaseWriteData(_Data):
    table: str
    record: str
    old: dict[str, Any]
    new: dict[str, Any]
    call_id: str


class DatabaseWrite(_Event):
    actor: Literal["workbench"] = "workbench"
    type: Literal["database.write"] = "database.write"
    data: DatabaseWriteData


class ApprovalRequestedData(_Data):
    action: str
    via: Literal["tool", "speech"]


class ApprovalRequested(_Event):
    actor: Literal["workbench"] = "workbench"
    type: Literal["approval.requested"] = "approval.requested"
    data: ApprovalRequestedData


class ApprovalGrantedData(_Data):
    token: str
    approval_id: str
    action: str
    target: str | None


class ApprovalGranted(_Event):
    actor: Literal["workbench"] = "workbench"
    type: Literal["approval.granted"] = "approval.granted"
    data: ApprovalGrantedData


class ApprovalRevokedData(_Data):
    token: str
    approval_id: str
    event_id: str


class ApprovalRevoked(_Event):
    actor: Literal["workbench"] = "workbench"
    type: Literal["approval.revoked"] = "approval.revoked"
    data: ApprovalRevokedData


class ActionData(_Data):
    action: str
    target: str | None
    call_id: str
    token: str | None = None


class ActionExecuted(_Event):
    actor: Literal["workbench"] = "workbench"
    type: Literal["action.executed"] = "action.executed"
    data: ActionData


BlockReason = Literal["premature", "post_revocation", "wrong_scope"]


class ActionBlockedData(_Data):
    action: str
    target: str | None
    call_id: str
    reason: BlockReason


class ActionBlocked(_Event):
    actor: Literal["workbench"] = "workbench"
    type: Literal["action.blocked"] = "action.blocked"
    data: ActionBlockedData


TraceEvent = Annotated[
    EpisodeStart
    | EpisodeEnd
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
    | ActionBlocked,
    Field(discriminator="type"),
]
EVENT_TYPES: tuple[str, ...] = (
    "episode.start",
    "episode.end",
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
)
