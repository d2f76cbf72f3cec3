"""The Voice Workbench at run time: executes tool calls and approvals as events.

Every effect is an event (emitted through the recorder, then applied with
:func:`~duplexbench.workbench._state.apply_event`), so a trace replays to the
same state. Bad calls never raise: they return a structured tool error that
is logged and handed back to the agent. Arguments must be plain JSON that the
trace and `workbench.json` can hold (:func:`json_problem`) before the tool's
schema is checked.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any, Literal

from jsonschema import Draft202012Validator, ValidationError

from duplexbench.items import (
    ActionTool,
    ApprovalRequestTool,
    ApprovalSpec,
    ArtifactTransitionTool,
    ArtifactUpdateTool,
    DatabaseReadTool,
    DatabaseWriteTool,
    KnowledgeSearchTool,
    Tool,
    WorkflowItem,
    action_type,
    is_gated,
    tool_parameters,
)
from duplexbench.trace import (
    ActionBlockedData,
    ActionData,
    ApprovalGrantedData,
    ApprovalRequestedData,
    ApprovalRevokedData,
    DatabaseWriteData,
    KnowledgeSearchData,
    Recorder,
    ToolResultData,
)
from duplexbench.workbench._artifacts import ArtifactOps
from duplexbench.workbench._auth import Authorizer
from duplexbench.workbench._errors import ToolFailure
from duplexbench.workbench._knowledge import KnowledgeIndex
from duplexbench.workbench._state import WorkbenchState, apply_event, initial_state

MAX_DEPTH = 32
"""Deepest nesting of objects and arrays accepted in tool arguments."""
MAX_VALUES = 20_000
"""Most values (objects, arrays and scalars; keys not counted) in one call's arguments."""
MAX_TEXT = 4096
"""Longest string (characters) accepted anywhere in tool arguments: a field value, a
list element, a query. A longer one is refused with a ``too_large`` tool error naming
the limit (a model stuck in a repetition loop while writing a field), the episode goes
on, and nothing unbounded ever reaches the graders."""
MAX_LIST = 256
"""Most elements of one array in tool arguments (``too_large`` beyond it)."""
MAX_MESSAGE = 1000
"""Longest error message handed back to the agent (a longer one is cut)."""
_INT_LIMIT = 10**4300  # Python converts at most 4300 digits to text by default


def size_problem(arguments: Any) -> str | None:
    """Where `arguments` (plain JSON, :func:`json_problem`) hold a string longer than
    :data:`MAX_TEXT` characters or an array longer than :data:`MAX_LIST`, or None."""
    stack: list[tuple[Any, str]] = [(arguments, "arguments")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str) and len(value) > MAX_TEXT:
            return f"{where}: {len(value)} characters; the limit is {MAX_TEXT}"
        if isinstance(value, list):
            if len(value) > MAX_LIST:
                return f"{where}: {len(value)} elements; the limit is {MAX_LIST}"
            stack.extend((v, f"{where}/{i}") for i, v in enumerate(value))
        elif isinstance(value, dict):
            stack.extend((k, f"{where}: a key") for k in value)
            stack.extend((v, f"{where}/{k}") for k, v in value.items())
    return None


def json_problem(arguments: Any) -> str | None:
    """Why `arguments` are not plain JSON the workbench can store and write, or None.

    Rejects non-finite numbers, integers of 4300+ digits, lone UTF-16
    surrogates, non-string keys, non-JSON types, nesting deeper than
    :data:`MAX_DEPTH` and more than :data:`MAX_VALUES` values. Iterative, so
    no input nests deeply enough to exhaust the stack.
    """
    stack: list[tuple[Any, str, int]] = [(arguments, "", 1)]
    count = 0
    while stack:
        value, where, depth = stack.pop()
        count += 1
        if count > MAX_VALUES:
            return f"arguments: more than {MAX_VALUES} values"
        if isinstance(value, dict | list) and depth > MAX_DEPTH:
            return f"{where or 'arguments'}: nested deeper than {MAX_DEPTH} levels"
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str) or _scalar_problem(key) is not None:
                    return f"{where or 'arguments'}: a key is not valid text"
                stack.append((item, f"{where}/{key}" if where else key, depth + 1))
        elif isinstance(value, list):
            stack.extend(
                (v, f"{where}/{i}" if where else str(i), depth + 1) for i, v in enumerate(value)
            )
        elif (problem := _scalar_problem(value)) is not None:
            return f"{where or 'arguments'}: {problem}"
    return None


