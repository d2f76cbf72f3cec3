"""An episode folder's score, for either family: compute it, read it back, or make an error."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from duplexbench.campaign._family import Item, Judge, Score, family_of, get_family
from duplexbench.campaign._rundir import write_model
from duplexbench.items import WorkflowItem
from duplexbench.scoring import (
    TRACE_PROBLEMS,
    EpisodeScore,
    FieldJudge,
    header_problem,
    score_episode,
    tampered_score,
)
from duplexbench.trace import TraceError, read_events

__all__ = ["TRACE_PROBLEMS", "Score", "error_of", "read_score", "score_folder", "score_trace"]


def score_trace(
    item: WorkflowItem,
    folder: Path,
    judge: FieldJudge | None,
    repetition: int,
    write: bool = True,
    *,
    checksum: str | None = None,
    exempt: bool = False,
) -> EpisodeScore:
    """Score the episode in `folder` from its `events.jsonl`; write `result.json`.

    Episode files are written atomically, so a trace whose header names another
    item or repetition than its folder, or another item checksum than `checksum`
    (the one campaign.json records), or that cannot be read or scored, was changed
    after the run: it is a tampered, failed episode saying so, counted in every
    rate and never left out (docs/security.md).
    """
    try:
        events = read_events(folder / "events.jsonl")
        problem = header_problem(events, item.id, repetition, checksum)
        if problem is not None:
            score = tampered_score(item, repetition, problem, check="trace matches its episode")
        else:
            score = score_episode(item, events, judge, exempt=exempt)
    except TraceError as exc:
        score = tampered_score(item, repetition, f"unreadable trace: {exc}", check="trace reads")
    except Exception as exc:  # a readable trace the scorer cannot make sense of (damaged)
        message = f"unscorable trace: {type(exc).__name__}: {exc}"
        score = tampered_score(item, repetition, message, check="trace scores")
    if write and folder.exists():
        write_model(folder / "result.json", score)
    return score


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
