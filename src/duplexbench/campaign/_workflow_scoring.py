"""Scoring a workflow episode's folder (the workflow family's `score`)."""

from __future__ import annotations

from pathlib import Path

from duplexbench.campaign._rundir import write_model
from duplexbench.items import WorkflowItem
from duplexbench.scoring import (
    EpisodeScore,
    FieldJudge,
    header_problem,
    score_episode,
    tampered_score,
)
from duplexbench.trace import TraceError, read_events


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
