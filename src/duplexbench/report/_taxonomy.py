"""Taxonomy slices: Pass@1 and AFA per value of each dimension of the workflow items.

Dimensions are read from the item snapshots in `RUN_DIR/items/`: the eleven
APEX-Voice taxonomy dimensions plus two derived from the item itself,
`approval_gating` (any tool needs an approval) and `field_count` (graded
artifact fields, bucketed). An item with several `duplex_phenomena` counts
under each; an item without a snapshot is `(unknown)`.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from duplexbench.campaign import WorkflowRow
from duplexbench.report._load import RunData
from duplexbench.report._workflow import rnd, valid

DIMENSIONS: tuple[str, ...] = (
    "work_archetype",
    "work_artifact",
    "industry",
    "user_behavior",
    "autonomy",
    "knowledge_burden",
    "tool_burden",
    "approval_gating",
    "field_count",
    "risk",
    "economic_role",
    "delegation_pattern",
    "duplex_phenomena",
)
UNKNOWN = "(unknown)"
FIELD_BUCKETS: tuple[tuple[int, str], ...] = ((0, "0"), (5, "1-5"), (10, "6-10"), (20, "11-20"))


def field_bucket(count: int) -> str:
    for upper, label in FIELD_BUCKETS:
        if count <= upper:
            return label
    return f"{FIELD_BUCKETS[-1][0] + 1}+"


def values_of(info: dict[str, Any], dimension: str) -> list[str]:
    """The labels an item has along one dimension (several for list dimensions)."""
    if dimension == "approval_gating":
        gated = info.get("approval_gated")
        return [UNKNOWN if gated is None else ("gated" if gated else "not gated")]
    if dimension == "field_count":
        count = info.get("graded_fields")
        return [UNKNOWN if count is None else field_bucket(int(count))]
    taxonomy = info.get("taxonomy")
    if not isinstance(taxonomy, dict) or dimension not in taxonomy:
        return [UNKNOWN]
    value = taxonomy[dimension]
    if isinstance(value, list):
        return [str(v) for v in value] or ["(none)"]
    return [str(value)]


def taxonomy_slices(run: RunData) -> list[dict[str, Any]]:
    """One row per (dimension, value) with items, valid runs, Pass@1, AFA and fields graded."""
    acc: dict[tuple[str, str], dict[str, Any]] = {}
    per_item: dict[str, list[WorkflowRow]] = defaultdict(list)
    for e in valid(run):
        per_item[e.item_id].append(e)
    for item_id, runs in sorted(per_item.items()):
        info = run.items.get(item_id, {})
        for dimension in DIMENSIONS:
            for value in values_of(info, dimension):
                a = acc.setdefault(
                    (dimension, value),
                    {"items": 0, "runs": 0, "successes": 0, "correct": 0, "total": 0},
                )
                a["items"] += 1
                a["runs"] += len(runs)
                a["successes"] += sum(1 for r in runs if r.ws == 1)
                a["correct"] += sum(r.afa_correct or 0 for r in runs)
                a["total"] += sum(r.afa_total or 0 for r in runs)
    rows = []
    for dimension in DIMENSIONS:
        for (dim, value), a in sorted(acc.items()):
            if dim != dimension:
                continue
            rows.append(
                {
                    "dimension": dimension,
                    "value": value,
                    **run.ident(),
                    "items": a["items"],
                    "runs": a["runs"],
                    "pass_at_1": rnd(a["successes"] / a["runs"]) if a["runs"] else None,
                    "afa": rnd(a["correct"] / a["total"]) if a["total"] else None,
                    "fields": a["total"],
                }
            )
    return rows