def _scalar_problem(value: Any) -> str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "a string holds a lone UTF-16 surrogate (not Unicode text)"
        return None
    if isinstance(value, int):
        return None if -_INT_LIMIT < value < _INT_LIMIT else "an integer of 4300 or more digits"
    if isinstance(value, float):
        return None if math.isfinite(value) else "not a finite number"
    return f"a {type(value).__name__} is not a JSON value"


def _error_order(error: ValidationError) -> tuple[str, list[str], list[str]]:
    """Message first, as `str(error)` orders, without pretty-printing instance and schema."""
    return (
        error.message,
        [str(p) for p in error.relative_schema_path],
        [str(p) for p in error.absolute_path],
    )


def _clip(message: str) -> str:
    if len(message) <= MAX_MESSAGE:
        return message
    return f"{message[:MAX_MESSAGE]}... (cut: {len(message)} characters)"


@dataclass(frozen=True)
class ToolOutcome:
    ok: bool
    result: Any = None
    error_code: str | None = None
    error: str | None = None

    def for_agent(self) -> dict[str, Any]:
        """The agent's own copy: changing it cannot change the logged `tool.result`."""
        if self.ok:
            return {"ok": True, "result": copy.deepcopy(self.result)}
        return {"ok": False, "error": {"code": self.error_code, "message": self.error}}


