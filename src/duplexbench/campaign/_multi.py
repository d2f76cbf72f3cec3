"""Several conditions in one command: one run directory per condition, then a comparison.

`duplexbench run --condition text,clean,realistic` runs the same items,
repetitions and seed under each condition into `OUT/<condition>/` (each an
ordinary run directory) and writes `OUT/comparison.json`: every condition's
summary and the comparison across them, which the suite's item family makes
(`Family.compare`): for workflows (`workflow_compare.py`) per-task Workflow
Success and field accuracy, for actions (`action_compare.py`) per-task I and
S of each action; both retained from one condition to the next in the order
given and with paired permutation tests between every pair (per-task
differences, 100,000 permutations, Holm-Bonferroni).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from duplexbench.campaign._ahead import Bars
from duplexbench.campaign._conditions import Condition
from duplexbench.campaign._families import get_family
from duplexbench.campaign._lock import run_lock
from duplexbench.campaign._model import RunOptions, RunResult, Runs, Score
from duplexbench.campaign._rescore import rescore_run
from duplexbench.campaign._rundir import RunDirError, read_campaign, storage_error, write_json
from duplexbench.campaign._runner import OnScore, complete_runs, start_runs
from duplexbench.campaign._setup import free_run_dir
from duplexbench.campaign._spec import JudgeConfig, slug
from duplexbench.items import suite_family
from duplexbench.scoring import RunSummary, summary_data

MARKER = "comparison.json"


@dataclass(frozen=True)
class MultiRunResult:
    out: Path
    runs: dict[str, RunResult]
    report: dict[str, Any]
    """comparison.json: suite, agent, each condition's summary (JSON form), comparison."""

    @property
    def summaries(self) -> dict[str, RunSummary]:
        return {name: r.summary for name, r in self.runs.items()}


def _prepare(out: Path, overwrite: bool) -> None:
    if out.exists() and any(out.iterdir()):
        if not overwrite:
            raise RunDirError(f"{out} exists and is not empty; choose another --out or --overwrite")
        if not (out / MARKER).exists():
            raise RunDirError(
                f"{out} is not a multi-condition run directory; refusing to replace it"
            )
        try:
            shutil.rmtree(out)
        except OSError as exc:
            raise storage_error(exc, f"cannot clear {out} for --overwrite") from exc
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise storage_error(exc, f"cannot create the run directory {out}") from exc


def run_conditions(
    opts: RunOptions,
    conditions: Sequence[Condition],
    progress: OnScore | None = None,
    bars: Bars | None = None,
) -> MultiRunResult:
    """Run `opts` under each of `conditions` and compare them (module docstring): every
    run is checked before any starts, and their episodes go through one engine, as a
    campaign plan's do. `bars` makes the progress bars of the audio runs' render-ahead."""
    if len(conditions) < 2:
        raise ValueError("run_conditions needs at least two conditions")
    names = [c.name for c in conditions]
    suite_name = Path(opts.suite).name
    base = Path("runs") / slug(f"{suite_name}-{opts.agent}-{'-'.join(names)}")
    out = opts.out or free_run_dir(base)
    if opts.execution.resume:
        out.mkdir(parents=True, exist_ok=True)
    else:
        _prepare(out, opts.overwrite)
    options = [
        replace(opts, condition=c, out=out / slug(c.name), overwrite=False) for c in conditions
    ]
    with run_lock(out):
        targets = start_runs(options)
        write_json(out / MARKER, {"conditions": names, "status": "running"})
        results = complete_runs(targets, opts.execution, progress, bars)
    runs = dict(zip(names, results, strict=True))
    family = suite_family(opts.suite)
    pairs: Runs = {name: (r.summary, r.scores) for name, r in runs.items()}
    report = _report(pairs, names, opts.seed, family)
    write_json(out / MARKER, report)
    return MultiRunResult(out, runs, report)


def _report(runs: Runs, names: Sequence[str], seed: int, family: str) -> dict[str, Any]:
    first = runs[names[0]][0]
    return {
        "suite": first.suite,
        "agent": first.agent,
        "conditions": {name: summary_data(runs[name][0]) for name in names},
        "comparison": get_family(family).compare(runs, names, seed),
    }


def is_multi_run(out: Path) -> bool:
    return (out / MARKER).is_file() and not (out / "campaign.json").exists()


def rescore_conditions(
    out: Path,
    judge: JudgeConfig | None = None,
    write: bool = True,
    allow_edited_items: bool = False,
) -> tuple[dict[str, Any], dict[str, RunSummary], list[str]]:
    """`duplexbench score OUT` on a multi-condition folder: every run, then the comparison
    (comparison.json's report, each condition's summary, problems)."""
    try:
        names = list(json.loads((out / MARKER).read_text())["conditions"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RunDirError(f"{out / MARKER}: unreadable ({exc})") from None
    runs: dict[str, tuple[RunSummary, Sequence[Score]]] = {}
    problems: list[str] = []
    for name in names:
        result = rescore_run(out / slug(name), judge, write, allow_edited_items)
        runs[name] = (result.summary, result.scores)
        problems += [f"{name}: {p}" for p in result.problems]
    spec = read_campaign(out / slug(names[0]))
    report = _report(runs, names, spec.seed, spec.family)
    if write:
        write_json(out / MARKER, report)
    return report, {name: runs[name][0] for name in names}, problems
