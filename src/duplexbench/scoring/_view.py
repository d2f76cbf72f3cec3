"""A read-only index over one episode's trace, built event by event for the scorer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duplexbench.items import WorkflowItem
from duplexbench.trace import (
    ActionBlocked,
    ActionExecuted,
    AgentActs,
    AgentUtterance,
    ApprovalRequested,
    EpisodeEnd,
    FactRevealed,
    FloorOverlap,
    FloorYield,
    KnowledgeSearch,
    ToolCall,
    ToolResult,
    TraceEvent,
)
from duplexbench.workbench import WorkbenchState, apply_event, initial_state

STATE_EVENTS = frozenset(
    {"artifact.field", "artifact.lifecycle", "database.write", "action.executed"}
)


@dataclass(frozen=True)
class CallRecord:
    name: str
    arguments: Any
    ok: bool


@dataclass
class EpisodeView:
    item: WorkflowItem
    state: WorkbenchState
    events: list[TraceEvent] = field(default_factory=list)
    calls: list[CallRecord] = field(default_factory=list)
    acts: set[str] = field(default_factory=set)
    retrieved: set[str] = field(default_factory=set)
    executed: list[ActionExecuted] = field(default_factory=list)
    blocked: list[ActionBlocked] = field(default_factory=list)
    revealed: set[str] = field(default_factory=set)
    yields: list[FloorYield] = field(default_factory=list)
    overlaps: list[FloorOverlap] = field(default_factory=list)
    agent_turns: int = 0
    end_reason: str = ""
    end_ms: int = 0
    _pending: dict[str, ToolCall] = field(default_factory=dict)

    def apply(self, event: TraceEvent) -> None:
        """Take one more event into the view (and into the replayed state)."""
        self.events.append(event)
        apply_event(self.state, event)
        if isinstance(event, ToolCall):
            self._pending[event.data.call_id] = event
        elif isinstance(event, ToolResult):
            call = self._pending.pop(event.data.call_id, None)
            if call is not None:
                self.calls.append(CallRecord(call.data.name, call.data.arguments, event.data.ok))
        elif isinstance(event, AgentActs):
            self.acts.update(event.data.acts)
        elif isinstance(event, ApprovalRequested):
            self.acts.add(f"REQUEST_APPROVAL:{event.data.action}")
        elif isinstance(event, KnowledgeSearch):
            self.retrieved.update(event.data.documents)
        elif isinstance(event, ActionExecuted):
            self.executed.append(event)
        elif isinstance(event, ActionBlocked):
            self.blocked.append(event)
        else:
            self._apply_rest(event)

    def _apply_rest(self, event: TraceEvent) -> None:
        if isinstance(event, FactRevealed):
            self.revealed.add(event.data.fact)
        elif isinstance(event, AgentUtterance):
            self.agent_turns += 1
        elif isinstance(event, FloorYield):
            self.yields.append(event)
        elif isinstance(event, FloorOverlap):
            self.overlaps.append(event)
        elif isinstance(event, EpisodeEnd):
            self.end_reason = event.data.reason
            self.end_ms = event.t_ms

    def finish(self) -> None:
        """Calls still without a result count as failed calls."""
        for call in self._pending.values():
            self.calls.append(CallRecord(call.data.name, call.data.arguments, False))
        self._pending.clear()


def empty_view(item: WorkflowItem) -> EpisodeView:
    return EpisodeView(item, initial_state(item))


def build_view(item: WorkflowItem, events: list[TraceEvent]) -> EpisodeView:
    """Index the trace and rebuild the final workbench state by replay."""
    view = empty_view(item)
    for event in events:
        view.apply(event)
    view.finish()
    return view
