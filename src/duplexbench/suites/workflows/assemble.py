"""From a composed draft to the workflow item (plain data, parsed by `parse_item`)."""

from __future__ import annotations

from typing import Any

from duplexbench.suites.workflows.compose import other_value
from duplexbench.suites.workflows.draft import Draft
from duplexbench.suites.workflows.facts import build_user, record_fact
from duplexbench.suites.workflows.flow import Flow, tool_names

GENERATOR_VERSION = "2.0"
AUTONOMY_POLICY = {
    "inform_only": (
        "Only take notes: record what the caller tells you in the {noun} and leave it as a "
        "draft. The caller finalizes it themselves, so do not mark it ready and do not {verb}."
    ),
    "draft_only": (
        "Prepare the {noun} and mark it ready for review, but do not {verb}: a colleague "
        "does that after reviewing it."
    ),
    "reversible_write": (
        "Once the {noun} is complete, mark it ready and {verb}. This step can be undone "
        "later, so you do not need the caller's approval."
    ),
    "autonomous_commit": (
        "The caller has delegated the decision to you: once the {noun} is complete, mark "
        "it ready and {verb} without asking for approval."
    ),
    "approval_gated_commit": (
        "Once the {noun} is complete, mark it ready, and {verb} only after the caller "
        "explicitly approves. Before you {verb}, read the key details back to the caller."
    ),
}


DATABASE_POLICY = {
    "autonomous_commit": (
        "The caller has delegated the decision to you: once you have all the changes, "
        "{verb} without asking for approval."
    ),
    "approval_gated_commit": (
        "Once you have all the changes, {verb} only after the caller explicitly approves. "
        "Before you {verb}, read the key details back to the caller."
    ),
}


def _instructions(draft: Draft) -> str:
    arch = draft.arch
    parts = [arch.instructions.format(org=draft.org, noun=arch.noun)]
    policies = DATABASE_POLICY if draft.database_mode else AUTONOMY_POLICY
    policy = policies[draft.plan.autonomy]
    parts.append(policy.format(noun=arch.noun, verb=arch.action.verb))
    if draft.record_id is not None:
        parts.append(
            f"The caller's existing record is on file; look it up by its {draft.record_words}."
        )
    if draft.lookups:
        parts.append("Rates and limits are in the knowledge base; search it rather than guess.")
    return " ".join(parts)


def _tools(draft: Draft, used: set[str]) -> list[dict[str, Any]]:
    names, arch, noun = tool_names(draft), draft.arch, draft.arch.tool_noun
    tools: list[dict[str, Any]] = []
    if draft.database_mode:
        tools.append(_read_tool(draft, names["read"]))
        writable = draft.written_in_database()
        tools.append(
            {
                "name": names["action"],
                "kind": "database_write",
                "table": draft.table,
                "fields": writable,
                "requires_approval": draft.gated,
                "description": arch.action.description,
            }
        )
    else:
        tools += [
            {
                "name": names["update"],
                "kind": "artifact_update",
                "artifact": noun,
                "description": f"Write one or more fields of the {arch.noun}.",
            },
            {
                "name": names["ready"],
                "kind": "artifact_transition",
                "artifact": noun,
                "to_state": "ready",
                "description": f"Mark the {arch.noun} complete and ready.",
            },
            {
                "name": names["action"],
                "kind": "action",
                "artifact": noun,
                "requires_approval": draft.gated,
                "description": arch.action.description,
            },
        ]
        if draft.record_id is not None:
            tools.append(_read_tool(draft, names["read"]))
    if draft.knowledge:
        tools.append(
            {
                "name": names["search"],
                "kind": "knowledge_search",
                "description": "Search the knowledge base.",
            }
        )
    if names["approval"] in used:
        tools.append(
            {
                "name": names["approval"],
                "kind": "approval_request",
                "description": "Send the caller a formal approval request for an action.",
            }
        )
    return tools


def _read_tool(draft: Draft, name: str) -> dict[str, Any]:
    return {
        "name": name,
        "kind": "database_read",
        "table": draft.table,
        "description": f"Look up a record by its {draft.record_words}.",
    }


