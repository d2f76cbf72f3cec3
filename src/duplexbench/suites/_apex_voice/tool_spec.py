"""APEX-Voice tools/tool_spec.yaml -> duplexbench tools (by handler)."""

from __future__ import annotations

from typing import Any

from duplexbench.suites._apex_voice.common import (
    TOOLS,
    Ctx,
    ident,
    leftover,
    lifecycle,
    mapping,
    seq,
    words,
)
from duplexbench.suites._apex_voice.workspace import WorkParts

KNOWLEDGE_HANDLERS = {"knowledge_search", "search_knowledge", "kb_search", "retrieve"}
DB_READ_HANDLERS = {"database_read", "db_read", "read_record", "lookup_record"}
DB_WRITE_HANDLERS = {"database_write", "db_write", "write_record", "update_record"}
PARAM_TYPES = {"string", "number", "integer", "boolean", "object", "array"}


# ---------------------------------------------------------------- tools


def _params_schema(ctx: Ctx, params: list[Any], where: str) -> dict[str, Any]:
    props: dict[str, Any] = {}
    required: list[str] = []
    for i, value in enumerate(params):
        p = mapping(value, TOOLS, f"{where}.params[{i}]")
        name = ident(p.get("name"), TOOLS, f"{where}.params[{i}].name")
        ptype = str(p.get("type") or "string")
        props[name] = {"type": ptype} if ptype in PARAM_TYPES else {}
        if ptype not in PARAM_TYPES:
            ctx.note(TOOLS, f"{where}.params[{i}].type", f"type {ptype}", "unknown; any value")
        if p.get("description"):
            props[name]["description"] = str(p["description"])
        if p.get("required"):
            required.append(name)
    return {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }


def build_tools(ctx: Ctx, parts: WorkParts, approval_required: list[str]) -> None:
    doc = mapping(ctx.doc(TOOLS), TOOLS, "")
    artifact_ids = {a["id"] for a in parts.artifacts}
    raw_tools = [
        mapping(t, TOOLS, f"tools[{i}]")
        for i, t in enumerate(seq(doc.get("tools"), TOOLS, "tools"))
    ]
    requests: list[tuple[int, dict[str, Any], str]] = []
    for i, t in enumerate(raw_tools):
        where = f"tools[{i}]"
        name = ident(t.get("name"), TOOLS, f"{where}.name")
        handler = str(t.get("handler") or "")
        effect = mapping(t.get("effect"), TOOLS, f"{where}.effect", {})
        desc = str(t.get("description") or words(name))
        base = {"name": name, "description": desc}
        art = str(effect.get("artifact_id") or "")
        if handler in ("update_artifact", "set_lifecycle", "commit") and art not in artifact_ids:
            ctx.note(
                TOOLS,
                f"{where}.effect.artifact_id",
                f"tool {name}",
                f"unknown artifact {art!r}; tool dropped",
            )
            continue
        if handler == "update_artifact":
            parts.tools.append({**base, "kind": "artifact_update", "artifact": art})
            _note_params(ctx, t, where, {"fields"})
        elif handler == "set_lifecycle":
            to = lifecycle(ctx, effect.get("state"), TOOLS, f"{where}.effect.state")
            if to not in ("draft", "ready"):
                ctx.note(
                    TOOLS,
                    f"{where}.effect.state",
                    f"tool {name}",
                    f"cannot move an artifact to {to} without a commit; tool dropped",
                )
                continue
            parts.tools.append(
                {**base, "kind": "artifact_transition", "artifact": art, "to_state": to}
            )
            if to == "ready":
                parts.ready_tools.setdefault(art, name)
        elif handler == "commit":
            _commit(ctx, parts, t, base, art=art, required=approval_required, where=where)
        elif handler == "request_approval":
            requests.append((i, base, str(t.get("commit_action_type") or "")))
        elif handler in KNOWLEDGE_HANDLERS and parts.knowledge:
            parts.tools.append({**base, "kind": "knowledge_search"})
        elif (
            handler in DB_READ_HANDLERS | DB_WRITE_HANDLERS
            and effect.get("table") in parts.database
        ):
            kind = "database_read" if handler in DB_READ_HANDLERS else "database_write"
            parts.tools.append({**base, "kind": kind, "table": str(effect["table"])})
        else:
            ctx.note(
                TOOLS,
                f"{where}.handler",
                f"tool {name} (handler {handler!r})",
                "no duplexbench tool kind for this handler; tool dropped",
            )
            continue
        used = {
            "name",
            "handler",
            "description",
            "effect",
            "params",
            "tool_class",
            "reversible",
            "commit_action_type",
            "commit_target_param",
        }
        leftover(ctx, t, TOOLS, where, used, why="no counterpart on a duplexbench tool")
    for i, base, action in requests:
        target = action if action in parts.gated else ""
        if not target and len(parts.gated) == 1:
            target = next(iter(parts.gated))
        if not parts.gated:
            ctx.note(
                TOOLS,
                f"tools[{i}]",
                f"tool {base['name']}",
                "no gated action to ask approval for; tool dropped",
            )
            continue
        parts.tools.append({**base, "kind": "approval_request"})
        parts.approval_tools[base["name"]] = target
        _note_params(
            ctx,
            raw_tools[i],
            f"tools[{i}]",
            set(),
            "our approval_request takes "
            "`action` (+ `summary`); the reference passes the action instead",
        )
    _ready_tools(ctx, parts)


