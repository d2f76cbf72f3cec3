"""`duplexbench score`: recompute every score of a run directory from its traces."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from duplexbench.campaign._families import get_family
from duplexbench.campaign._model import Score
from duplexbench.campaign._rundir import index_row, read_campaign, write_index, write_summary
from duplexbench.campaign._scores import TRACE_PROBLEMS
from duplexbench.campaign._spec import JudgeConfig
from duplexbench.campaign._store import rebuild_index
from duplexbench.campaign._trust import add_trust, cache_file, check_snapshots, unknown_entries
from duplexbench.scoring import FieldJudge, RunSummary


@dataclass(frozen=True)
class RescoreResult:
    summary: RunSummary
    scores: list[Score]
    problems: list[str]
    judge: FieldJudge | None
    """The field judge of a workflow run (for its statistics)."""


def rescore_run(
    run_dir: Path,
    judge: JudgeConfig | None = None,
    write: bool = True,
    allow_edited_items: bool = False,
) -> RescoreResult:
    """Score every episode of the run (either family) from `events.jsonl`; bad traces
    become errors.

    `judge` overrides the judge the run was made with; None keeps the run's. Item
    snapshots that differ from campaign.json's checksums raise `EditedItems` unless
    `allow_edited_items` (then the summary says so; `campaign/_trust.py`).
    """
    spec = read_campaign(run_dir)
    if judge is not None:
        spec = spec.model_copy(update={"judge": judge})
    family = get_family(spec.family)
    items = family.read_items(run_dir, spec)
    check = check_snapshots(spec, items, allow_edited_items)
    judge_ = family.make_judge(spec.judge, run_dir)
    scores: list[Score] = []
    rows, problems = [], []
    exempt = spec.provenance_exempt is not None
    for item_id, repetition, rel in spec.episodes():
        checksum = spec.item_checksums.get(item_id)
        folder = run_dir / rel
        score = family.score(
            items[item_id], folder, judge_, repetition, write, checksum=checksum, exempt=exempt
        )
        reason = score.error if score.status == "error" else score.agent_error
        if reason and reason.startswith(TRACE_PROBLEMS):
            problems.append(f"{rel}: {reason}")
        scores.append(score)
        rows.append(index_row(score, rel))
    summary = add_trust(
        family.summarize(spec, scores),
        spec,
        scores,
        check,
        unknown_entries(judge_),
        cache=cache_file(judge_),
    )
    if write:
        write_index(run_dir, rows)
        write_summary(run_dir, summary)
        rebuild_index(run_dir)
    field_judge = judge_ if isinstance(judge_, FieldJudge) else None
    return RescoreResult(summary, scores, problems, field_judge)