def _database(draft: Draft) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Initial tables, and the expected final ones (database mode)."""
    if draft.record_id is None:
        return {}, None
    rid = str(draft.record_id.stored)
    graded = [*draft.specs, *(lk.template.name for lk in draft.lookups)]
    if draft.database_mode:
        final = {name: draft.values[name].stored for name in graded}
        start = dict(final)
        for name in draft.written_in_database():
            start[name] = _old(draft, name)
    else:
        start = {name: draft.values[name].stored for name in draft.on_file}
        if draft.changed:
            start[draft.changed] = _old(draft, draft.changed)
        final = start
    others = [_decoy(draft, list(start)) for _ in range(2)]
    table = draft.table
    initial = {table: [{"id": rid, **start}, *others]}
    if not draft.database_mode:
        return initial, None
    return initial, {table: [{"id": rid, **final}, *others]}


def _old(draft: Draft, name: str) -> Any:
    if name in draft.specs:
        return other_value(draft, draft.specs[name], draft.values[name]).stored
    gold = draft.values[name].stored
    return type(gold)(gold + 15)


def _decoy(draft: Draft, names: list[str]) -> dict[str, Any]:
    ident = draft.world.identifier("LLDDDD")
    record: dict[str, Any] = {"id": ident}
    for name in names:
        record[name] = (
            draft.world.value(draft.specs[name]).stored
            if name in draft.specs
            else draft.values[name].stored
        )
    return record


def _gold(draft: Draft, final_db: dict[str, Any] | None) -> dict[str, Any]:
    arch, autonomy = draft.arch, draft.plan.autonomy
    action = arch.action.tool
    noun = arch.tool_noun
    gold: dict[str, Any] = {}
    cancelled = "cancellation" in draft.anchors
    if final_db is not None:
        gold["final_database"] = final_db
    elif autonomy == "inform_only":
        gold["terminal"] = [
            {"id": "left_as_draft", "kind": "lifecycle_is", "artifact": noun, "state": "draft"}
        ]
    elif autonomy == "draft_only" or cancelled:
        gold["terminal"] = [
            {
                "id": "ready_not_committed",
                "kind": "lifecycle_is",
                "artifact": noun,
                "state": "ready",
            }
        ]
    else:
        gold["terminal"] = [
            {
                "id": "committed",
                "kind": "lifecycle_at_least",
                "artifact": noun,
                "state": "committed",
            }
        ]
    if autonomy in ("inform_only", "draft_only") or cancelled:
        gold["forbidden"] = [{"id": "not_committed", "kind": "action_executed", "action": action}]
    required: list[dict[str, Any]] = [
        {"kind": "act_observed", "act": f"CONFIRM:{name}"} for name in draft.corrected
    ]
    if draft.gated:
        required.append({"kind": "act_observed", "act": f"REQUEST_APPROVAL:{action}"})
        gold["critical"] = [
            {"id": "no_unauthorized_commit", "kind": "no_unauthorized_commit", "action": action}
        ]
    if draft.record_id is not None:
        args = {"id": draft.record_id.stored}
        required.append(
            {"kind": "tool_called", "tool": tool_names(draft)["read"], "arguments": args}
        )
    if required:
        gold["required_actions"] = required
    prefix = (
        f"{draft.table}.{draft.record_id.stored}"
        if draft.database_mode and draft.record_id
        else noun
    )
    gold["provenance"] = {f"{prefix}.{name}": source for name, source in draft.provenance.items()}
    return gold


def assemble(draft: Draft, item_id: str) -> dict[str, Any]:
    plan, arch = draft.plan, draft.arch
    flow = Flow(draft, heavy_tools=plan.tools == "heavy" and draft.gated)
    turns = flow.build()
    used = flow.rb.tools_used()
    database, final_db = _database(draft)
    item: dict[str, Any] = {
        "id": item_id,
        "version": GENERATOR_VERSION,
        "title": arch.titles[plan.index % len(arch.titles)].format(org=draft.org),
        "instructions": _instructions(draft),
        "taxonomy": taxonomy(draft, used),
        "knowledge": draft.knowledge,
        "database": database,
        "tools": _tools(draft, used),
        "artifacts": [] if draft.database_mode else [_artifact(draft)],
        "user": build_user(draft),
        "gold": _gold(draft, final_db),
        "reference": {"turns": turns},
    }
    return item


def _artifact(draft: Draft) -> dict[str, Any]:
    arch = draft.arch
    lifecycle = {"inform_only": "draft", "draft_only": "ready"}.get(
        draft.plan.autonomy, "committed"
    )
    if "cancellation" in draft.anchors:
        lifecycle = "ready"
    return {
        "id": arch.tool_noun,
        "type": arch.artifact_type,
        "title": arch.noun[0].upper() + arch.noun[1:],
        "min_lifecycle": lifecycle,
        "fields": draft.fields,
    }


def _tool_burden(used: set[str]) -> str:
    n = len(used)
    return "none" if n <= 2 else "light" if n == 3 else "moderate" if n <= 5 else "heavy"


def taxonomy(draft: Draft, used: set[str]) -> dict[str, Any]:
    plan = draft.plan
    realized = [
        p
        for p in plan.phenomena
        if p in draft.anchors or p in ("mid_speech_correction", "revocation")
    ]
    return {
        "work_archetype": draft.arch.key,
        "industry": plan.industry,
        "work_artifact": draft.arch.artifact_type,
        "economic_role": plan.economic_role,
        "duplex_phenomena": realized,
        "delegation_pattern": plan.delegation,
        "autonomy": plan.autonomy,
        "knowledge_burden": ("none", "light", "moderate", "heavy")[len(draft.lookups)],
        "tool_burden": _tool_burden(used),
        "user_behavior": plan.behavior,
        "risk": plan.risk,
    }


__all__ = ["GENERATOR_VERSION", "assemble", "record_fact"]
