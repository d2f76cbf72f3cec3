"""Suite composition along every taxonomy dimension (APEX-Voice Figure 3 / Table 6)."""

from __future__ import annotations

from typing import Any, get_args

from duplexbench.items import TAXONOMY_DIMENSIONS, Taxonomy, WorkflowItem


def labels(dimension: str) -> tuple[str, ...]:
    """Every label of a dimension (list-valued dimensions: the labels of one element)."""
    annotation = Taxonomy.model_fields[dimension].annotation
    args = get_args(annotation)
    if args and not all(isinstance(a, str) for a in args):
        args = get_args(args[0])  # list[Literal[...]]
    return tuple(str(a) for a in args)


def suite_stats(items: list[WorkflowItem]) -> dict[str, Any]:
    """`items`, `taxonomy` (dimension -> label -> count, every label listed), `coverage`
    (dimension -> labels never realized) and the graded-field counts."""
    taxonomy: dict[str, dict[str, int]] = {}
    for dim in TAXONOMY_DIMENSIONS:
        counts = dict.fromkeys(labels(dim), 0)
        for item in items:
            value = getattr(item.taxonomy, dim)
            for label in value if isinstance(value, list) else [value]:
                counts[label] = counts.get(label, 0) + 1
        taxonomy[dim] = counts
    fields = [_graded_count(item) for item in items]
    return {
        "items": len(items),
        "taxonomy": taxonomy,
        "missing": {d: [k for k, n in c.items() if n == 0] for d, c in taxonomy.items()},
        "graded_fields": {
            "min": min(fields, default=0),
            "max": max(fields, default=0),
            "mean": round(sum(fields) / len(fields), 1) if fields else 0,
        },
    }


def _graded_count(item: WorkflowItem) -> int:
    artifact = sum(1 for a in item.artifacts for f in a.fields if f.graded)
    database = sum(
        len(record) - 1
        for records in (item.gold.final_database or {}).values()
        for record in records[:1]
    )
    return artifact + database
