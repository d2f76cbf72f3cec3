"""Comparing workflow runs across conditions.

Per-task Workflow Success (Pass@1 of each item over its repetitions) retained
from one condition to the next in the order given, and paired permutation
tests between every pair (per-task differences, 100,000 permutations,
Holm-Bonferroni); the same for per-task Artifact Field Accuracy under `afa`
(when every condition graded fields); plus the τ-Voice interaction panel of
each audio condition side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from duplexbench.campaign._model import Runs
from duplexbench.scoring import (
    PERMUTATIONS,
    EpisodeScore,
    compare_conditions,
    per_task_afa,
    per_task_success,
)

INTERACTION_KEYS = (
    "response_latency",
    "response_rate",
    "yield_latency",
    "yield_rate",
    "agent_interruption_rate",
    "selectivity_backchannel",
    "selectivity_vocal_tic",
    "selectivity_non_directed",
)


def _workflow_scores(runs: Runs, name: str) -> list[EpisodeScore]:
    return [s for s in runs[name][1] if isinstance(s, EpisodeScore)]


def comparison(runs: Runs, order: Sequence[str], seed: int) -> dict[str, Any]:
    """The comparison block from each condition's (summary, episode scores).

    When no task has a valid episode under every condition (e.g. one condition
    ended in errors only), the block says so in `not_compared` and holds no
    tests: the run still finishes and writes its summaries.
    """
    per_task = {name: per_task_success(_workflow_scores(runs, name)) for name in order}
    block: dict[str, Any]
    try:
        block = compare_conditions(per_task, order, PERMUTATIONS, seed) | {"metric": "pass_at_1"}
    except ValueError as exc:
        block = {"order": list(order), "metric": "pass_at_1", "not_compared": str(exc)}
        block |= {"tasks": 0, "conditions": {}, "retention": [], "tests": []}
    afa = {name: per_task_afa(_workflow_scores(runs, name)) for name in order}
    if "not_compared" not in block and all(afa.values()):
        block["afa"] = compare_conditions(afa, order, PERMUTATIONS, seed) | {"metric": "afa"}
    panel = {}
    for name in order:
        interaction = runs[name][0].interaction
        if interaction is not None:
            metrics = interaction.model_dump(mode="json")
            panel[name] = {k: metrics[k] for k in INTERACTION_KEYS}
    block["interaction"] = panel
    return block
