"""One formatter for rates and intervals (CLI tables, HTML report, charts)."""

from __future__ import annotations

from typing import Any

import pytest

from duplexbench.report._numbers import interval, percent


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.125, "12.5%"), (1, "100.0%"), (0.0, "0.0%"), (None, "n/a"), (True, "n/a"), ("x", "n/a")],
)
def test_percent(value: Any, text: str) -> None:
    assert percent(value) == text


def test_percent_digits_and_missing_marker() -> None:
    assert percent(0.4567, 0, missing="–") == "46%"
    assert percent(None, 0, missing="–") == "–"


@pytest.mark.parametrize(
    ("ci", "text"),
    [
        ([0.1, 0.25], "[10.0, 25.0]"),
        ((0.0, 1.0), "[0.0, 100.0]"),
        (None, ""),
        ([0.1, None], ""),
        ([0.1], ""),
    ],
)
def test_interval(ci: Any, text: str) -> None:
    assert interval(ci) == text
