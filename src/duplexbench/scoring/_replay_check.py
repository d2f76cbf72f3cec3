"""The replay check: is the trace's workbench side what the workbench would have logged?

The scorer trusts the logged `tool.result`, `approval.granted` and
`action.blocked` events. An in-process plug-in that reaches the `Workbench`
object (or anyone who edits `events.jsonl`) could grant itself an approval or
delete its own `action.blocked`. This check re-runs the episode's inputs
against a fresh :class:`~duplexbench.workbench._runtime.Workbench`:

- the user's side drives authorization: each `user.plan` that approves grants
  the item's approval at the plan's time, each `user.plan` of an event that
  revokes an approval revokes it (exactly what the orchestrator does);
- each `tool.call` is executed with its logged arguments at its logged time;
- each `agent.acts` act `REQUEST_APPROVAL:<action>` is logged as a spoken
  approval request.

Every logged event of the `workbench` actor must then equal, in order, the
event the replay produced (type, media time and data; error message text and
the `read_back` note of an approval are not compared, floats within 1e-9),
and the final state rebuilt from the trace must equal the replay's. The first
disagreement is returned as a :class:`Tampering`. It also checks that each
approving plan is one the item's user could make: a known approval, asked for
by the agent beforehand, after its `after` events, within `max_grants`.

What it cannot see: a trace rewritten consistently on both sides (a forged
`user.plan` that passes those checks, or a tool call removed together with
all its events); see docs/security.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from duplexbench.items import WorkflowItem
from duplexbench.trace import (
    AgentActs,
    EpisodeEnd,
    Recorder,
    ToolCall,
    ToolResultData,
    TraceEvent,
    UserPlan,
)
from duplexbench.workbench import Workbench, replay

TAMPERED = "tampered:"
"""How the error reason of an episode that fails the check begins."""
_IGNORED = {"tool.result": ("error",), "approval.granted": ("read_back",)}
"""Data keys not compared: free text and a note the scorer does not use."""


@dataclass(frozen=True)
class Tampering:
    """The first place where the trace and the replay disagree."""

    index: int
    """Position of the logged event in the trace (its line number minus one)."""
    t_ms: int
    what: str

    @property
    def reason(self) -> str:
        return f"{TAMPERED} event {self.index} at {self.t_ms} ms: {self.what}"


def is_tampered(error: str | None) -> bool:
    """Whether an episode's error reason marks a tampered trace: a failed replay check, or
    a trace changed after the run (`campaign/_scores.py`)."""
    return bool(error and error.startswith(TAMPERED))


class _Replay:
    def __init__(self, item: WorkflowItem) -> None:
        self.item = item
        self.recorder = Recorder(wall=lambda: 0.0)
        self.bench = Workbench(item, self.recorder)
        self.pending: list[TraceEvent] = []
        self.requested: set[str] = set()
        self.fired: set[str] = set()
        self.grants: dict[str, int] = {}

    def drive(self, event: TraceEvent) -> str | None:
        """Feed one input event to the replay; its workbench events become pending."""
        first = len(self.recorder.events)
        problem = None
        if isinstance(event, ToolCall):
            self._call(event)
        elif isinstance(event, AgentActs):
            for act in event.data.acts:
                if act.startswith("REQUEST_APPROVAL:"):
                    self.bench.request_approval(act.partition(":")[2], "speech", event.t_ms)
        elif isinstance(event, UserPlan):
            problem = self._plan(event)
        new = self.recorder.events[first:]
        self.requested.update(e.data.action for e in new if e.type == "approval.requested")
        self.pending.extend(new)
        return problem

    def _call(self, event: ToolCall) -> None:
        data = event.data
        if _unloggable(data.arguments) and self.item.tool(data.name) is not None:
            # arguments that were not plain JSON: the workbench refused them unrun
            result = ToolResultData(
                call_id=data.call_id,
                name=data.name,
                ok=False,
                error_code="invalid_arguments",
                error=str(data.arguments["unloggable_arguments"]),
            )
            self.recorder.emit(event.t_ms, result)
            return
        self.bench.execute(data.call_id, data.name, data.arguments, event.t_ms)

    def _plan(self, event: UserPlan) -> str | None:
        data = event.data
        spec = None
        if data.event_id is not None:
            spec = next((e for e in self.item.user.events if e.id == data.event_id), None)
            if spec is None:
                return f"user.plan {data.plan_id!r} names event {data.event_id!r}, not in the item"
            self.fired.add(spec.id)
        if data.approval_id is not None:
            problem = self._approve(data.plan_id, data.approval_id, event.t_ms)
            if problem is not None:
                return problem
        if spec is not None and spec.revokes is not None:
            self.bench.revoke(spec.revokes, spec.id, event.t_ms)
        return None

    def _approve(self, plan_id: str, approval_id: str, t_ms: int) -> str | None:
        """Grant a user approval, if the item's user could have given it."""
        approval = next((a for a in self.item.user.approvals if a.id == approval_id), None)
        where = f"user.plan {plan_id!r} approves {approval_id!r}"
        if approval is None:
            return f"{where}, not an approval of the item"
        if approval.action not in self.requested:
            return f"{where} but the agent never asked for {approval.action!r}"
        missing = [e for e in approval.after if e not in self.fired]
        if missing:
            return f"{where} before its events {missing} fired"
        self.grants[approval_id] = self.grants.get(approval_id, 0) + 1
        if self.grants[approval_id] > approval.max_grants:
            return f"{where} more than max_grants={approval.max_grants} times"
        self.bench.grant(approval, t_ms)
        return None


