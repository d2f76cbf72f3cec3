"""`duplexbench score`: recompute every score of a run directory from its traces."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duplexbench.campaign.rundir import read_campaign, read_items, write_index, write_json
from duplexbench.campaign.runner import index_row, make_judge, summarize
from duplexbench.campaign.scores import TRACE_PROBLEMS, score_trace
from duplexbench.campaign.spec import JudgeConfig
from duplexbench.campaign.store import rebuild_index
from duplexbench.scoring.episode import EpisodeScore
from duplexbench.scoring.judge import FieldJudge


@dataclass(frozen=True)
class RescoreResult:
    summary: dict[str, Any]
    scores: list[EpisodeScore]
    problems: list[str]
    judge: FieldJudge | None


def rescore_run(
    run_dir: Path, judge: JudgeConfig | None = None, write: bool = True
) -> RescoreResult:
    """Score every episode of the run from `events.jsonl`; bad traces become errors.

    `judge` overrides the judge the run was made with; None keeps the run's.
    """
    spec = read_campaign(run_dir)
    if judge is not None:
        spec = spec.model_copy(update={"judge": judge})
    items = read_items(run_dir, spec)
    field_judge = make_judge(spec.judge, run_dir)
    scores, rows, problems = [], [], []
    for item_id, repetition, rel in spec.episodes():
        score = score_trace(items[item_id], run_dir / rel, field_judge, repetition, write)
        if score.status == "error" and score.error and score.error.startswith(TRACE_PROBLEMS):
            problems.append(f"{rel}: {score.error}")
        scores.append(score)
        rows.append(index_row(score, rel))
    summary = summarize(spec, scores)
    if write:
        write_index(run_dir, rows)
        write_json(run_dir / "summary.json", summary)
        rebuild_index(run_dir)
    return RescoreResult(summary, scores, problems, field_judge)
