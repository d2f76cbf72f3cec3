"""Realization: deterministic per seeds, different across repetition seeds."""

from __future__ import annotations

from duplexbench.users._realization import Realizer
from support.fixtures import fixture_item


def texts(rep_seed: int, sim_seed: int = 0) -> list[str]:
    item = fixture_item("form-expense-correction")
    realizer = Realizer(item.id, item.user, sim_seed, rep_seed)
    plans = ["open", "answer:total_amount", "event:fix_total", "confirm", "ack", "end"]
    return [realizer.realize(p, ["total_amount_v2"] if "fix" in p else []).text for p in plans]


def test_same_seeds_same_words() -> None:
    assert texts(7) == texts(7)


def test_repetition_seeds_can_change_the_words() -> None:
    variants = {tuple(texts(seed)) for seed in range(12)}
    assert len(variants) > 1


def test_placeholders_use_spoken_forms() -> None:
    item = fixture_item("form-expense-correction")
    realizer = Realizer(item.id, item.user, 0, 0)
    out = realizer.realize("event:fix_total", ["total_amount_v2"])
    assert "200 dollars" in out.text and "{" not in out.text
    assert out.variant_id.startswith("event:fix_total#v")


def test_repeated_plan_advances_occurrence() -> None:
    item = fixture_item("form-expense-correction")
    realizer = Realizer(item.id, item.user, 0, 0)
    seen = {realizer.realize("ack", []).text for _ in range(20)}
    assert len(seen) > 1
