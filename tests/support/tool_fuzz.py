"""Shared machinery of the tool-call fuzzers (tests/workbench/test_fuzz_tool*.py).

`agent_call` makes one call the way an agent does, through
`EpisodeCore.run_tool`, and checks its outcome; `call_tool` adds the schema
oracle and the effects check. The rest builds arguments: the schema's example
and its fixed mutations, valid arguments drawn from an item (real record ids,
fact values, approval targets), random JSON and random mutations.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import math
import re
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from duplexbench.agents._providers.openai_realtime_protocol import tool_arguments
from duplexbench.items._load import load_item, parse_item
from duplexbench.items._tool_schema import tool_parameters
from duplexbench.items._tools import (
    ActionTool,
    ApprovalRequestTool,
    ArtifactUpdateTool,
    DatabaseReadTool,
    DatabaseWriteTool,
    KnowledgeSearchTool,
    Tool,
)
from duplexbench.items._workflow import WorkflowItem
from duplexbench.orchestrator._episode import EpisodeCore, EpisodeSetup
from duplexbench.suites._apex_voice import import_package
from duplexbench.trace._events import ActionBlocked, ToolCall, ToolResult, TraceEvent
from duplexbench.workbench._runtime import MAX_DEPTH, MAX_MESSAGE, json_problem, size_problem
from duplexbench.workbench._state import WorkbenchState, replay
from support.fixtures import FIXTURES, fixture_item
from support.fuzzing import Draw, json_strategies, time_guard

WORKFLOWS = Path(__file__).parents[2] / "src/duplexbench/suites/data/workflows-v1"
APEX_TOYS = ("toy_form_001", "toy_interview_001")
SOURCES = [
    *(f"fixture:{p.stem}" for p in sorted(FIXTURES.glob("*.yaml")) if p.name != "suite.yaml"),
    *(f"apex:{name}" for name in APEX_TOYS),
    *(f"v1:{p.stem}" for p in sorted(WORKFLOWS.glob("*.yaml")) if p.name != "suite.yaml"),
]
CODES = {"unknown_tool", "invalid_arguments", "unknown_field", "unknown_record", "lifecycle"}
CODES |= {"missing_fields", "not_authorized", "too_large"}  # all of errors.ToolFailure's codes
INT_LIMIT = 10**4300  # Python writes at most 4300 digits
SURROGATE = re.compile("[\ud800-\udfff]")
QUIET = (ToolCall, ToolResult, ActionBlocked)
"""The only events a rejected call may leave in the trace."""


@functools.cache
def item_of(source: str) -> WorkflowItem:
    kind, _, name = source.partition(":")
    if kind == "fixture":
        return fixture_item(name)
    if kind == "apex":
        return parse_item(import_package(FIXTURES / "apex-voice" / name).item, f"{name}.yaml")
    return load_item(WORKFLOWS / f"{name}.yaml")


def episode(item: WorkflowItem) -> EpisodeCore:
    return EpisodeCore(EpisodeSetup(item, "0" * 64, "fuzz", "fuzz-agent"), privileged=False)


def deep(levels: int, leaf: Any = 1) -> Any:
    for i in range(levels):
        leaf = [leaf] if i % 2 else {"a": leaf}
    return leaf


# --- the checked call -------------------------------------------------------------------------


def snapshot(core: EpisodeCore) -> Any:
    wb = core.bench
    tokens = [dataclasses.astuple(t) for t in wb.auth.tokens]
    return wb.state.model_dump(), tokens, list(wb.requested_actions)


def hostile(value: Any) -> bool:
    """Whether a value is not plain, writable JSON (the independent oracle)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list) and depth > MAX_DEPTH:
            return True
        if isinstance(node, dict):
            stack += [(k if isinstance(k, str) else (), depth) for k in node]
            stack += [(v, depth + 1) for v in node.values()]
        elif isinstance(node, list):
            stack += [(v, depth + 1) for v in node]
        elif bad_scalar(node):
            return True
    return False


