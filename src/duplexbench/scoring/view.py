"""A read-only index over one episode's trace, built once for the scorer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duplexbench.items.workflow import WorkflowItem
from duplexbench.trace.events import (
    ActionBlocked,
    ActionExecuted,
    AgentActs,
    ApprovalRequested,
    EpisodeEnd,
    FactRevealed,
    KnowledgeSearch,
    ToolCall,
    ToolResult,
    TraceEvent,
)
from duplexbench.workbench.state import WorkbenchState, replay


@dataclass(frozen=True)
class CallRecord:
    name: str
    arguments: Any
    ok: bool


@dataclass
class EpisodeView:
    item: WorkflowItem
    events: list[TraceEvent]
    state: WorkbenchState
    calls: list[CallRecord] = field(default_factory=list)
    acts: set[str] = field(default_factory=set)
    retrieved: set[str] = field(default_factory=set)
    executed: list[ActionExecuted] = field(default_factory=list)
    blocked: list[ActionBlocked] = field(default_factory=list)
    revealed: set[str] = field(default_factory=set)
    end_reason: str = ""
    end_ms: int = 0


def build_view(item: WorkflowItem, events: list[TraceEvent]) -> EpisodeView:
    """Index the trace and rebuild the final workbench state by replay."""
    view = EpisodeView(item, events, replay(item, events))
    results: dict[str, bool] = {}
    calls: list[ToolCall] = []
    for event in events:
        if isinstance(event, ToolCall):
            calls.append(event)
        elif isinstance(event, ToolResult):
            results[event.data.call_id] = event.data.ok
        elif isinstance(event, AgentActs):
            view.acts.update(event.data.acts)
        elif isinstance(event, ApprovalRequested):
            view.acts.add(f"REQUEST_APPROVAL:{event.data.action}")
        elif isinstance(event, KnowledgeSearch):
            view.retrieved.update(event.data.documents)
        elif isinstance(event, ActionExecuted):
            view.executed.append(event)
        elif isinstance(event, ActionBlocked):
            view.blocked.append(event)
        elif isinstance(event, FactRevealed):
            view.revealed.add(event.data.fact)
        elif isinstance(event, EpisodeEnd):
            view.end_reason = event.data.reason
            view.end_ms = event.t_ms
    view.calls = [
        CallRecord(c.data.name, c.data.arguments, results.get(c.data.call_id, False)) for c in calls
    ]
    return view