def _note_params(ctx: Ctx, t: dict[str, Any], where: str, ours: set[str], why: str = "") -> None:
    for k, p in enumerate(seq(t.get("params"), TOOLS, f"{where}.params")):
        name = p.get("name") if isinstance(p, dict) else None
        if name not in ours:
            ctx.note(
                TOOLS,
                f"{where}.params[{k}]",
                f"parameter {name}",
                why or "not a parameter of the duplexbench tool kind; dropped",
            )


def _commit(
    ctx: Ctx,
    parts: WorkParts,
    t: dict[str, Any],
    base: dict[str, Any],
    *,
    art: str,
    required: list[str],
    where: str,
) -> None:
    name = base["name"]
    action = str(t.get("commit_action_type") or name)
    tool: dict[str, Any] = {
        **base,
        "kind": "action",
        "artifact": art,
        "requires_approval": action in required,
    }
    if action != name:
        tool["action"] = action
    params = seq(t.get("params"), TOOLS, f"{where}.params")
    if params:
        tool["parameters"] = _params_schema(ctx, params, where)
        target = t.get("commit_target_param")
        if target is not None and target in tool["parameters"]["properties"]:
            tool["target_param"] = str(target)
    effect = mapping(t.get("effect"), TOOLS, f"{where}.effect", {})
    sets = mapping(effect.get("set_fields"), TOOLS, f"{where}.effect.set_fields", {})
    if sets:
        parts.commit_effects[name] = (art, dict(sets))
        said = ", ".join(f"{k} = {v}" for k, v in sets.items())
        tool["description"] = (
            f"{base['description']} Before calling it, write {said} on {art}: "
            "this tool does not set fields itself."
        )
        ctx.note(
            TOOLS,
            f"{where}.effect.set_fields",
            f"{name} sets {said}",
            "commit effect emulated: duplexbench commits do not write fields, so the "
            "oracle writes them before committing and the tool description says so",
        )
    parts.tools.append(tool)
    parts.actions.add(action)
    if tool["requires_approval"]:
        parts.gated.add(action)


def _ready_tools(ctx: Ctx, parts: WorkParts) -> None:
    """duplexbench commits only a ready artifact: add a transition tool where APEX has none."""
    committed = {t["artifact"] for t in parts.tools if t["kind"] == "action"}
    for art in sorted(committed - set(parts.ready_tools)):
        name = f"mark_{art}_ready"
        while parts.tool(name) is not None:
            name += "_"
        parts.tools.append(
            {
                "name": name,
                "kind": "artifact_transition",
                "artifact": art,
                "to_state": "ready",
                "description": f"Mark {art} complete and ready to commit.",
            }
        )
        parts.ready_tools[art] = name
        ctx.note(
            TOOLS,
            "tools",
            f"tool {name}",
            "added: duplexbench commits only a ready "
            "artifact; the oracle marks it ready before committing",
        )