def bad_scalar(value: Any) -> bool:
    """A set, tuple, bytes... (a non-string key comes as `()`), NaN/inf, 4300+ digits, surrogate."""
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, int):
        return abs(value) >= INT_LIMIT
    if isinstance(value, str):
        return SURROGATE.search(value) is not None
    return value is not None


def writable(event: TraceEvent) -> None:
    """A workbench event goes into events.jsonl (strict JSON, UTF-8)."""
    data = event.data.model_dump(exclude={"name"})  # the name is the agent's, logged as sent
    json.dumps(data, ensure_ascii=False, allow_nan=False).encode("utf-8")


def agent_call(core: EpisodeCore, name: str, arguments: Any, t: int = 1000) -> dict[str, Any]:
    """One tool call as an agent makes it; checks the outcome and, if rejected, the state."""
    before, first = snapshot(core), len(core.recorder.events)
    sent = None if hostile(arguments) else json.dumps(arguments)
    with time_guard():
        out = core.run_tool(name, arguments, None, t).result.output
    assert sent is None or json.dumps(arguments) == sent, "the call changed the arguments"
    new = core.recorder.events[first:]
    assert isinstance(new[0], ToolCall) and isinstance(new[-1], ToolResult)
    assert new[-1].data.ok is out["ok"]
    for event in new[1:]:
        writable(event)
    if out["ok"]:
        assert set(out) == {"ok", "result"}
        assert not hostile(arguments)
        return out
    assert set(out) == {"ok", "error"} and out["error"]["code"] in CODES
    message = out["error"]["message"]
    assert isinstance(message, str) and 0 < len(message) <= MAX_MESSAGE + 40
    assert snapshot(core) == before, f"rejected call changed the workbench: {message}"
    assert all(isinstance(e, QUIET) for e in new)
    return out


def call_tool(core: EpisodeCore, tool: Tool, arguments: Any, t: int = 1000) -> dict[str, Any]:
    """`agent_call` plus the schema oracle (what the schema or JSON rejects is rejected)
    and, for a successful call, a check that it changed only what the tool may change."""
    before = snapshot(core)
    out = agent_call(core, tool.name, arguments, t)
    if hostile(arguments):
        assert out["error"]["code"] == "invalid_arguments"
    elif not Draft202012Validator(tool_parameters(core.item, tool)).is_valid(arguments):
        assert out["error"]["code"] in ("invalid_arguments", "unknown_field")
    elif size_problem(arguments) is not None:  # plain JSON is checked first (its limits)
        plain = json_problem(arguments) is None
        assert out["error"]["code"] == ("too_large" if plain else "invalid_arguments")
    if out["ok"]:
        check_effects(tool, arguments, before, snapshot(core))
    return out


def check_effects(tool: Tool, args: Any, before: Any, after: Any) -> None:
    (old, old_tokens, _), (new, new_tokens, _) = before, after
    own = getattr(tool, "artifact", None)
    for aid, art in new["artifacts"].items():
        prior = old["artifacts"][aid]
        changed = {k for k, v in art["fields"].items() if prior["fields"].get(k, None) != v}
        if isinstance(tool, ArtifactUpdateTool) and aid == own:
            assert changed <= set(args["fields"])
            assert all(art["fields"][k] == args["fields"][k] for k in args["fields"])
        else:
            assert not changed and (aid == own or art["lifecycle"] == prior["lifecycle"])
    for table, records in new["database"].items():
        for rid, record in records.items():
            prior = old["database"][table][rid]
            changed = {k for k, v in record.items() if prior.get(k) != v}
            if isinstance(tool, DatabaseWriteTool) and (table, rid) == (tool.table, args["id"]):
                assert changed <= set(args["fields"])
            else:
                assert not changed
    runs = len(new["executed_actions"]) - len(old["executed_actions"])
    assert runs == (1 if isinstance(tool, ActionTool | DatabaseWriteTool) else 0)
    spent = sum(t[6] for t in new_tokens) - sum(t[6] for t in old_tokens)
    assert spent == (1 if getattr(tool, "requires_approval", False) else 0)


def check_consistent(core: EpisodeCore) -> None:
    state = core.bench.state
    assert replay(core.item, core.recorder.events) == state
    assert WorkbenchState.model_validate_json(state.model_dump_json()) == state


