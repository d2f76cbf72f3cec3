"""JSON Schema export of the item formats (docs/formats/*.schema.json)."""

from __future__ import annotations

from typing import Any

from duplexbench.items._action import ActionItem
from duplexbench.items._workflow import WorkflowItem

SCHEMA_ID = "https://duplexbench.dev/schemas/workflow-item-1.json"
ACTION_SCHEMA_ID = "https://duplexbench.dev/schemas/action-item-1.json"


def workflow_json_schema() -> dict[str, Any]:
    schema = WorkflowItem.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "duplexbench workflow item",
        **schema,
    }


def action_json_schema() -> dict[str, Any]:
    schema = ActionItem.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": ACTION_SCHEMA_ID,
        "title": "duplexbench action item",
        **schema,
    }
