"""Comparing conditions: paired permutation test, Holm–Bonferroni, retention.

docs/metrics.md, "Comparing conditions" (after τ-Voice). Each task has one score per
condition (e.g. its
Pass@1 averaged over repetitions); two conditions are compared on the tasks they
share through the per-task differences d_i = b_i - a_i, statistic mean(d).

Under the null the sign of each d_i is exchangeable, so the reference
distribution is that of mean(s_i * d_i) over random signs s_i = ±1:

- exact, when 2**n <= `permutations`: all 2**n sign vectors are enumerated
  (the observed one among them) and p = count / 2**n, with no +1 correction;
- Monte Carlo otherwise: `permutations` random sign vectors, seeded, and
  p = (count + 1) / (permutations + 1), which is never 0.

count = #{|perm| >= |obs| - tol}, two-sided; tol = 1e-12 (scaled by max |d_i|
when that exceeds 1) so that ties lost to rounding still count. Several
comparisons are corrected with Holm–Bonferroni (step-down). Condition means
carry a task-level percentile bootstrap interval (10,000 resamples, seeded).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any

import numpy as np

from duplexbench.scoring._reliability import RESAMPLES

PERMUTATIONS = 100_000
ALPHA = 0.05
_CHUNK_CELLS = 1 << 20  # sign/resample matrix cells per chunk: ~8 MB of float64


@dataclass(frozen=True)
class PermutationResult:
    """One paired comparison; `difference` = mean_b - mean_a.

    `permutations` is the number of sign vectors evaluated: 2**n_tasks when
    `exact`, else the requested number of random ones.
    """

    mean_a: float
    mean_b: float
    difference: float
    p_value: float
    n_tasks: int
    permutations: int
    exact: bool


def _as_scores(values: Sequence[float], name: str) -> np.ndarray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a flat sequence of per-task scores")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}: per-task scores must be finite (NaN or inf found)")
    return arr


def _chunks(total: int, width: int) -> Iterator[tuple[int, int]]:
    """[start, stop) row ranges of at most ~_CHUNK_CELLS cells each."""
    rows = max(1, _CHUNK_CELLS // max(1, width))
    for start in range(0, total, rows):
        yield start, min(total, start + rows)


def _count_extreme(d: np.ndarray, exact: bool, permutations: int, seed: int) -> tuple[int, int]:
    """(count of sign vectors with |sum(s*d)| >= |sum(d)| - tol, number evaluated)."""
    n = d.size
    total = float(d.sum())
    scale = max(1.0, float(np.abs(d).max()))
    threshold = abs(total) - 1e-12 * scale * n  # on sums: n * the tolerance on means
    shifts = np.arange(n, dtype=np.int64)
    rng = np.random.default_rng(seed)
    evaluated = 2**n if exact else permutations
    count = 0
    for start, stop in _chunks(evaluated, n):
        if exact:
            codes = np.arange(start, stop, dtype=np.int64)[:, None]
            plus = ((codes >> shifts) & 1).astype(np.float64)
        else:
            plus = rng.integers(0, 2, size=(stop - start, n), dtype=np.int8).astype(np.float64)
        sums = 2.0 * (plus @ d) - total  # sum of s_i d_i with s_i = +1 where plus, else -1
        count += int(np.count_nonzero(np.abs(sums) >= threshold))
    return count, evaluated


def paired_permutation_test(
    a: Sequence[float], b: Sequence[float], permutations: int = PERMUTATIONS, seed: int = 0
) -> PermutationResult:
    """Two-sided paired sign-flip test of mean(b - a) = 0 over tasks (a[i], b[i])."""
    xa, xb = _as_scores(a, "a"), _as_scores(b, "b")
    if xa.size != xb.size:
        raise ValueError(f"a and b must pair up task by task: {xa.size} != {xb.size} scores")
    if xa.size < 1:
        raise ValueError("a paired permutation test needs at least 1 task")
    if permutations < 1:
        raise ValueError(f"permutations must be >= 1, got {permutations}")
    d = xb - xa
    n = int(d.size)
    exact = n < 63 and 2**n <= permutations
    count, evaluated = _count_extreme(d, exact, permutations, seed)
    p = count / evaluated if exact else (count + 1) / (permutations + 1)
    return PermutationResult(
        mean_a=float(xa.mean()),
        mean_b=float(xb.mean()),
        difference=float(d.mean()),
        p_value=min(1.0, p),
        n_tasks=n,
        permutations=evaluated,
        exact=exact,
    )


def holm_bonferroni(p_values: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values, in input order: the i-th smallest p
    (0-based) is multiplied by (m - i), made monotone non-decreasing along the
    sorted order and capped at 1."""
    ps = [float(p) for p in p_values]
    for p in ps:
        if math.isnan(p) or not 0.0 <= p <= 1.0:
            raise ValueError(f"p-values must lie in [0, 1], got {p}")
    m = len(ps)
    adjusted = [0.0] * m
    running = 0.0
    for rank, idx in enumerate(sorted(range(m), key=lambda i: ps[i])):
        running = max(running, min(1.0, (m - rank) * ps[idx]))
        adjusted[idx] = running
    return adjusted


