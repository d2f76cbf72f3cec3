"""An episode folder's score, for either family: compute it, read it back, or make an error."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from duplexbench.campaign._families import get_family
from duplexbench.campaign._family import family_of
from duplexbench.campaign._model import Item, Judge, Score
from duplexbench.scoring import TRACE_PROBLEMS

__all__ = ["TRACE_PROBLEMS", "Score", "error_of", "read_score", "score_folder"]


def score_folder(
    item: Item, folder: Path, judge: Judge | None, repetition: int, *, exempt: bool = False
) -> Score:
    """Score the trace in `folder` and write its `result.json` (the item's family scores it)."""
    return get_family(family_of(item)).score(item, folder, judge, repetition, exempt=exempt)


def error_of(item: Item, repetition: int, message: str) -> Score:
    return get_family(family_of(item)).error_score(item, repetition, message)


def read_score(folder: Path, family: str) -> Score | None:
    """The score of a complete episode (its `result.json`), or None."""
    path = folder / "result.json"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    try:
        return get_family(family).score_type.model_validate_json(text)
    except (ValidationError, ValueError):
        return None  # unreadable: the episode is redone
