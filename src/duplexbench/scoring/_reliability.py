"""Reliability over repetitions: Pass@1, Pass@k, Reliable@k, with bootstrap intervals.

With N items and k runs each: Pass@1 is the mean Workflow Success over all
runs; Pass@k the share of items with at least one success; Reliable@k the
share of items whose every run succeeded. Runs with a harness error are
left out (an agent error is a failed run); an item with no valid run is left
out of item-level rates.
Confidence intervals: task-level percentile bootstrap (items resampled with
all their runs), 10,000 resamples, seeded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

RESAMPLES = 10_000


@dataclass(frozen=True)
class ItemRuns:
    """One item's valid runs: WS outcomes and (optionally) field counts."""

    outcomes: Sequence[int]
    fields_correct: int = 0
    fields_total: int = 0


@dataclass(frozen=True)
class Reliability:
    items: int
    runs: int
    pass_at_1: float | None
    pass_at_k: float | None
    reliable_at_k: float | None
    afa: float | None
    k_of_n: dict[int, int]
    ci95: dict[str, tuple[float, float] | None]


def _rates(
    succ: np.ndarray, runs: np.ndarray, correct: np.ndarray, total: np.ndarray
) -> dict[str, np.ndarray]:
    """Rates per resample; each array has one row per resample (or a single row)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return {
            "pass_at_1": succ.sum(axis=-1) / runs.sum(axis=-1),
            "pass_at_k": (succ > 0).mean(axis=-1),
            "reliable_at_k": (succ == runs).mean(axis=-1),
            "afa": correct.sum(axis=-1) / total.sum(axis=-1),
        }


def reliability(
    per_item: Mapping[str, ItemRuns], resamples: int = RESAMPLES, seed: int = 0
) -> Reliability:
    valid = {k: v for k, v in per_item.items() if len(v.outcomes) > 0}
    names = sorted(valid)
    succ = np.array([sum(valid[n].outcomes) for n in names], dtype=np.int64)
    runs = np.array([len(valid[n].outcomes) for n in names], dtype=np.int64)
    correct = np.array([valid[n].fields_correct for n in names], dtype=np.int64)
    total = np.array([valid[n].fields_total for n in names], dtype=np.int64)
    k_of_n: dict[int, int] = {}
    for s in succ.tolist():
        k_of_n[s] = k_of_n.get(s, 0) + 1
    if not names:
        empty: dict[str, tuple[float, float] | None] = dict.fromkeys(
            ("pass_at_1", "pass_at_k", "reliable_at_k", "afa")
        )
        return Reliability(0, 0, None, None, None, None, {}, empty)
    point = {k: float(v) for k, v in _rates(succ, runs, correct, total).items()}
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(names), size=(resamples, len(names)))
    boot = _rates(succ[idx], runs[idx], correct[idx], total[idx])
    ci: dict[str, tuple[float, float] | None] = {}
    for key, values in boot.items():
        finite = values[np.isfinite(values)]
        if finite.size == 0 or not np.isfinite(point[key]):
            ci[key] = None
        else:
            lo, hi = np.percentile(finite, [2.5, 97.5])
            ci[key] = (round(float(lo), 6), round(float(hi), 6))
    return Reliability(
        items=len(names),
        runs=int(runs.sum()),
        pass_at_1=point["pass_at_1"],
        pass_at_k=point["pass_at_k"],
        reliable_at_k=point["reliable_at_k"],
        afa=point["afa"] if total.sum() > 0 else None,
        k_of_n=dict(sorted(k_of_n.items())),
        ci95=ci,
    )