def bootstrap_mean_ci(
    values: Sequence[float], resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float]:
    """95% percentile bootstrap interval of the mean, tasks resampled with replacement."""
    x = _as_scores(values, "values")
    if x.size < 1:
        raise ValueError("a bootstrap interval needs at least 1 task")
    if resamples < 1:
        raise ValueError(f"resamples must be >= 1, got {resamples}")
    rng = np.random.default_rng(seed)
    means = np.empty(resamples, dtype=np.float64)
    for start, stop in _chunks(resamples, x.size):
        idx = rng.integers(0, x.size, size=(stop - start, x.size))
        means[start:stop] = x[idx].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(lo), float(hi)


def _sig(p: float) -> float:
    """Six significant digits: small p-values keep their precision."""
    return float(f"{p:.6g}")


def _common_scores(
    per_task: Mapping[str, Mapping[str, float]], order: Sequence[str]
) -> tuple[list[str], int]:
    """Tasks scored under every condition in `order` (sorted), and how many were dropped."""
    if not order:
        raise ValueError("order must name at least one condition")
    if len(set(order)) != len(order):
        raise ValueError(f"order repeats a condition: {list(order)}")
    unknown = [c for c in order if c not in per_task]
    if unknown:
        raise ValueError(f"unknown condition(s) in order: {unknown}; known: {sorted(per_task)}")
    sets = [set(per_task[c]) for c in order]
    common = set.intersection(*sets)
    if not common:
        raise ValueError(f"no task is scored under every condition of {list(order)}")
    return sorted(common), len(set.union(*sets)) - len(common)


def compare_conditions(
    per_task: Mapping[str, Mapping[str, float]],
    order: Sequence[str],
    permutations: int = PERMUTATIONS,
    seed: int = 0,
    *,
    resamples: int = RESAMPLES,
) -> dict[str, Any]:
    """JSON-safe comparison of conditions; per_task[condition][task_id] = task score.

    Only tasks present under every condition of `order` are used (`dropped`
    counts the others). Retention is given for consecutive conditions of
    `order`; tests for every pair (a before b in `order`), Holm across them.
    The same seed serves every test and every bootstrap.
    """
    tasks, dropped = _common_scores(per_task, order)
    arrays = {c: _as_scores([per_task[c][t] for t in tasks], f"condition {c!r}") for c in order}
    scores = {c: [float(x) for x in v] for c, v in arrays.items()}
    means = {c: float(v.mean()) for c, v in arrays.items()}
    conditions = {
        c: {
            "mean": round(means[c], 6),
            "ci95": [round(x, 6) for x in bootstrap_mean_ci(v, resamples, seed)],
        }
        for c, v in scores.items()
    }
    retention = [
        {
            "from": a,
            "to": b,
            "ratio": None if means[a] == 0 else round(means[b] / means[a], 6),
        }
        for a, b in pairwise(order)
    ]
    pairs = list(combinations(order, 2))
    results = [paired_permutation_test(scores[a], scores[b], permutations, seed) for a, b in pairs]
    holm = holm_bonferroni([r.p_value for r in results])
    tests = [
        {
            "a": a,
            "b": b,
            "difference": round(r.difference, 6),
            "p_value": _sig(r.p_value),
            "p_holm": _sig(ph),
            "significant": ph < ALPHA,
            "exact": r.exact,
        }
        for (a, b), r, ph in zip(pairs, results, holm, strict=True)
    ]
    return {
        "order": list(order),
        "tasks": len(tasks),
        "dropped": dropped,
        "conditions": conditions,
        "retention": retention,
        "tests": tests,
        "permutations": permutations,
        "seed": seed,
        "bootstrap": {"resamples": resamples, "seed": seed, "unit": "task"},
    }