class Workbench:
    """Tools, knowledge, artifacts, database and authorization of one episode."""

    def __init__(self, item: WorkflowItem, recorder: Recorder) -> None:
        self.item = item
        self.recorder = recorder
        self.state: WorkbenchState = initial_state(item)
        self.auth = Authorizer()
        self.knowledge = KnowledgeIndex(item.knowledge)
        self.artifacts = ArtifactOps(item, self)
        self._validators = {
            t.name: Draft202012Validator(tool_parameters(item, t)) for t in item.tools
        }
        self.requested_actions: list[str] = []

    def emit_effect(self, event: Any) -> None:
        apply_event(self.state, event)

    # ------------------------------------------------------------ tools

    def execute(self, call_id: str, name: str, arguments: Any, t_ms: int) -> ToolOutcome:
        """Run one tool call at media time `t_ms`; never raises for bad input."""
        try:
            result = self._run(call_id, name, arguments, t_ms)
            outcome = ToolOutcome(ok=True, result=result)
        except ToolFailure as exc:
            outcome = ToolOutcome(ok=False, error_code=exc.code, error=_clip(str(exc)))
        self.recorder.emit(
            t_ms,
            ToolResultData(
                call_id=call_id,
                name=name,
                ok=outcome.ok,
                result=outcome.result,
                error_code=outcome.error_code,
                error=outcome.error,
            ),
        )
        return outcome

    def _run(self, call_id: str, name: str, arguments: Any, t_ms: int) -> Any:
        tool = self.item.tool(name)
        if tool is None:
            known = ", ".join(t.name for t in self.item.tools)
            raise ToolFailure("unknown_tool", f"no tool named {name!r}; tools: {known}")
        problem = json_problem(arguments)
        if problem is not None:
            raise ToolFailure("invalid_arguments", problem)
        self._validate(tool, arguments)
        if (too_large := size_problem(arguments)) is not None:
            raise ToolFailure("too_large", too_large)
        if isinstance(tool, KnowledgeSearchTool):
            return self._search(call_id, tool, arguments, t_ms)
        if isinstance(tool, DatabaseReadTool):
            return {"record": self._record(tool.table, arguments["id"])}
        if isinstance(tool, DatabaseWriteTool):
            return self._db_write(call_id, tool, arguments, t_ms)
        if isinstance(tool, ArtifactUpdateTool):
            return self.artifacts.update(call_id, tool.artifact, arguments["fields"], t_ms)
        if isinstance(tool, ArtifactTransitionTool):
            return self.artifacts.transition(call_id, tool.artifact, tool.to_state, t_ms)
        if isinstance(tool, ApprovalRequestTool):
            self.request_approval(arguments["action"], "tool", t_ms)
            return {"status": "requested", "action": arguments["action"]}
        assert isinstance(tool, ActionTool)
        return self._action(call_id, tool, arguments, t_ms)

    def _validate(self, tool: Tool, arguments: Any) -> None:
        errors = sorted(self._validators[tool.name].iter_errors(arguments), key=_error_order)
        if not errors:
            return
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path) or "arguments"
        if first.validator == "additionalProperties" and where == "fields":
            allowed = sorted(first.schema.get("properties", {}))
            raise ToolFailure("unknown_field", f"{first.message}; writable fields: {allowed}")
        raise ToolFailure("invalid_arguments", f"{where}: {first.message}")

    def _search(self, call_id: str, tool: KnowledgeSearchTool, args: Any, t_ms: int) -> Any:
        hits = self.knowledge.search(args["query"], int(args.get("top_k", tool.top_k)))
        self.recorder.emit(
            t_ms,
            KnowledgeSearchData(
                call_id=call_id,
                query=args["query"],
                documents=[h.doc.id for h in hits],
                scores=[h.score for h in hits],
            ),
        )
        return {
            "results": [
                {"id": h.doc.id, "title": h.doc.title, "text": h.doc.text, "score": h.score}
                for h in hits
            ]
        }

    def _record(self, table: str, record_id: str) -> dict[str, Any]:
        record = self.state.database.get(table, {}).get(record_id)
        if record is None:
            raise ToolFailure("unknown_record", f"no record {record_id!r} in {table}")
        return copy.deepcopy(record)

    def _db_write(self, call_id: str, tool: DatabaseWriteTool, args: Any, t_ms: int) -> Any:
        old = self._record(tool.table, args["id"])
        unknown = sorted(set(args["fields"]) - set(old))
        if unknown:
            raise ToolFailure("unknown_field", f"{tool.table} records have no field(s) {unknown}")
        if "id" in args["fields"] and args["fields"]["id"] != old.get("id"):
            raise ToolFailure("invalid_arguments", "fields/id: a record's id cannot change")
        new = {**old, **copy.deepcopy(args["fields"])}
        token = self._authorize(call_id, tool, args["id"], t_ms)
        self._record_execution(call_id, tool, args["id"], token, t_ms)
        self.emit_effect(
            self.recorder.emit(
                t_ms,
                DatabaseWriteData(
                    table=tool.table, record=args["id"], old=old, new=new, call_id=call_id
                ),
            )
        )
        return {"record": copy.deepcopy(new)}

    def _action(self, call_id: str, tool: ActionTool, args: Any, t_ms: int) -> Any:
        target = tool.artifact
        if tool.target_param is not None:
            target = str(args.get(tool.target_param))
        token = self._authorize(call_id, tool, target, t_ms)
        if tool.artifact is not None:
            self.artifacts.check_committable(tool.artifact)
        self._record_execution(call_id, tool, target, token, t_ms)
        if tool.artifact is not None:
            self.artifacts.commit(call_id, tool.artifact, t_ms)
        return {"action": action_type(tool), "target": target, "status": "done"}

    # ------------------------------------------------------------ authorization

    def _authorize(self, call_id: str, tool: Tool, target: str | None, t_ms: int) -> str | None:
        """The approval token a gated tool runs under (None if not gated).

        A blocked attempt is logged as `action.blocked` and raised as a tool error.
        """
        action = action_type(tool)
        if action is None or not is_gated(tool):
            return None
        verdict = self.auth.check(action, target, t_ms)
        if isinstance(verdict, str):
            data = ActionBlockedData(action=action, target=target, call_id=call_id, reason=verdict)
            self.recorder.emit(t_ms, data)
            raise ToolFailure(
                "not_authorized",
                f"{action} needs the user's explicit approval ({verdict.replace('_', ' ')})",
            )
        return verdict.id

    def _record_execution(
        self, call_id: str, tool: Tool, target: str | None, token_id: str | None, t_ms: int
    ) -> None:
        for token in self.auth.tokens:
            if token.id == token_id:
                token.used = True
        action = action_type(tool) or tool.name
        data = ActionData(action=action, target=target, call_id=call_id, token=token_id)
        self.emit_effect(self.recorder.emit(t_ms, data))

    def request_approval(self, action: str, via: Literal["tool", "speech"], t_ms: int) -> None:
        self.requested_actions.append(action)
        self.recorder.emit(
            t_ms,
            ApprovalRequestedData(action=action, via=via),
        )

    def grant(
        self, approval: ApprovalSpec, t_ms: int, read_back: tuple[str, ...] | None = None
    ) -> str:
        """The user approved (at the onset of the approving speech), having heard
        `read_back` read back."""
        token = self.auth.grant(approval.id, approval.action, approval.target, t_ms)
        self.recorder.emit(
            t_ms,
            ApprovalGrantedData(
                token=token.id,
                approval_id=approval.id,
                action=approval.action,
                target=approval.target,
                read_back=None if read_back is None else list(read_back),
            ),
        )
        return token.id

    def revoke(self, approval_id: str, event_id: str, t_ms: int) -> None:
        """The user revoked (at the onset of the revoking speech)."""
        for token in self.auth.revoke(approval_id, t_ms):
            self.recorder.emit(
                t_ms,
                ApprovalRevokedData(token=token.id, approval_id=approval_id, event_id=event_id),
            )