def _unloggable(arguments: Any) -> bool:
    """The marker the orchestrator logs for arguments that are not plain JSON."""
    return isinstance(arguments, dict) and set(arguments) == {"unloggable_arguments", "repr"}


def _diff(logged: Any, replayed: Any, path: str) -> str | None:
    """Where two JSON values differ (floats within 1e-9), or None."""
    if isinstance(logged, bool) or isinstance(replayed, bool):
        same = type(logged) is type(replayed) and logged == replayed
    elif isinstance(logged, int | float) and isinstance(replayed, int | float):
        same = math.isclose(logged, replayed, rel_tol=1e-9, abs_tol=1e-12)
    elif isinstance(logged, dict) and isinstance(replayed, dict):
        for key in sorted(set(logged) | set(replayed), key=str):
            if key not in logged or key not in replayed:
                side = "trace" if key in logged else "replay"
                return f"{path}.{key} only in the {side}"
            found = _diff(logged[key], replayed[key], f"{path}.{key}")
            if found is not None:
                return found
        return None
    elif isinstance(logged, list) and isinstance(replayed, list):
        if len(logged) != len(replayed):
            return f"{path}: {len(logged)} entries logged, {len(replayed)} in the replay"
        for i, (a, b) in enumerate(zip(logged, replayed, strict=True)):
            found = _diff(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    else:
        same = logged == replayed
    return None if same else f"{path}: logged {_short(logged)}, replay {_short(replayed)}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:77]}..."


def _label(event: TraceEvent) -> str:
    """An event named with what identifies it (tool, call, approval, action)."""
    data = event.data
    parts = [
        f"{key} {getattr(data, key)!r}"
        for key in ("name", "call_id", "approval_id", "action", "artifact", "field", "reason")
        if getattr(data, key, None) is not None
    ]
    return f"{event.type} ({', '.join(parts)})" if parts else event.type


def _compare(logged: TraceEvent, replayed: TraceEvent) -> str | None:
    if logged.type != replayed.type:
        what = f"the trace has {_label(logged)} where the replay has {_label(replayed)}"
        return what + _why(logged.type, replayed.type)
    if logged.t_ms != replayed.t_ms:
        return f"{_label(logged)} logged at {logged.t_ms} ms, replay at {replayed.t_ms} ms"
    ignored = _IGNORED.get(logged.type, ())
    a = {k: v for k, v in logged.data.model_dump(mode="json").items() if k not in ignored}
    b = {k: v for k, v in replayed.data.model_dump(mode="json").items() if k not in ignored}
    found = _diff(a, b, "data")
    return None if found is None else f"{_label(logged)} differs from the replay: {found}"


def _why(logged: str | None, replayed: str | None) -> str:
    """The two forgeries the check exists for, named."""
    if logged == "approval.granted":
        return " (an approval no user approval backs)"
    if replayed == "action.blocked":
        return " (a not_authorized result without its action.blocked)"
    return ""


def _unlogged(replayed: TraceEvent) -> str:
    what = f"the replay has {_label(replayed)} that the trace lacks"
    return what + _why(None, replayed.type)


def _unreplayed(logged: TraceEvent) -> str:
    what = f"the trace has {_label(logged)} that the replay does not produce"
    return what + _why(logged.type, None)


def _cut_short(events: list[TraceEvent]) -> bool:
    return bool(events) and isinstance(events[-1], EpisodeEnd) and events[-1].data.reason == "error"


def replay_check(item: WorkflowItem, events: list[TraceEvent]) -> Tampering | None:
    """The first disagreement between the trace and its replay, or None if they agree."""
    run = _Replay(item)
    for index, event in enumerate(events):
        if event.actor == "workbench":
            if not run.pending:
                return Tampering(index, event.t_ms, _unreplayed(event))
            problem = _compare(event, run.pending.pop(0))
        elif isinstance(event, ToolCall | AgentActs | UserPlan):
            if run.pending:
                return Tampering(index, event.t_ms, _unlogged(run.pending[0]))
            problem = run.drive(event)
        else:
            continue
        if problem is not None:
            return Tampering(index, event.t_ms, problem)
    end = events[-1].t_ms if events else 0
    if run.pending and _cut_short(events):
        return None  # an error stopped the episode inside the last call: its tail is missing
    if run.pending:
        return Tampering(len(events), end, _unlogged(run.pending[0]))
    if replay(item, events) != run.bench.state:
        return Tampering(len(events), end, "the final state differs from the replay's")
    return None
