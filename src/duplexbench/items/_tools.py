"""Typed tools an item offers the agent.

Each tool has a `kind` that fixes its behavior in the Workbench and a JSON
Schema for its arguments. Built-in kinds get a default argument schema; an
item may give its own (`parameters`) for `action` tools.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from duplexbench.items._base import Identifier, StrictModel

LifecycleState = Literal["empty", "draft", "ready", "committed"]
LIFECYCLE_ORDER: tuple[LifecycleState, ...] = ("empty", "draft", "ready", "committed")
"""Artifact lifecycle, in order. `committed` is reached only through an `action` tool."""


def lifecycle_rank(state: str) -> int:
    """Position of a lifecycle state in :data:`LIFECYCLE_ORDER`."""
    return LIFECYCLE_ORDER.index(state)


class _ToolBase(StrictModel):
    name: Identifier
    description: str = Field(min_length=1, description="What the agent is told the tool does.")


class KnowledgeSearchTool(_ToolBase):
    """BM25 search over the item's knowledge documents."""

    kind: Literal["knowledge_search"]
    top_k: int = Field(3, ge=1, le=20, description="Default number of documents returned.")


class DatabaseReadTool(_ToolBase):
    """Read one record of a table by id."""

    kind: Literal["database_read"]
    table: Identifier


class DatabaseWriteTool(_ToolBase):
    """Update fields of one existing record; may be approval-gated."""

    kind: Literal["database_write"]
    table: Identifier
    fields: list[Identifier] | None = Field(
        None, description="Fields the tool may change (default: any field the record has)."
    )
    requires_approval: bool = False
    action: Identifier | None = Field(
        None, description="Action type for approval scope (default: the tool name)."
    )


class ArtifactUpdateTool(_ToolBase):
    """Write one or more fields of a work artifact (a draft write)."""

    kind: Literal["artifact_update"]
    artifact: Identifier


class ArtifactTransitionTool(_ToolBase):
    """Move an artifact between draft and ready (ready needs every required field)."""

    kind: Literal["artifact_transition"]
    artifact: Identifier
    to_state: Literal["draft", "ready"]


class ActionTool(_ToolBase):
    """A consequential action; with `artifact` it commits that artifact (ready -> committed)."""

    kind: Literal["action"]
    artifact: Identifier | None = None
    requires_approval: bool = False
    action: Identifier | None = Field(
        None, description="Action type for approval scope (default: the tool name)."
    )
    target_param: Identifier | None = Field(
        None, description="Argument naming the action's target, for approval scope."
    )
    parameters: dict[str, Any] | None = Field(
        None, description="JSON Schema (type object) of the arguments; default: no arguments."
    )


class ApprovalRequestTool(_ToolBase):
    """Formally ask the user to approve an action (the user answers by voice)."""

    kind: Literal["approval_request"]


Tool = Annotated[
    KnowledgeSearchTool
    | DatabaseReadTool
    | DatabaseWriteTool
    | ArtifactUpdateTool
    | ArtifactTransitionTool
    | ActionTool
    | ApprovalRequestTool,
    Field(discriminator="kind"),
]
TOOL_KINDS: tuple[str, ...] = (
    "knowledge_search",
    "database_read",
    "database_write",
    "artifact_update",
    "artifact_transition",
    "action",
    "approval_request",
)


def action_type(tool: Tool) -> str | None:
    """The approval-scope action type of a tool, or None if it is not an action."""
    if isinstance(tool, DatabaseWriteTool | ActionTool):
        return tool.action or tool.name
    return None


def is_gated(tool: Tool) -> bool:
    """Whether the tool needs a valid user approval to run."""
    return isinstance(tool, DatabaseWriteTool | ActionTool) and tool.requires_approval
