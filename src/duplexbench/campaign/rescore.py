"""`duplexbench score`: recompute every score of a run directory from its traces."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duplexbench.campaign.rundir import (
    index_row,
    read_campaign,
    read_items,
    write_index,
    write_json,
)
from duplexbench.campaign.runner import make_judge, summarize
from duplexbench.campaign.scores import TRACE_PROBLEMS, score_trace
from duplexbench.campaign.spec import JudgeConfig
from duplexbench.campaign.store import rebuild_index
from duplexbench.campaign.trust import add_trust, check_snapshots, unknown_entries
from duplexbench.scoring.episode import EpisodeScore
from duplexbench.scoring.judge import FieldJudge


@dataclass(frozen=True)
class RescoreResult:
    summary: dict[str, Any]
    scores: list[EpisodeScore]
    problems: list[str]
    judge: FieldJudge | None


def rescore_run(
    run_dir: Path,
    judge: JudgeConfig | None = None,
    write: bool = True,
    allow_edited_items: bool = False,
) -> RescoreResult:
    """Score every episode of the run from `events.jsonl`; bad traces become errors.

    `judge` overrides the judge the run was made with; None keeps the run's. Item
    snapshots that differ from campaign.json's checksums raise `EditedItems` unless
    `allow_edited_items` (then the summary says so; `campaign/trust.py`).
    """
    spec = read_campaign(run_dir)
    if judge is not None:
        spec = spec.model_copy(update={"judge": judge})
    items = read_items(run_dir, spec)
    check = check_snapshots(spec, items, allow_edited_items)
    field_judge = make_judge(spec.judge, run_dir)
    scores, rows, problems = [], [], []
    for item_id, repetition, rel in spec.episodes():
        checksum = spec.item_checksums.get(item_id)
        folder = run_dir / rel
        score = score_trace(
            items[item_id], folder, field_judge, repetition, write, checksum=checksum
        )
        reason = score.error if score.status == "error" else score.agent_error
        if reason and reason.startswith(TRACE_PROBLEMS):
            problems.append(f"{rel}: {reason}")
        scores.append(score)
        rows.append(index_row(score, rel))
    summary = add_trust(summarize(spec, scores), spec, scores, check, unknown_entries(field_judge))
    if write:
        write_index(run_dir, rows)
        write_json(run_dir / "summary.json", summary)
        rebuild_index(run_dir)
    return RescoreResult(summary, scores, problems, field_judge)
