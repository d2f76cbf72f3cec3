"""Workbench state and its rebuild from the event log.

The runtime never mutates state directly: it emits an event and applies it
with :func:`apply_event`, the same function :func:`replay` uses, so the final
state rebuilt from `events.jsonl` always equals the state the episode saw.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from duplexbench.items import WorkflowItem
from duplexbench.trace import DatabaseWrite, FieldSet, LifecycleChanged, TraceEvent


class ArtifactState(BaseModel):
    model_config = ConfigDict(extra="forbid")
    lifecycle: str = "empty"
    fields: dict[str, Any] = Field(default_factory=dict)
    fact_versions: dict[str, str | None] = Field(
        default_factory=dict, description="Field -> user fact version its value matches."
    )


class WorkbenchState(BaseModel):
    """Artifacts and database records; saved as `workbench.json` in each episode."""

    model_config = ConfigDict(extra="forbid")
    artifacts: dict[str, ArtifactState] = Field(default_factory=dict)
    database: dict[str, dict[str, dict[str, Any]]] = Field(
        default_factory=dict, description="table -> record id -> record"
    )
    executed_actions: list[str] = Field(default_factory=list)


def initial_state(item: WorkflowItem) -> WorkbenchState:
    """The state before the first event: empty artifacts, the item's database."""
    return WorkbenchState(
        artifacts={a.id: ArtifactState() for a in item.artifacts},
        database={
            table: {str(r["id"]): copy.deepcopy(r) for r in records}
            for table, records in item.database.items()
        },
    )


def apply_event(state: WorkbenchState, event: TraceEvent) -> None:
    """Apply one state-changing event; other events are ignored."""
    if isinstance(event, FieldSet):
        art = state.artifacts[event.data.artifact]
        art.fields[event.data.field] = copy.deepcopy(event.data.new)
        art.fact_versions[event.data.field] = event.data.fact_version
    elif isinstance(event, LifecycleChanged):
        state.artifacts[event.data.artifact].lifecycle = event.data.new
    elif isinstance(event, DatabaseWrite):
        state.database.setdefault(event.data.table, {})[event.data.record] = copy.deepcopy(
            event.data.new
        )
    elif event.type == "action.executed":
        state.executed_actions.append(event.data.action)


def replay(item: WorkflowItem, events: Iterable[TraceEvent]) -> WorkbenchState:
    """Rebuild the final workbench state from a trace."""
    state = initial_state(item)
    for event in events:
        apply_event(state, event)
    return state
