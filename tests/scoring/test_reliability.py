"""Pass@1, Pass@k, Reliable@k, k-of-n and the task-level bootstrap."""

from __future__ import annotations

import pytest

from duplexbench.scoring._reliability import ItemRuns, reliability

RUNS = {
    "a": ItemRuns([1, 1, 1], 9, 9),
    "b": ItemRuns([0, 1, 0], 5, 9),
    "c": ItemRuns([0, 0, 0], 1, 9),
}


def test_definitions() -> None:
    r = reliability(RUNS, resamples=200)
    assert r.items == 3 and r.runs == 9
    assert r.pass_at_1 == pytest.approx(4 / 9)
    assert r.pass_at_k == pytest.approx(2 / 3)
    assert r.reliable_at_k == pytest.approx(1 / 3)
    assert r.afa == pytest.approx(15 / 27)
    assert r.k_of_n == {0: 1, 1: 1, 3: 1}


def test_bootstrap_is_seeded_and_brackets_the_estimate() -> None:
    r1 = reliability(RUNS, seed=3)
    r2 = reliability(RUNS, seed=3)
    assert r1.ci95 == r2.ci95
    for key in ("pass_at_1", "pass_at_k", "reliable_at_k", "afa"):
        ci = r1.ci95[key]
        assert ci is not None
        lo, hi = ci
        value = getattr(r1, key)
        assert 0.0 <= lo <= value <= hi <= 1.0
        assert lo < hi  # three different items: resampling moves the estimate


def test_items_resampled_with_their_runs() -> None:
    # Two items, all-or-nothing: any resample gives pass@1 in {0, 1/2, 1}, never 1/3.
    r = reliability({"x": ItemRuns([1, 1, 1]), "y": ItemRuns([0, 0, 0])}, seed=0)
    assert r.ci95["pass_at_1"] == (0.0, 1.0)


def test_errored_runs_are_left_out() -> None:
    r = reliability({"a": ItemRuns([1, 1]), "gone": ItemRuns([])}, resamples=50)
    assert r.items == 1 and r.pass_at_1 == 1.0 and r.reliable_at_k == 1.0
    assert r.afa is None


def test_no_valid_runs() -> None:
    r = reliability({})
    assert r.pass_at_1 is None and r.ci95["pass_at_1"] is None and r.k_of_n == {}
