"""APEX-Voice taxonomy labels -> duplexbench's closed vocabularies (items/_taxonomy.py).

Each dimension has a table of APEX labels (normalized: upper case, `_`-joined)
and keywords. A label found in the table maps silently; a label matched only by
a keyword, a tier number or the fallback maps to the closest value and leaves
an Unmapped note, so no value is ever replaced silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from duplexbench.items import TAXONOMY_DIMENSIONS
from duplexbench.suites._apex_voice.common import (
    TASK,
    TAXONOMY,
    USER_STATE,
    Ctx,
    label,
    leftover,
)
from duplexbench.suites._apex_voice.taxonomy_tables import (
    ARCHETYPE_KEYWORDS,
    ARCHETYPES,
    ARTIFACT_KEYWORDS,
    ARTIFACTS,
    AUTONOMY_KEYWORDS,
    AUTONOMY_TIERS,
    AUTONOMY_TIERS_TOP,
    BEHAVIOR_KEYWORDS,
    BURDEN_KEYWORDS,
    BURDEN_TIERS,
    DELEGATION,
    INDUSTRIES,
    INDUSTRY_KEYWORDS,
    PHENOMENA,
    RISK_KEYWORDS,
    RISK_TIERS,
    ROLE_KEYWORDS,
    ROLES,
    Table,
)


def _keyword(key: str, keywords: Table) -> str | None:
    return next((value for word, value in keywords.items() if word in key), None)


def _tier(key: str, tiers: tuple[str, ...], top: str | None = None) -> str | None:
    match = re.match(r"^[A-Z](\d+)(_|$)", key)
    if match is None:
        return None
    number = int(match.group(1))
    if number < len(tiers):
        return tiers[number]
    return top or tiers[-1]


@dataclass(frozen=True)
class Dim:
    """How one dimension maps: exact table, keywords, tier numbers, fallback."""

    name: str
    fallback: str
    table: Table = field(default_factory=dict)
    keywords: Table = field(default_factory=dict)
    tiers: tuple[str, ...] = ()
    top: str | None = None


ARCHETYPE = Dim("archetype", "form_completion", ARCHETYPES, ARCHETYPE_KEYWORDS)
INDUSTRY = Dim("industry", "horizontal_enterprise", INDUSTRIES, INDUSTRY_KEYWORDS)
ARTIFACT = Dim("artifact", "structured_form", ARTIFACTS, ARTIFACT_KEYWORDS)
ROLE = Dim("economic role", "operations", ROLES, ROLE_KEYWORDS)
AUTONOMY = Dim("autonomy", "draft_only", {}, AUTONOMY_KEYWORDS, AUTONOMY_TIERS, AUTONOMY_TIERS_TOP)
KNOWLEDGE = Dim("knowledge burden", "none", {}, BURDEN_KEYWORDS, BURDEN_TIERS)
TOOL_BURDEN = Dim("tool burden", "light", {}, BURDEN_KEYWORDS, BURDEN_TIERS)
BEHAVIOR = Dim("user profile", "cooperative", {}, BEHAVIOR_KEYWORDS)
RISK = Dim("risk tier", "consequential", {}, RISK_KEYWORDS, RISK_TIERS)
DELEGATE = Dim("delegation pattern", "complete", DELEGATION)


def map_label(ctx: Ctx, dim: Dim, raw: Any, where: tuple[str, str]) -> str:
    """Map one label; anything but an exact table hit is noted."""
    file, path = where
    if raw is None:
        ctx.note(file, path, dim.name, f"not given; used {dim.fallback!r}")
        return dim.fallback
    key = label(raw)
    if key in dim.table:
        return dim.table[key]
    for how, value in (
        ("keyword", _keyword(key, dim.keywords)),
        ("tier number", _tier(key, dim.tiers, dim.top) if dim.tiers else None),
    ):
        if value is not None:
            if how == "tier number" or label(value) not in key:
                reason = f"no exact counterpart; closest by {how}: {value!r}"
                ctx.note(file, path, f"{dim.name} {raw}", reason)
            return value
    ctx.note(file, path, f"{dim.name} {raw}", f"unknown label; closest: {dim.fallback!r}")
    return dim.fallback


def _pick(ctx: Ctx, places: list[tuple[str, str]]) -> tuple[Any, tuple[str, str]]:
    """The first value found at `file:dotted.path`, with where it was found."""
    for file, dotted in places:
        node: Any = ctx.doc(file)
        for part in dotted.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if node not in (None, "", []):
            return node, (file, dotted)
    return None, places[0]


PLACES: dict[str, tuple[Dim, list[tuple[str, str]]]] = {
    "work_archetype": (
        ARCHETYPE,
        [(TAXONOMY, "professional_work.primary_archetype"), (TASK, "archetype")],
    ),
    "industry": (INDUSTRY, [(TAXONOMY, "professional_work.industry_setting"), (TASK, "industry")]),
    "work_artifact": (ARTIFACT, [(TAXONOMY, "workspace.primary_artifact")]),
    "economic_role": (
        ROLE,
        [(TAXONOMY, "professional_work.economic_function"), (TASK, "profession")],
    ),
    "autonomy": (AUTONOMY, [(TASK, "autonomy.level"), (TAXONOMY, "workspace.autonomy_level")]),
    "knowledge_burden": (KNOWLEDGE, [(TAXONOMY, "knowledge.burden"), (TASK, "knowledge_load")]),
    "tool_burden": (TOOL_BURDEN, [(TAXONOMY, "knowledge.tool_burden"), (TASK, "tool_load")]),
    "user_behavior": (BEHAVIOR, [(TAXONOMY, "interaction.user_profile"), (USER_STATE, "profile")]),
    "risk": (RISK, [(TAXONOMY, "risk_tier"), (TASK, "risk_tier")]),
}


def map_taxonomy(ctx: Ctx) -> dict[str, Any]:
    """Our eleven taxonomy dimensions from taxonomy.yaml (preferred) and task.yaml."""
    out: dict[str, Any] = {}
    for dimension, (dim, places) in PLACES.items():
        raw, where = _pick(ctx, places)
        out[dimension] = map_label(ctx, dim, raw, where)
    out["duplex_phenomena"] = _phenomena(ctx)
    out["delegation_pattern"] = _delegation(ctx)
    return {key: out[key] for key in TAXONOMY_DIMENSIONS}


def map_behavior(ctx: Ctx, raw: Any, file: str, path: str) -> str:
    return map_label(ctx, BEHAVIOR, raw, (file, path))


def _phenomena(ctx: Ctx) -> list[str]:
    raw, (file, path) = _pick(ctx, [(TAXONOMY, "interaction.duplex_events")])
    out: list[str] = []
    for i, value in enumerate(raw if isinstance(raw, list) else []):
        key = label(value)
        mapped = PHENOMENA.get(key)
        if mapped is None:
            ctx.note(file, f"{path}[{i}]", f"duplex event {value}", "no counterpart; dropped")
        elif mapped not in out:
            out.append(mapped)
    return out


def _delegation(ctx: Ctx) -> str:
    raw, (file, path) = _pick(
        ctx,
        [
            (TAXONOMY, "interaction.delegation_patterns"),
            (USER_STATE, "delegation.patterns"),
        ],
    )
    values = raw if isinstance(raw, list) else [raw] if raw is not None else []
    if not values:
        ctx.note(file, path, "delegation patterns", "not given; used 'complete'")
        return "complete"
    first = map_label(ctx, DELEGATE, values[0], (file, f"{path}[0]"))
    if len(values) > 1:
        rest = ", ".join(str(v) for v in values[1:])
        ctx.note(
            file, path, f"delegation patterns {rest}", "an item has one pattern; kept the first"
        )
    return first


TAXONOMY_USED = {
    "task_id",
    "professional_work",
    "interaction",
    "workspace",
    "knowledge",
    "risk_tier",
}


def note_taxonomy_leftovers(ctx: Ctx) -> None:
    """Taxonomy and task keys with no dimension in duplexbench."""
    doc = ctx.doc(TAXONOMY)
    if not isinstance(doc, dict):
        ctx.note(TAXONOMY, "", "taxonomy", "missing; dimensions read from task.yaml where given")
        return
    leftover(ctx, doc, TAXONOMY, "", TAXONOMY_USED, why="no taxonomy dimension in duplexbench")
    pw = doc.get("professional_work")
    if isinstance(pw, dict) and pw.get("secondary_archetypes"):
        ctx.note(
            TAXONOMY,
            "professional_work.secondary_archetypes",
            f"secondary archetypes {pw['secondary_archetypes']}",
            "an item has one work archetype",
        )
    inter = doc.get("interaction")
    if isinstance(inter, dict):
        used = {"delegation_patterns", "user_profile", "duplex_events"}
        leftover(
            ctx, inter, TAXONOMY, "interaction", used, why="no taxonomy dimension in duplexbench"
        )
    ws = doc.get("workspace")
    if isinstance(ws, dict):
        if ws.get("secondary_artifacts"):
            ctx.note(
                TAXONOMY,
                "workspace.secondary_artifacts",
                f"secondary artifacts {ws['secondary_artifacts']}",
                "an item has one work artifact type",
            )
        used = {"primary_artifact", "secondary_artifacts", "autonomy_level"}
        leftover(ctx, ws, TAXONOMY, "workspace", used, why="no taxonomy dimension in duplexbench")
