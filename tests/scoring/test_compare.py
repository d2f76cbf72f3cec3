"""Paired permutation test, Holm–Bonferroni and the condition comparison block."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

from duplexbench.scoring._compare import (
    bootstrap_mean_ci,
    compare_conditions,
    holm_bonferroni,
    paired_permutation_test,
)


def _brute_force_p(d: list[float]) -> float:
    """Exact two-sided p by listing every sign vector (the definition)."""
    obs = abs(sum(d) / len(d))
    signs = list(itertools.product((1, -1), repeat=len(d)))
    hits = sum(
        abs(sum(s * x for s, x in zip(sign, d, strict=True)) / len(d)) >= obs - 1e-12
        for sign in signs
    )
    return hits / len(signs)


def test_identical_conditions_give_p_one() -> None:
    scores = [0.2, 0.5, 1.0, 0.0, 0.7]
    exact = paired_permutation_test(scores, scores)
    assert exact.exact and exact.p_value == 1.0 and exact.difference == 0.0
    many = [float(x) for x in np.linspace(0, 1, 40)]
    mc = paired_permutation_test(many, many, permutations=2_000)
    assert not mc.exact and mc.p_value == 1.0


def test_exact_case_five_tasks_all_improve() -> None:
    r = paired_permutation_test([0.0] * 5, [1.0] * 5)
    assert r.exact and r.permutations == 32 and r.n_tasks == 5
    assert r.p_value == pytest.approx(2 / 32)  # count/2**n, no +1 under enumeration
    assert (r.mean_a, r.mean_b, r.difference) == (0.0, 1.0, 1.0)


def test_exact_matches_brute_force_and_direction_does_not_matter() -> None:
    a = [0.1, 0.9, 0.4, 0.4, 0.0, 1.0, 0.3]
    b = [0.6, 0.8, 0.9, 0.4, 0.5, 1.0, 0.2]
    r = paired_permutation_test(a, b)
    assert r.exact and r.permutations == 2**7
    assert r.p_value == pytest.approx(_brute_force_p([y - x for x, y in zip(a, b, strict=True)]))
    flipped = paired_permutation_test(b, a)
    assert flipped.p_value == r.p_value and flipped.difference == pytest.approx(-r.difference)


def test_switch_to_monte_carlo_above_permutations() -> None:
    rng = np.random.default_rng(5)
    a = rng.random(12).tolist()
    b = (np.array(a) + rng.normal(0.1, 0.3, 12)).tolist()
    exact = paired_permutation_test(a, b, permutations=2**12)
    mc = paired_permutation_test(a, b, permutations=2**12 - 1)
    assert exact.exact and not mc.exact and mc.permutations == 2**12 - 1
    assert mc.p_value == pytest.approx(exact.p_value, abs=0.03)


def test_large_consistent_effect_hits_the_floor() -> None:
    rng = np.random.default_rng(0)
    a = rng.random(120) * 0.5
    b = a + 0.1 + rng.random(120) * 0.2
    r = paired_permutation_test(a.tolist(), b.tolist())
    assert not r.exact and r.permutations == 100_000 and r.n_tasks == 120
    assert r.p_value == pytest.approx(1 / 100_001)


def test_seeded_and_reproducible() -> None:
    rng = np.random.default_rng(2)
    a = rng.random(30).tolist()
    b = (np.array(a) + rng.normal(0.05, 0.3, 30)).tolist()
    r1 = paired_permutation_test(a, b, permutations=5_000, seed=7)
    r2 = paired_permutation_test(a, b, permutations=5_000, seed=7)
    r3 = paired_permutation_test(a, b, permutations=5_000, seed=8)
    assert r1 == r2
    assert 0.0 < r1.p_value < 1.0 and r1.p_value != r3.p_value


def test_holm_textbook() -> None:
    adjusted = holm_bonferroni([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm_bonferroni([0.5, 0.4]) == pytest.approx([0.8, 0.8])  # monotone
    assert holm_bonferroni([0.9, 0.6, 0.7]) == [1.0, 1.0, 1.0]  # capped
    assert holm_bonferroni([]) == []
    assert holm_bonferroni([0.02]) == [0.02]
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        holm_bonferroni([0.1, math.nan])


def test_bootstrap_ci_brackets_mean_and_is_seeded() -> None:
    values = [0.0, 0.2, 0.5, 0.9, 1.0, 0.4]
    lo, hi = bootstrap_mean_ci(values, resamples=2_000, seed=1)
    assert 0.0 <= lo < float(np.mean(values)) < hi <= 1.0
    assert bootstrap_mean_ci(values, resamples=2_000, seed=1) == (lo, hi)
    assert bootstrap_mean_ci([0.3], resamples=100) == pytest.approx((0.3, 0.3))


PER_TASK = {
    "text": {"t1": 1.0, "t2": 1.0, "t3": 0.8, "t4": 0.6, "t5": 1.0, "t6": 0.9, "x": 1.0},
    "clean": {"t1": 0.8, "t2": 1.0, "t3": 0.6, "t4": 0.4, "t5": 0.8, "t6": 0.8},
    "noisy": {"t1": 0.4, "t2": 0.6, "t3": 0.2, "t4": 0.2, "t5": 0.6, "t6": 0.4, "y": 0.0},
}


def test_compare_conditions_block() -> None:
    out = compare_conditions(PER_TASK, ["text", "clean", "noisy"], resamples=1_000)
    assert json.loads(json.dumps(out)) == out  # JSON-safe
    assert out["order"] == ["text", "clean", "noisy"]
    assert out["tasks"] == 6 and out["dropped"] == 2  # "x" and "y" are not everywhere
    means = {c: v["mean"] for c, v in out["conditions"].items()}
    assert means == pytest.approx({"text": 0.883333, "clean": 0.733333, "noisy": 0.4})
    for v in out["conditions"].values():
        lo, hi = v["ci95"]
        assert lo <= v["mean"] <= hi
    assert [(r["from"], r["to"]) for r in out["retention"]] == [
        ("text", "clean"),
        ("clean", "noisy"),
    ]
    ratios = [r["ratio"] for r in out["retention"]]
    assert ratios == pytest.approx([0.733333 / 0.883333, 0.4 / 0.733333], abs=1e-5)
    pairs = [(t["a"], t["b"]) for t in out["tests"]]
    assert pairs == [("text", "clean"), ("text", "noisy"), ("clean", "noisy")]
    for t in out["tests"]:
        assert t["exact"] is True  # 6 tasks: 64 sign vectors enumerated
        assert t["p_holm"] >= t["p_value"]
        assert t["significant"] == (t["p_holm"] < 0.05)
    text_noisy = out["tests"][1]
    assert text_noisy["difference"] == pytest.approx(0.4 - 0.883333, abs=1e-6)
    assert text_noisy["p_value"] == pytest.approx(2 / 64)  # every task drops
    raw = [t["p_value"] for t in out["tests"]]
    assert [t["p_holm"] for t in out["tests"]] == pytest.approx(holm_bonferroni(raw), rel=1e-5)


def test_retention_ratio_none_when_baseline_is_zero() -> None:
    per_task = {"a": {"t1": 0.0, "t2": 0.0}, "b": {"t1": 0.5, "t2": 1.0}}
    out = compare_conditions(per_task, ["a", "b"], resamples=100)
    assert out["retention"] == [{"from": "a", "to": "b", "ratio": None}]
    single = compare_conditions(per_task, ["b"], resamples=100)
    assert single["tests"] == [] and single["retention"] == []


def test_errors() -> None:
    with pytest.raises(ValueError, match="pair up"):
        paired_permutation_test([0.1, 0.2], [0.3])
    with pytest.raises(ValueError, match="at least 1 task"):
        paired_permutation_test([], [])
    with pytest.raises(ValueError, match="NaN"):
        paired_permutation_test([0.1, math.nan], [0.3, 0.4])
    with pytest.raises(ValueError, match="permutations"):
        paired_permutation_test([0.1], [0.2], permutations=0)
    with pytest.raises(ValueError, match="unknown condition"):
        compare_conditions(PER_TASK, ["text", "phone"])
    with pytest.raises(ValueError, match="repeats"):
        compare_conditions(PER_TASK, ["text", "text"])
    with pytest.raises(ValueError, match="at least one condition"):
        compare_conditions(PER_TASK, [])
    with pytest.raises(ValueError, match="no task"):
        compare_conditions({"a": {"t1": 1.0}, "b": {"t2": 1.0}}, ["a", "b"])
    with pytest.raises(ValueError, match=r"'b'.*NaN"):
        compare_conditions({"a": {"t1": 1.0}, "b": {"t1": math.nan}}, ["a", "b"])