# --- arguments --------------------------------------------------------------------------------

NOT_OBJECTS: list[Any] = [None, [], "fields", "{not json", "", 0, 1.5, True, math.nan]
NOT_OBJECTS += [deep(5000), [{"fields": {}}]]
HOSTILE: list[Any] = [None, True, False, 0, -1, 0.5, 10**100, -(10**100), 1e308, -1e-308]
HOSTILE += [math.nan, math.inf, -math.inf, 10**5000, "", "x" * 100_000, "\ud800", "\x00\u202e"]
HOSTILE += [[], {}, deep(50), deep(5000), {"$ref": "#"}]

hostile_values = st.integers(0, len(HOSTILE) - 1).map(
    lambda i: HOSTILE[i] if hostile(HOSTILE[i]) else copy.deepcopy(HOSTILE[i])
)  # hostile ones are shared: `walk` never enters them, so no mutation changes them


def example(schema: dict[str, Any]) -> Any:
    """A simple value the schema accepts (the subset of JSON Schema tools use)."""
    if "enum" in schema:
        return schema["enum"][0] if schema["enum"] else "none"
    if "anyOf" in schema:
        return example(schema["anyOf"][0])
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object":
        props = schema.get("properties", {})
        keys = schema.get("required") or list(props)[: schema.get("minProperties", 0)]
        return {key: example(props.get(key, {})) for key in keys}
    if kind == "array":
        return [example(schema.get("items", {}))] * schema.get("minItems", 0)
    simple = {"string": "x" * max(1, schema.get("minLength", 0)), "number": 1.5, "boolean": True}
    return simple.get(kind or "", schema.get("minimum", 1) if kind == "integer" else "value")


def slots(schema: dict[str, Any]) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """Paths of the properties (one level into `fields`) with their schemas."""
    out: list[tuple[tuple[str, ...], dict[str, Any]]] = []
    for key, sub in schema.get("properties", {}).items():
        out.append(((key,), sub))
        out += [((key, k), s) for k, s in sub.get("properties", {}).items()]
    return out


def put(args: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(args)
    node = out
    for key in path[:-1]:
        node = node.setdefault(key, {}) if isinstance(node.get(key, {}), dict) else {}
    node[path[-1]] = value
    return out


def schema_mutations(item: WorkflowItem, tool: Tool, turn: int) -> list[Any]:
    """The sweep's fixed cases for one tool (`turn` rotates the hostile values' places)."""
    schema = tool_parameters(item, tool)
    base = example(schema)
    cases = [base, *NOT_OBJECTS, {**base, "zzz_extra": 1}]
    cases += [{k: v for k, v in base.items() if k != key} for key in schema.get("required", [])]
    places = slots(schema) or [(("zzz_extra",), {})]
    for i, bad in enumerate(HOSTILE):
        cases.append(put(base, places[(i + turn) % len(places)][0], bad))
    for path, sub in places:
        if "enum" in sub:
            cases.append(put(base, path, "not-an-option"))
        for bound, step in (("minimum", -1), ("maximum", 1)):
            if bound in sub:
                cases += [put(base, path, sub[bound] + step), put(base, path, sub[bound] + 0.5)]
    if "fields" in schema.get("properties", {}):
        cases += [{**base, "fields": {}}, {**base, "fields": {"zzz_unknown": 1}}]
    return cases


def field_candidates(item: WorkflowItem, artifact_id: str, name: str) -> list[Any]:
    artifact = item.artifact(artifact_id)
    spec = artifact.field(name) if artifact else None
    values = [f.value for f in item.user.facts if f.field == f"{artifact_id}.{name}"]
    if spec is not None:
        values += [spec.gold] if spec.gold is not None else []
        values.append(example(spec.json_schema()))
    return copy.deepcopy(values) or ["value"]  # copies: mutations never reach the item


@st.composite
def valid_arguments(draw: st.DrawFn, item: WorkflowItem, tool: Tool) -> Any:
    """Arguments the schema accepts, with real record ids, fact values and approval targets."""
    if isinstance(tool, KnowledgeSearchTool):
        titles = [d.title for d in item.knowledge] or ["policy"]
        args: dict[str, Any] = {"query": draw(st.sampled_from(titles))}
        return {**args, "top_k": draw(st.integers(1, 20))} if draw(st.booleans()) else args
    if isinstance(tool, DatabaseReadTool | DatabaseWriteTool):
        records = {str(r["id"]): r for r in item.database.get(tool.table, [])} or {"none": {}}
        record_id = draw(st.sampled_from(sorted(records)))
        if isinstance(tool, DatabaseReadTool):
            return {"id": record_id}
        names = tool.fields or sorted(k for k in records[record_id] if k != "id") or ["x"]
        chosen = draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True))
        value = st.one_of(st.integers(0, 9), st.text(max_size=8), st.sampled_from(["a", "b"]))
        return {"id": record_id, "fields": {name: draw(value) for name in chosen}}
    if isinstance(tool, ArtifactUpdateTool):
        artifact = item.artifact(tool.artifact)
        names = [f.name for f in artifact.fields] if artifact else ["x"]
        chosen = draw(
            st.lists(st.sampled_from(names), min_size=1, max_size=len(names), unique=True)
        )
        pick = {n: draw(st.sampled_from(field_candidates(item, tool.artifact, n))) for n in chosen}
        return {"fields": pick}
    schema = tool_parameters(item, tool)
    args = example(schema)
    if isinstance(tool, ApprovalRequestTool) and schema["properties"]["action"]["enum"]:
        args["action"] = draw(st.sampled_from(schema["properties"]["action"]["enum"]))
    if isinstance(tool, ActionTool) and tool.target_param is not None:
        targets = [a.target for a in item.user.approvals if a.target] + ["other-target"]
        args[tool.target_param] = draw(st.sampled_from(targets))
    return args


