"""APEX-Voice workspace + gold expectations -> duplexbench artifacts, knowledge and database."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duplexbench.items import GRADER_OPTIONS
from duplexbench.suites._apex_voice.common import (
    GOLD,
    WORKSPACE,
    ApexImportError,
    Ctx,
    ident,
    label,
    leftover,
    lifecycle,
    mapping,
    seq,
    text,
)

FIELD_TYPES = {
    "STRING": "string",
    "STR": "string",
    "TEXT": "string",
    "NUMBER": "number",
    "FLOAT": "number",
    "DECIMAL": "number",
    "CURRENCY": "number",
    "INTEGER": "integer",
    "INT": "integer",
    "BOOLEAN": "boolean",
    "BOOL": "boolean",
    "DATE": "date",
    "PHONE": "phone",
    "ADDRESS": "address",
    "ENUM": "enum",
    "ARRAY": "list",
    "LIST": "list",
    "INTERVAL": "interval",
    "RANGE": "interval",
}
APEX_GRADERS = {
    "exact": "exact",
    "casefold_exact": "casefold_exact",
    "normalized_phone": "phone",
    "normalized_date": "date",
    "normalized_address": "address",
    "enum": "enum",
    "numeric_tolerance": "numeric_tolerance",
    "set_exact": "set_exact",
    "set_f1": "set_f1",
    "set_precision": "set_precision",
    "set_recall": "set_recall",
    "ordered_list": "ordered_list",
    "interval_overlap": "interval_overlap",
    "semantic": "semantic",
    "claim_atoms": "semantic",
}
"""The 15 field graders of APEX-Voice (its `FieldGrader` enum) and the duplexbench grader
doing the same job. claim_atoms has no counterpart (its claim lists are not imported):
semantic is the closest, and the report notes it."""
GRADER_ALIASES = {"numeric": "numeric_tolerance", "number": "numeric_tolerance"}
"""Other spellings seen in packages."""
GRADER_CLOSEST = {"claim_atoms": "semantic", "llm_judge": "semantic", "fuzzy": "semantic"}
"""Graders duplexbench does not have, and the one used instead (noted in the report)."""
OPTION_KEYS = {
    "numeric_tolerance": ("tolerance", "relative"),
    "date": ("day_first",),
    "interval_overlap": ("mode", "threshold"),
    "set_exact": ("item_grader",),
    "set_precision": ("item_grader",),
    "set_recall": ("item_grader",),
    "set_f1": ("item_grader",),
    "ordered_list": ("item_grader",),
}
FIELD_KEYS = {"name", "field", "type", "grader", "required", "enum", "values", "description"}
FIELD_KEYS |= {"aliases", "expected"} | {k for keys in OPTION_KEYS.values() for k in keys}


@dataclass
class WorkParts:
    artifacts: list[dict[str, Any]] = field(default_factory=list)
    prefill: dict[str, dict[str, Any]] = field(default_factory=dict)
    knowledge: list[dict[str, Any]] = field(default_factory=list)
    database: dict[str, Any] = field(default_factory=dict)
    tools: list[dict[str, Any]] = field(default_factory=list)
    commit_effects: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    ready_tools: dict[str, str] = field(default_factory=dict)
    approval_tools: dict[str, str] = field(default_factory=dict)
    gated: set[str] = field(default_factory=set)
    actions: set[str] = field(default_factory=set)

    def field_refs(self) -> dict[str, list[str]]:
        """Field name -> every `artifact.field` of that name."""
        refs: dict[str, list[str]] = {}
        for art in self.artifacts:
            for f in art["fields"]:
                refs.setdefault(f["name"], []).append(f"{art['id']}.{f['name']}")
        return refs

    def tool(self, name: str) -> dict[str, Any] | None:
        return next((t for t in self.tools if t["name"] == name), None)


# ---------------------------------------------------------------- artifacts


def _grader(ctx: Ctx, raw: Any, where: tuple[str, str]) -> str:
    name = str(raw or "casefold_exact").lower()
    name = GRADER_ALIASES.get(name, name)
    if name not in GRADER_CLOSEST and (mapped := APEX_GRADERS.get(name, name)) in GRADER_OPTIONS:
        return mapped
    closest = GRADER_CLOSEST.get(name, "casefold_exact")
    ctx.note(where[0], where[1], f"grader {raw}", f"no such grader in duplexbench; used {closest}")
    return closest


def _field(ctx: Ctx, spec: dict[str, Any], expect: dict[str, Any] | None, where: str) -> Any:
    name = ident(spec.get("name") or spec.get("field"), WORKSPACE, f"{where}.name")
    grader = _grader(ctx, spec.get("grader"), (WORKSPACE, f"{where}.grader"))
    if expect is not None and expect.get("grader") and expect["grader"] != spec.get("grader"):
        grader = _grader(ctx, expect["grader"], (GOLD, f"artifact_expectations.{name}"))
        ctx.note(
            GOLD,
            f"artifact_expectations.{name}.grader",
            f"grader {expect['grader']}",
            f"differs from the schema's {spec.get('grader')!r}; the expectation's is used",
        )
    raw_type = label(spec.get("type") or "string")
    ftype = FIELD_TYPES.get(raw_type)
    if ftype is None:
        ftype = "list" if raw_type == "OBJECT_LIST" else "string"
        ctx.note(
            WORKSPACE,
            f"{where}.type",
            f"type {spec.get('type')}",
            f"no such field type; used {ftype}",
        )
    if grader == "enum":
        ftype = "enum"
    merged = {**spec, **(expect or {})}
    options: dict[str, Any] = {}
    for key in OPTION_KEYS.get(grader, ()):
        if merged.get(key) is not None:
            options[key] = merged[key]
    if grader == "enum":
        values = merged.get("enum") or merged.get("values")
        options["values"] = [str(v) for v in seq(values, WORKSPACE, f"{where}.enum")]
    out: dict[str, Any] = {"name": name, "type": ftype}
    if spec.get("description"):
        out["description"] = str(spec["description"])
    gold, required = _gold(ctx, expect, bool(merged.get("required", False)), name, where)
    out |= {"required": required, "grader": grader}
    if options:
        out["grader_options"] = options
    out["gold"] = gold
    if spec.get("aliases"):
        out["aliases"] = [str(a) for a in spec["aliases"]]
    if spec.get("dependents"):
        ctx.note(
            WORKSPACE,
            f"{where}.dependents",
            f"dependents of {name}",
            "field dependencies are not modeled; each field is graded on its own",
        )
    leftover(
        ctx, spec, WORKSPACE, where, FIELD_KEYS | {"dependents"}, why="no counterpart on a field"
    )
    return out


def _gold(
    ctx: Ctx, expect: dict[str, Any] | None, required: bool, name: str, where: str
) -> tuple[Any, bool]:
    """The field's gold value and whether it is required. An empty expected value ("",
    [] or {}) is imported as no gold: in duplexbench an empty value never passes, and
    `suite validate` refuses an empty gold."""
    gold = expect.get("expected") if expect is not None else None
    if isinstance(gold, str | list | dict) and not (
        gold.strip() if isinstance(gold, str) else gold
    ):
        ctx.note(
            GOLD,
            f"artifact_expectations.{name}.expected",
            f"empty expected value of {name}",
            "an empty value never passes in duplexbench; imported as optional and ungraded",
        )
        return None, False
    if required and gold is None:
        ctx.note(
            WORKSPACE,
            where,
            f"field {name}",
            "required but no expected value; imported as optional and ungraded",
        )
        required = False
    return gold, required


def _expectations(ctx: Ctx) -> dict[str, dict[str, Any]]:
    gold = mapping(ctx.doc(GOLD), GOLD, "")
    out: dict[str, dict[str, Any]] = {}
    for i, value in enumerate(
        seq(gold.get("artifact_expectations"), GOLD, "artifact_expectations")
    ):
        e = mapping(value, GOLD, f"artifact_expectations[{i}]")
        art = ident(e.get("artifact_id"), GOLD, f"artifact_expectations[{i}].artifact_id")
        out[art] = e
        used = {"artifact_id", "artifact_type", "lifecycle_min", "fields", "must_not_be_stale"}
        leftover(ctx, e, GOLD, f"artifact_expectations[{i}]", used, why="no counterpart in an item")
    return out


def build_artifacts(ctx: Ctx, parts: WorkParts, has_commit: set[str]) -> None:
    ws = mapping(ctx.doc(WORKSPACE), WORKSPACE, "")
    expectations = _expectations(ctx)
    arts = mapping(ws.get("artifacts"), WORKSPACE, "artifacts")
    for art_id, value in arts.items():
        where = f"artifacts.{art_id}"
        aid = ident(art_id, WORKSPACE, where)
        raw = mapping(value, WORKSPACE, where)
        schema = mapping(raw.get("schema"), WORKSPACE, f"{where}.schema")
        expect = expectations.pop(aid, {})
        by_field = {
            str(f.get("field")): f
            for f in seq(expect.get("fields"), GOLD, aid)
            if isinstance(f, dict)
        }
        fields = []
        for k, item in enumerate(seq(schema.get("fields"), WORKSPACE, f"{where}.schema.fields")):
            spec = mapping(item, WORKSPACE, f"{where}.schema.fields[{k}]")
            fields.append(
                _field(
                    ctx,
                    spec,
                    by_field.pop(str(spec.get("name")), None),
                    f"{where}.schema.fields[{k}]",
                )
            )
        for name, e in by_field.items():
            ctx.note(
                GOLD,
                f"artifact_expectations.{aid}.{name}",
                f"field {name}",
                "expected but not in the artifact schema; added as a string field",
            )
            fields.append(
                _field(
                    ctx, {"name": name, "type": "string", **e}, e, f"{where}.schema.fields[+{name}]"
                )
            )
        if not fields:
            raise ApexImportError(WORKSPACE, "an artifact needs at least one field", where)
        art_type = str(raw.get("artifact_type") or schema.get("artifact_type") or "artifact")
        artifact: dict[str, Any] = {"id": aid, "type": art_type.lower(), "fields": fields}
        if expect.get("lifecycle_min") is not None:
            artifact["min_lifecycle"] = lifecycle(
                ctx, expect["lifecycle_min"], GOLD, f"artifact_expectations.{aid}.lifecycle_min"
            )
        else:
            artifact["min_lifecycle"] = "committed" if aid in has_commit else "draft"
            ctx.note(
                GOLD,
                "artifact_expectations",
                f"lifecycle of {aid}",
                f"no lifecycle_min; required {artifact['min_lifecycle']}",
            )
        if expect.get("must_not_be_stale"):
            ctx.note(
                GOLD,
                f"artifact_expectations.{aid}.must_not_be_stale",
                f"must_not_be_stale {expect['must_not_be_stale']}",
                "covered by the stale-fact rule (every field, through the facts' field links)",
            )
        _prefill(ctx, parts, aid, raw, where)
        for k, state in enumerate(seq(schema.get("lifecycle"), WORKSPACE, f"{where}.lifecycle")):
            lifecycle(ctx, state, WORKSPACE, f"{where}.schema.lifecycle[{k}]")
        parts.artifacts.append(artifact)
    for aid in expectations:
        raise ApexImportError(
            GOLD, f"expectation for unknown artifact {aid!r}", "artifact_expectations"
        )
    _knowledge_and_database(ctx, ws, parts)


def _prefill(ctx: Ctx, parts: WorkParts, aid: str, raw: dict[str, Any], where: str) -> None:
    initial = mapping(raw.get("fields"), WORKSPACE, f"{where}.fields", {})
    if initial:
        parts.prefill[aid] = dict(initial)
        ctx.note(
            WORKSPACE,
            f"{where}.fields",
            f"initial values of {aid} {sorted(initial)}",
            "artifacts start empty in duplexbench: the values are stated in the "
            "instructions and the oracle writes them in its first turn",
        )
    start = label(raw.get("lifecycle") or "EMPTY")
    if start != "EMPTY":
        ctx.note(
            WORKSPACE,
            f"{where}.lifecycle",
            f"initial lifecycle {start}",
            "artifacts start empty in duplexbench",
        )


def _knowledge_and_database(ctx: Ctx, ws: dict[str, Any], parts: WorkParts) -> None:
    for i, value in enumerate(seq(ws.get("knowledge"), WORKSPACE, "knowledge")):
        doc = mapping(value, WORKSPACE, f"knowledge[{i}]")
        parts.knowledge.append(
            {
                "id": ident(doc.get("id"), WORKSPACE, f"knowledge[{i}].id"),
                "title": text(
                    doc.get("title") or doc.get("id"), WORKSPACE, f"knowledge[{i}].title"
                ),
                "text": text(doc.get("text"), WORKSPACE, f"knowledge[{i}].text"),
            }
        )
    db = mapping(ws.get("database"), WORKSPACE, "database", {})
    for table, records in db.items():
        rows = [
            mapping(r, WORKSPACE, f"database.{table}[{j}]")
            for j, r in enumerate(seq(records, WORKSPACE, f"database.{table}"))
        ]
        parts.database[ident(table, WORKSPACE, f"database.{table}")] = rows
    leftover(
        ctx,
        ws,
        WORKSPACE,
        "",
        {"artifacts", "knowledge", "database"},
        why="no counterpart in an item",
    )
