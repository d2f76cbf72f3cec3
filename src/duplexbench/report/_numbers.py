"""How a rate and its interval are written, everywhere a number is shown (the CLI's tables,
the HTML report, its charts): one formatter, so a rate reads the same in each."""

from __future__ import annotations

from typing import Any

__all__ = ["interval", "percent"]


def percent(value: Any, digits: int = 1, missing: str = "n/a") -> str:
    """A rate in [0, 1] as a percentage (`0.125` -> `12.5%`); `missing` for anything that
    is not a number (None, a bool, text)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return missing
    return f"{100 * value:.{digits}f}%"


def interval(ci: Any, digits: int = 1) -> str:
    """A 95% interval of a rate as `[lo, hi]` in percent; "" when there is none."""
    if not isinstance(ci, list | tuple) or len(ci) != 2 or None in ci:
        return ""
    lo, hi = ci
    return f"[{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"
