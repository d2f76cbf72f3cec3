"""The JSON Schema of each tool's arguments, as the agent sees it."""

from __future__ import annotations

from typing import Any

from duplexbench.items._tools import (
    ActionTool,
    ApprovalRequestTool,
    ArtifactTransitionTool,
    ArtifactUpdateTool,
    DatabaseReadTool,
    DatabaseWriteTool,
    KnowledgeSearchTool,
    Tool,
    action_type,
    is_gated,
)
from duplexbench.items._workflow import WorkflowItem

_NO_ARGS: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def tool_parameters(item: WorkflowItem, tool: Tool) -> dict[str, Any]:
    """JSON Schema (an object schema) of the tool's arguments."""
    if isinstance(tool, KnowledgeSearchTool):
        return _object(
            {
                "query": {"type": "string", "minLength": 1, "description": "What to look for."},
                "top_k": {"type": "integer", "minimum": 1, "maximum": 20},
            },
            ["query"],
        )
    if isinstance(tool, DatabaseReadTool):
        return _object({"id": {"type": "string", "description": f"{tool.table} record id"}}, ["id"])
    if isinstance(tool, DatabaseWriteTool):
        fields: dict[str, Any] = {"type": "object", "minProperties": 1}
        if tool.fields is not None:
            fields["properties"] = {name: {} for name in tool.fields}
            fields["additionalProperties"] = False
        props = {"id": {"type": "string", "description": f"{tool.table} record id"}}
        return _object({**props, "fields": fields}, ["id", "fields"])
    if isinstance(tool, ArtifactUpdateTool):
        return _artifact_update_schema(item, tool)
    if isinstance(tool, ArtifactTransitionTool):
        return dict(_NO_ARGS)
    if isinstance(tool, ApprovalRequestTool):
        actions = sorted({a for t in item.tools if is_gated(t) and (a := action_type(t))})
        return _object(
            {
                "action": {"type": "string", "enum": actions},
                "summary": {"type": "string", "description": "What the user is asked to approve."},
            },
            ["action"],
        )
    assert isinstance(tool, ActionTool)
    return dict(tool.parameters) if tool.parameters is not None else dict(_NO_ARGS)


def _artifact_update_schema(item: WorkflowItem, tool: ArtifactUpdateTool) -> dict[str, Any]:
    artifact = item.artifact(tool.artifact)
    props = {} if artifact is None else {f.name: f.json_schema() for f in artifact.fields}
    return _object(
        {
            "fields": {
                "type": "object",
                "properties": props,
                "additionalProperties": False,
                "minProperties": 1,
                "description": "Field name -> new value.",
            }
        },
        ["fields"],
    )
