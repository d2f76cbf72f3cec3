"""Fitting the semantic matcher: thresholds come from held-out decisions."""

from __future__ import annotations

import numpy as np

from duplexbench.suites.observer_fit import Example, held_out_decisions, thresholds
from duplexbench.users._observer.embedder import DIM
from duplexbench.users._observer.semantic import FEATURES


def test_the_threshold_is_the_lowest_with_at_most_one_percent_wrong() -> None:
    right = [(0, 0.95, 0)] * 99
    wrong = [(1, 0.9, 0), (1, 0.8, 0), (1, 0.7, 0)]
    accept, pair = thresholds(right + wrong)
    assert accept == 0.81  # from 0.80 (0.8 included) two wrong answers of 102 pass
    assert pair == 0.96
    assert thresholds(right)[0] == 0.3


def _example(label: int, group: int, rng: np.random.Generator) -> Example:
    feats = rng.normal(0.0, 0.1, (3, len(FEATURES)))
    feats[label, 0] += 1.0  # the first feature points at the gold slot
    return Example(feats, np.zeros((3, DIM)), label, group)


def test_every_example_is_decided_by_a_model_that_did_not_see_its_entry() -> None:
    rng = np.random.default_rng(0)
    data = [_example(i % 3, i // 2, rng) for i in range(60)]
    decisions = held_out_decisions(data)
    assert [label for _, _, label in decisions] == [ex.label for ex in data]
    assert sum(top == label for top, _, label in decisions) >= 55
