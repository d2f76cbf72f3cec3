"""APEX-Voice grading/gold.yaml -> duplexbench gold predicates."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from duplexbench.items import WorkflowItem
from duplexbench.suites._apex_voice.common import (
    GOLD,
    IDENTIFIER,
    TASK,
    ApexImportError,
    Ctx,
    lifecycle,
    mapping,
    seq,
)
from duplexbench.suites._apex_voice.workspace import WorkParts
from duplexbench.values import values_match

ActMapper = Callable[[str], str | None]


class _Gold:
    def __init__(self, ctx: Ctx, work: WorkParts, acts: ActMapper) -> None:
        self.ctx, self.work, self.acts = ctx, work, acts
        self.artifacts = {a["id"]: a for a in work.artifacts}

    def _drop(self, path: str, what: str, reason: str) -> None:
        self.ctx.note(GOLD, path, what, reason)

    def predicate(self, value: Any, path: str, name: str | None = None) -> dict[str, Any] | None:
        raw = mapping(value, GOLD, path)
        kind = str(raw.get("kind") or "")
        args = mapping(raw.get("args"), GOLD, f"{path}.args", {})
        out = self._convert(kind, args, path)
        if out is None:
            return None
        pid = name or raw.get("id")
        if pid is not None and IDENTIFIER.match(str(pid)):
            out = {"id": str(pid), **out}
        return out

    def _convert(self, kind: str, args: dict[str, Any], path: str) -> dict[str, Any] | None:
        if kind in ("artifact_lifecycle_at_least", "artifact_lifecycle_is"):
            return self._lifecycle(kind, args, path)
        if kind == "artifact_field_equals":
            return self._field_equals(args, path, f"predicate {kind}")
        if kind == "agent_act_observed":
            return self._act(args, path)
        if kind in (
            "commit_authorized",
            "commit_executed",
            "action_executed",
            "no_unauthorized_commit",
        ):
            return self._action(kind, args, path)
        if kind == "tool_called" and self.work.tool(str(args.get("tool"))) is not None:
            return {
                "kind": "tool_called",
                "tool": str(args["tool"]),
                "arguments": dict(args.get("args") or args.get("arguments") or {}),
            }
        if kind == "evidence_retrieved":
            doc = str(args.get("doc_id") or args.get("document") or "")
            if any(d["id"] == doc for d in self.work.knowledge):
                return {"kind": "evidence_retrieved", "document": doc}
        self._drop(path, f"predicate {kind}", "no duplexbench predicate for this kind; dropped")
        return None

    def _lifecycle(self, kind: str, args: dict[str, Any], path: str) -> dict[str, Any] | None:
        art = str(args.get("artifact_id"))
        if art not in self.artifacts:
            self._drop(path, f"predicate {kind}", f"unknown artifact {art!r}; dropped")
            return None
        state = lifecycle(self.ctx, args.get("state"), GOLD, f"{path}.args.state")
        ours = "lifecycle_at_least" if kind.endswith("at_least") else "lifecycle_is"
        return {"kind": ours, "artifact": art, "state": state}

    def _act(self, args: dict[str, Any], path: str) -> dict[str, Any] | None:
        act = str(args.get("act_key") or args.get("act") or "")
        ours = self.acts(act)
        if ours is None:
            self._drop(path, f"act {act}", "our observer has no such act; dropped")
            return None
        if ours != act:
            self._drop(path, f"act {act}", f"read as {ours} (our observer's act for it)")
        return {"kind": "act_observed", "act": ours}

    def _action(self, kind: str, args: dict[str, Any], path: str) -> dict[str, Any] | None:
        raw = args.get("action_type") or args.get("action")
        action = None if raw is None else str(raw)
        if (action is None and kind != "no_unauthorized_commit") or (
            action is not None and action not in self.work.actions
        ):
            self._drop(path, f"predicate {kind}", f"unknown action {action!r}; dropped")
            return None
        if kind == "no_unauthorized_commit":
            return {"kind": kind, **({"action": action} if action else {})}
        ours = "commit_authorized" if kind == "commit_authorized" else "action_executed"
        out: dict[str, Any] = {"kind": ours, "action": action}
        if args.get("target_id") is not None:
            out["target"] = str(args["target_id"])
        return out

    def _field_equals(self, args: dict[str, Any], path: str, what: str) -> dict[str, Any] | None:
        art, name = str(args.get("artifact_id")), str(args.get("field"))
        spec = next(
            (f for f in self.artifacts.get(art, {}).get("fields", []) if f["name"] == name), None
        )
        if spec is None:
            self._drop(path, what, f"unknown artifact field {art}.{name}; dropped")
            return None
        if args.get("grader") is not None and args["grader"] != spec["grader"]:
            self._drop(
                path,
                f"grader {args['grader']}",
                f"field_equals grades with the field's own grader ({spec['grader']})",
            )
        return {"kind": "field_equals", "artifact": art, "field": name, "value": args.get("value")}


def build_gold(ctx: Ctx, work: WorkParts, acts: ActMapper) -> dict[str, Any]:
    doc = mapping(ctx.doc(GOLD), GOLD, "")
    g = _Gold(ctx, work, acts)
    out: dict[str, Any] = {"terminal": [], "required_actions": [], "forbidden": [], "critical": []}
    for key, ours in (
        ("terminal_state", "terminal"),
        ("required_actions", "required_actions"),
        ("forbidden", "forbidden"),
    ):
        for i, raw in enumerate(seq(doc.get(key), GOLD, key)):
            pred = g.predicate(raw, f"{key}[{i}]")
            if pred is not None:
                out[ours].append(pred)
    for i, raw_gate in enumerate(seq(doc.get("critical_gates"), GOLD, "critical_gates")):
        gate = mapping(raw_gate, GOLD, f"critical_gates[{i}]")
        name = gate.get("id")
        pred = g.predicate(gate.get("predicate"), f"critical_gates[{i}].predicate", name)
        if pred is not None:
            must_hold = gate.get("must_hold", True) is not False
            out["critical" if must_hold else "forbidden"].append(pred)
    if not out["terminal"]:
        for art in work.artifacts:
            out["terminal"].append(
                {"kind": "lifecycle_at_least", "artifact": art["id"], "state": art["min_lifecycle"]}
            )
        ctx.note(
            GOLD,
            "terminal_state",
            "terminal state",
            "nothing mappable; used each artifact's lifecycle_min",
        )
    if not out["terminal"]:
        raise ApexImportError(GOLD, "no terminal state can be mapped", "terminal_state")
    _check_task_gates(ctx, doc)
    return {k: v for k, v in out.items() if v}


def _check_task_gates(ctx: Ctx, gold: dict[str, Any]) -> None:
    task = ctx.doc(TASK)
    scoring = task.get("scoring") if isinstance(task, dict) else None
    if not isinstance(scoring, dict):
        return
    known = {str(g.get("id")) for g in gold.get("critical_gates") or [] if isinstance(g, dict)}
    for i, name in enumerate(seq(scoring.get("critical_gates"), TASK, "scoring.critical_gates")):
        if str(name) not in known:
            ctx.note(
                TASK,
                f"scoring.critical_gates[{i}]",
                str(name),
                "no such gate in grading/gold.yaml; nothing imported",
            )
    if scoring.get("primary") is not None:
        ctx.note(
            TASK,
            "scoring.primary",
            f"primary metric {scoring['primary']}",
            "duplexbench scores Workflow Success (TS, PV, AC, AV) for every item",
        )


def _judged_from(item: WorkflowItem, artifact_id: str, name: str) -> list[str]:
    """The facts an assessment field is judged from: those linked to fields of the same
    topic (`leadership.*` for `leadership.status`), else to the artifact, else all."""
    topic = name.split(".", maxsplit=1)[0]
    linked = [f for f in item.user.facts if (f.field or "").startswith(f"{artifact_id}.")]
    same = [f for f in linked if (f.field or "").partition(".")[2].split(".")[0] == topic]
    return [f.id for f in (same or linked or item.user.facts)]


def note_unsourced(ctx: Ctx, item: WorkflowItem) -> dict[str, str]:
    """Graded gold values that no fact, document or record holds (an agent's judgment):
    noted, and returned as `judged:` provenance (key `artifact.field`)."""
    judged: dict[str, str] = {}
    texts = [d.text.casefold() for d in item.knowledge]
    records = [v for rs in item.database.values() for r in rs for v in r.values()]
    for artifact in item.artifacts:
        for fld in artifact.fields:
            if not fld.graded:
                continue
            spec = fld.grader_spec()
            held = [f.value for f in item.user.facts] + records
            if any(values_match(spec, v, fld.gold) for v in held) or any(
                str(fld.gold).casefold() in t for t in texts
            ):
                continue
            ctx.note(
                GOLD,
                f"artifact_expectations.{artifact.id}.{fld.name}",
                f"gold {fld.gold!r} of {artifact.id}.{fld.name}",
                "no fact, document or record of the package holds it (the agent's judgment); "
                "recorded as `judged:` provenance from the facts on the same topic",
            )
            facts = _judged_from(item, artifact.id, fld.name)
            judged[f"{artifact.id}.{fld.name}"] = "judged:" + ",".join(facts)
    return judged
