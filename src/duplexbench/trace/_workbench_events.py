"""Events of the Workbench: tool calls and results, knowledge searches, artifact and
database writes, approvals and gated actions (split from `events.py`, which re-exports
them)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from duplexbench.trace._base import _Data, _Event


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
    read_back: list[str] | None = Field(
        None,
        description="Slots whose current values the agent had read back when the user "
        "approved (None: traces before version 5).",
    )


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