_JSON = json_strategies(
    nasty=("", "\x00", "\u202e", "\ufeff", "\ud800", "\U0001f600", "x" * 300),
    int_bound=10**120,
    extra_scalars=[
        st.sampled_from([5000, 100_000]).map(lambda n: 10**n if n < 10_000 else "x" * n)
    ],
    list_size=5,
    dict_size=6,
    max_leaves=25,
)
text, scalars, json_values = _JSON.text, _JSON.scalars, _JSON.documents


@st.composite
def tool_of(draw: st.DrawFn) -> tuple[WorkflowItem, Tool]:
    item = item_of(draw(st.sampled_from(SOURCES)))
    return item, draw(st.sampled_from(item.tools))


def mutate(draw: Draw, args: Any) -> Any:
    paths = [p for p, _ in walk(args)]
    path = draw(st.sampled_from(paths))
    op = draw(st.sampled_from(["replace", "hostile", "drop", "add", "wrap", "text"]))
    if op == "text" and not hostile(args):
        raw = json.dumps(args, allow_nan=True)
        return tool_arguments(raw[: draw(st.integers(0, len(raw)))])
    if not path:
        return draw(json_values) if op == "replace" else [args] if op == "wrap" else args
    parent = args
    for key in path[:-1]:
        parent = parent[key]
    if op == "drop" and isinstance(parent, dict):
        del parent[path[-1]]
    elif op == "add" and isinstance(parent, dict):
        parent[draw(text)] = draw(json_values)
    elif op == "wrap":
        parent[path[-1]] = [parent[path[-1]]]
    else:
        bad = hostile_values if op == "hostile" else json_values
        parent[path[-1]] = draw(bad)
    return args


def walk(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) of `node`, not below `MAX_DEPTH` (hostile values nest deeper)."""
    out = [(path, node)]
    if len(path) < MAX_DEPTH and not hostile(node):
        pairs = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node)
            if isinstance(node, list)
            else []
        )
        for key, value in pairs:
            out += walk(value, (*path, key))
    return out


def scramble(value: Any) -> None:
    """Change a JSON value in place, as an agent may do with what it sent or got."""
    if isinstance(value, dict):
        for key in list(value):
            scramble(value[key])
        value["zzz_scrambled"] = 1
    elif isinstance(value, list):
        for item in value:
            scramble(item)
        value.append("scrambled")
