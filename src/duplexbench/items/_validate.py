"""Cross-reference checks that a schema alone cannot express.

`check_item` returns every problem as (path inside the item, message); an
empty list means the item is consistent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from pydantic import ValidationError

from duplexbench.items._artifacts import ArtifactField
from duplexbench.items._plans import (
    PLACEHOLDER,
    SLOT_PLACEHOLDERS,
    all_plan_ids,
    needs_explicit_realization,
    plan_facts,
)
from duplexbench.items._predicates import (
    ActionExecuted,
    ActObserved,
    CommitAuthorized,
    EvidenceRetrieved,
    FieldEquals,
    LifecycleAtLeast,
    LifecycleIs,
    NoUnauthorizedCommit,
    Predicate,
    RecordMatches,
    ToolCalled,
)
from duplexbench.items._tool_schema import tool_parameters
from duplexbench.items._tools import (
    ActionTool,
    ArtifactUpdateTool,
    DatabaseReadTool,
    DatabaseWriteTool,
    action_type,
    is_gated,
)
from duplexbench.items._workflow import WorkflowItem

Found = list[tuple[str, str]]
MIN_VARIANTS, MAX_VARIANTS = 2, 5


def check_item(item: WorkflowItem) -> Found:
    """All cross-reference problems of an item."""
    found: Found = []
    _check_unique(item, found)
    _check_database(item, found)
    _check_tools(item, found)
    _check_artifacts(item, found)
    _check_facts(item, found)
    _check_events(item, found)
    _check_realizations(item, found)
    _check_gold(item, found)
    _check_reference(item, found)
    return found


def _dupes(path: str, ids: Iterable[str], found: Found) -> None:
    for name, count in Counter(ids).items():
        if count > 1:
            found.append((path, f"duplicate id {name!r} ({count} times)"))


def _check_unique(item: WorkflowItem, found: Found) -> None:
    _dupes("tools", (t.name for t in item.tools), found)
    _dupes("artifacts", (a.id for a in item.artifacts), found)
    _dupes("knowledge", (d.id for d in item.knowledge), found)
    _dupes("user.facts", (f.id for f in item.user.facts), found)
    _dupes("user.events", (e.id for e in item.user.events), found)
    _dupes("user.approvals", (a.id for a in item.user.approvals), found)
    for i, artifact in enumerate(item.artifacts):
        _dupes(f"artifacts[{i}].fields", (f.name for f in artifact.fields), found)


def _check_database(item: WorkflowItem, found: Found) -> None:
    for table, records in item.database.items():
        for j, record in enumerate(records):
            if not isinstance(record.get("id"), str):
                found.append((f"database.{table}[{j}].id", "every record needs a string id"))
        _dupes(f"database.{table}", (str(r.get("id")) for r in records), found)


def _gated_actions(item: WorkflowItem) -> set[str]:
    return {a for t in item.tools if is_gated(t) and (a := action_type(t)) is not None}


def _check_tools(item: WorkflowItem, found: Found) -> None:
    artifact_ids = {a.id for a in item.artifacts}
    for i, tool in enumerate(item.tools):
        path = f"tools[{i}]"
        artifact = getattr(tool, "artifact", None)
        if artifact is not None and artifact not in artifact_ids:
            found.append((f"{path}.artifact", f"unknown artifact {artifact!r}"))
        if (
            isinstance(tool, DatabaseReadTool | DatabaseWriteTool)
            and tool.table not in item.database
        ):
            found.append((f"{path}.table", f"unknown table {tool.table!r}"))
        if isinstance(tool, ActionTool) and tool.parameters is not None:
            _check_action_parameters(path, tool, found)


def _check_action_parameters(path: str, tool: ActionTool, found: Found) -> None:
    params: dict[str, Any] = tool.parameters or {}
    try:
        Draft202012Validator.check_schema(params)
    except SchemaError as exc:
        found.append((f"{path}.parameters", f"not a valid JSON Schema: {exc.message}"))
        return
    if params.get("type") != "object":
        found.append((f"{path}.parameters.type", "tool parameters must be a JSON object schema"))
    props = params.get("properties", {})
    if tool.target_param is not None and tool.target_param not in props:
        found.append((f"{path}.target_param", f"{tool.target_param!r} is not a parameter"))


def _check_artifacts(item: WorkflowItem, found: Found) -> None:
    doc_ids = {d.id for d in item.knowledge}
    for i, artifact in enumerate(item.artifacts):
        for j, fld in enumerate(artifact.fields):
            _check_field(f"artifacts[{i}].fields[{j}]", fld, doc_ids, found)
        commits = [t for t in item.tools if isinstance(t, ActionTool) and t.artifact == artifact.id]
        if artifact.min_lifecycle == "committed" and not commits:
            found.append(
                (f"artifacts[{i}].min_lifecycle", "committed needs an action tool on this artifact")
            )
        updates = [t for t in item.tools if isinstance(t, ArtifactUpdateTool)]
        if not any(t.artifact == artifact.id for t in updates):
            found.append((f"artifacts[{i}]", "no artifact_update tool writes this artifact"))


def _check_field(path: str, fld: ArtifactField, doc_ids: set[str], found: Found) -> None:
    try:
        fld.grader_spec()
    except ValidationError as exc:
        message = str(exc.errors()[0]["msg"]).removeprefix("Value error, ")
        found.append((f"{path}.grader_options", message))
        return
    if fld.evidence is not None and fld.evidence not in doc_ids:
        found.append((f"{path}.evidence", f"unknown knowledge document {fld.evidence!r}"))
    if fld.grader == "enum" and fld.gold is not None:
        options = fld.grader_options.get("values")
        values = [str(v).casefold() for v in options] if isinstance(options, list) else []
        if str(fld.gold).casefold() not in values:
            found.append((f"{path}.gold", f"{fld.gold!r} is not one of the enum values"))
    if fld.required and fld.gold is None:
        found.append((f"{path}.gold", "a required field needs a gold value"))
    if _empty(fld.gold):
        found.append((f"{path}.gold", EMPTY_GOLD))


EMPTY_GOLD = "an empty gold value can never pass (an empty value scores 0); use null for no gold"


def _empty(value: object) -> bool:
    """An empty string (or only whitespace), list or mapping; null is no gold, not empty."""
    if isinstance(value, str):
        return not value.strip()
    return isinstance(value, list | dict) and not value


def _field_exists(item: WorkflowItem, ref: str) -> bool:
    artifact_id, _, name = ref.partition(".")
    artifact = item.artifact(artifact_id)
    return artifact is not None and artifact.field(name) is not None


def _check_facts(item: WorkflowItem, found: Found) -> None:
    user = item.user
    revealed_by_events = {f for e in user.events for f in e.reveals}
    for i, fact in enumerate(user.facts):
        path = f"user.facts[{i}]"
        if fact.field is not None and not _field_exists(item, fact.field):
            found.append((f"{path}.field", f"unknown artifact field {fact.field!r}"))
        if fact.supersedes is not None:
            if user.fact(fact.supersedes) is None:
                found.append((f"{path}.supersedes", f"unknown fact {fact.supersedes!r}"))
            elif user.slot_of(fact.id) == fact.id:
                found.append((f"{path}.supersedes", "the supersedes chain has a cycle"))
        if fact.reveal == "on_event" and fact.id not in revealed_by_events:
            found.append((f"{path}.reveal", "on_event fact is revealed by no event"))
        if fact.id in revealed_by_events and fact.reveal != "on_event":
            found.append((f"{path}.reveal", "a fact revealed by an event must be on_event"))


def _check_events(item: WorkflowItem, found: Found) -> None:
    user = item.user
    approval_ids = {a.id for a in user.approvals}
    plan_ids = set(all_plan_ids(user))
    for i, event in enumerate(user.events):
        path = f"user.events[{i}]"
        for k, fact_id in enumerate(event.reveals):
            if user.fact(fact_id) is None:
                found.append((f"{path}.reveals[{k}]", f"unknown fact {fact_id!r}"))
        if event.revokes is not None and event.revokes not in approval_ids:
            found.append((f"{path}.revokes", f"unknown approval {event.revokes!r}"))
        trig = event.trigger
        if trig.after_plan is not None and trig.after_plan not in plan_ids:
            found.append((f"{path}.trigger.after_plan", f"unknown plan {trig.after_plan!r}"))
        if trig.tool is not None and item.tool(trig.tool) is None:
            found.append((f"{path}.trigger.tool", f"unknown tool {trig.tool!r}"))
        if trig.field is not None and not _field_exists(item, trig.field):
            found.append((f"{path}.trigger.field", f"unknown artifact field {trig.field!r}"))
        if trig.approval is not None and trig.approval not in approval_ids:
            found.append((f"{path}.trigger.approval", f"unknown approval {trig.approval!r}"))
    _check_approvals(item, found)


def _check_approvals(item: WorkflowItem, found: Found) -> None:
    user = item.user
    gated = _gated_actions(item)
    event_ids = {e.id for e in user.events}
    for i, approval in enumerate(user.approvals):
        if approval.action not in gated:
            found.append(
                (f"user.approvals[{i}].action", f"{approval.action!r} is not a gated action")
            )
        for k, event_id in enumerate(approval.after):
            if event_id not in event_ids:
                found.append((f"user.approvals[{i}].after[{k}]", f"unknown event {event_id!r}"))
        for k, slot in enumerate(approval.readback):
            if user.fact(slot) is None or user.slot_of(slot) != slot:
                found.append(
                    (
                        f"user.approvals[{i}].readback[{k}]",
                        f"{slot!r} is not a slot (the first fact of a supersedes chain)",
                    )
                )


def _check_realizations(item: WorkflowItem, found: Found) -> None:
    user = item.user
    for plan_id, variants in user.realizations.items():
        path = f"user.realizations.{plan_id}"
        carried = plan_facts(user, plan_id)
        if carried is None:
            found.append((path, "not a plan id of this user (see docs/formats/workflow.md)"))
            continue
        if not MIN_VARIANTS <= len(variants) <= MAX_VARIANTS:
            found.append(
                (path, f"needs {MIN_VARIANTS}-{MAX_VARIANTS} variants, has {len(variants)}")
            )
        allowed = {*carried, *(["value", "slot"] if carried else [])}
        allowed |= set(SLOT_PLACEHOLDERS.get(plan_id, ()))
        for k, text in enumerate(variants):
            if not text.strip():
                found.append((f"{path}[{k}]", "empty variant"))
            for name in PLACEHOLDER.findall(text):
                if name not in allowed:
                    found.append(
                        (f"{path}[{k}]", f"placeholder {{{name}}} is not a fact this plan carries")
                    )
    for plan_id in all_plan_ids(user):
        if needs_explicit_realization(plan_id) and plan_id not in user.realizations:
            found.append(("user.realizations", f"missing variants for plan {plan_id!r}"))


def _check_gold(item: WorkflowItem, found: Found) -> None:
    gold = item.gold
    groups: list[tuple[str, list[Predicate]]] = [
        ("gold.terminal", gold.terminal),
        ("gold.required_actions", gold.required_actions),
        ("gold.forbidden", gold.forbidden),
        ("gold.critical", gold.critical),
    ]
    groups += [
        (f"gold.alternate_terminals[{i}]", s) for i, s in enumerate(gold.alternate_terminals)
    ]
    for path, preds in groups:
        for i, pred in enumerate(preds):
            problem = _predicate_problem(item, pred)
            if problem:
                found.append((f"{path}[{i}]", problem))
    doc_ids = {d.id for d in item.knowledge}
    for i, doc in enumerate(gold.required_evidence):
        if doc not in doc_ids:
            found.append((f"gold.required_evidence[{i}]", f"unknown knowledge document {doc!r}"))
    for table in gold.final_database or {}:
        if table not in item.database:
            found.append((f"gold.final_database.{table}", f"unknown table {table!r}"))
    if not gold.terminal and not gold.alternate_terminals and gold.final_database is None:
        found.append(("gold.terminal", "an item needs at least one terminal-state predicate"))


def _predicate_problem(item: WorkflowItem, pred: Predicate) -> str | None:
    actions = {a for t in item.tools if (a := action_type(t)) is not None}
    if isinstance(pred, LifecycleAtLeast | LifecycleIs) and item.artifact(pred.artifact) is None:
        return f"unknown artifact {pred.artifact!r}"
    if isinstance(pred, FieldEquals) and not _field_exists(item, f"{pred.artifact}.{pred.field}"):
        return f"unknown artifact field {pred.artifact}.{pred.field}"
    if isinstance(pred, FieldEquals) and (pred.value is None or _empty(pred.value)):
        return EMPTY_GOLD
    if isinstance(pred, RecordMatches) and pred.table not in item.database:
        return f"unknown table {pred.table!r}"
    if isinstance(pred, ActionExecuted | CommitAuthorized) and pred.action not in actions:
        return f"unknown action {pred.action!r}"
    if isinstance(pred, NoUnauthorizedCommit) and pred.action and pred.action not in actions:
        return f"unknown action {pred.action!r}"
    if isinstance(pred, ToolCalled) and item.tool(pred.tool) is None:
        return f"unknown tool {pred.tool!r}"
    if isinstance(pred, EvidenceRetrieved) and pred.document not in {d.id for d in item.knowledge}:
        return f"unknown knowledge document {pred.document!r}"
    if isinstance(pred, ActObserved):
        return _act_problem(item, pred.act)
    return None


def _act_problem(item: WorkflowItem, act: str) -> str | None:
    kind, _, ref = act.partition(":")
    if kind in ("ASK", "CONFIRM") and item.user.fact(ref) is None:
        return f"act {act!r} names no fact"
    if kind == "REQUEST_APPROVAL" and ref not in _gated_actions(item):
        return f"act {act!r} names no gated action"
    return None


def _check_reference(item: WorkflowItem, found: Found) -> None:
    for i, turn in enumerate(item.reference.turns):
        for j, call in enumerate(turn.tool_calls):
            path = f"reference.turns[{i}].tool_calls[{j}]"
            tool = item.tool(call.name)
            if tool is None:
                found.append((f"{path}.name", f"unknown tool {call.name!r}"))
                continue
            validator = Draft202012Validator(tool_parameters(item, tool))
            for err in validator.iter_errors(call.arguments):
                found.append((f"{path}.arguments", err.message))
