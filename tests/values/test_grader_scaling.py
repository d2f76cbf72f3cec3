"""Every grader scales linearly with the value's length: a value ten times longer takes
about ten times as long, never a hundred (quadratic) or a thousand (cubic). Bug: splitting
a list value on "and" was cubic, so 1,000 "and"-joined words took 29 s to grade and a
model stuck in a repetition loop would have stalled scoring. The ratio is tested, not a
wall time; `benchmarks/grader_sizes.py` reports the seconds for 1 MB values."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from duplexbench.items import GraderSpec
from duplexbench.values import grade
from duplexbench.values._graders import registered_graders

WORDS = ("alpha", "Rock", "roll", "42", "3.5", "March", "17th", "and", "@", "example.com")
SHAPES: dict[str, Callable[[int], str]] = {
    "words": lambda n: " ".join(WORDS[i % len(WORDS)] for i in range(n)),
    "and-joined": lambda n: " and ".join(WORDS[i % 3] + str(i) for i in range(n)),
    "commas": lambda n: ", ".join(WORDS[i % len(WORDS)] for i in range(n)),
}
GOLD: dict[str, tuple[object, dict[str, object]]] = {
    "enum": ("roll", {"values": ["rock", "roll"]}),
    "numeric_tolerance": (42, {}),
    "interval_overlap": ("10:00-11:00", {}),
    "date": ("2026-03-17", {}),
    "phone": ("555-289-3411", {}),
    "address": ("182 Elm Court", {}),
    "ordered_list": (["rock and roll", "alpha"], {}),
}
"""A gold (and options) each grader accepts; set graders and text graders use the default."""
DEFAULT_GOLD: tuple[object, dict[str, object]] = (["rock and roll", "alpha", "roll"], {})


def seconds(spec: GraderSpec, value: str, gold: object) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        grade(spec, value, gold)
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize("grader", sorted(registered_graders()))
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_ten_times_the_value_costs_about_ten_times_the_time(grader: str, shape: str) -> None:
    gold, options = GOLD.get(grader, DEFAULT_GOLD)
    if grader in {"exact", "casefold_exact", "semantic"}:
        gold = "rock and roll"
    spec = GraderSpec(name=grader, options=options)
    small, large = SHAPES[shape](50), SHAPES[shape](500)
    base = max(seconds(spec, small, gold), 1e-4)  # below that, timer noise dominates
    assert seconds(spec, large, gold) < 40 * base, (grader, shape)  # cubic: 1000x
