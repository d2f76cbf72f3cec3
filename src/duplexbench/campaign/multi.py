"""Several conditions in one command: one run directory per condition, then a comparison.

`duplexbench run --condition text,clean,realistic` runs the same items,
repetitions and seed under each condition into `OUT/<condition>/` (each an
ordinary run directory) and writes `OUT/comparison.json`: every condition's
summary and the comparison across them -- per-task Workflow Success (Pass@1
of each item over its repetitions) retained from one condition to the next in
the order given, and paired permutation tests between every pair (per-task
differences, 100,000 permutations, Holm-Bonferroni); the same for per-task
Artifact Field Accuracy under `afa` (when every condition graded fields);
plus the τ-Voice interaction panel of each audio condition side by side.
"""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from duplexbench.campaign.ahead import Bars
from duplexbench.campaign.rescore import rescore_run
from duplexbench.campaign.rundir import RunDirError, storage_error, write_json
from duplexbench.campaign.runner import Progress, RunOptions, RunResult, free_run_dir, run_campaign
from duplexbench.campaign.spec import JudgeConfig, slug
from duplexbench.scoring.compare import PERMUTATIONS, compare_conditions
from duplexbench.scoring.episode import EpisodeScore

MARKER = "comparison.json"
INTERACTION_KEYS = (
    "response_latency",
    "response_rate",
    "yield_latency",
    "yield_rate",
    "agent_interruption_rate",
    "selectivity_backchannel",
    "selectivity_vocal_tic",
    "selectivity_non_directed",
)


@dataclass(frozen=True)
class MultiRunResult:
    out: Path
    runs: dict[str, RunResult]
    report: dict[str, Any]


def per_task_afa(scores: Sequence[EpisodeScore]) -> dict[str, float]:
    """Each item's Artifact Field Accuracy pooled over its valid repetitions."""
    fields: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for s in scores:
        if s.status == "ok" and s.afa is not None and s.afa.total:
            fields[s.item_id][0] += s.afa.correct
            fields[s.item_id][1] += s.afa.total
    return {item: correct / total for item, (correct, total) in fields.items()}


def per_task_success(scores: Sequence[EpisodeScore]) -> dict[str, float]:
    """Each item's Workflow Success rate over its valid repetitions (errors left out)."""
    outcomes: dict[str, list[int]] = defaultdict(list)
    for s in scores:
        if s.status == "ok":
            outcomes[s.item_id].append(int(s.ws or 0))
    return {item: sum(v) / len(v) for item, v in outcomes.items()}


def comparison(
    runs: Mapping[str, tuple[dict[str, Any], Sequence[EpisodeScore]]],
    order: Sequence[str],
    seed: int,
) -> dict[str, Any]:
    """The comparison block from each condition's (summary, episode scores).

    When no task has a valid episode under every condition (e.g. one condition
    ended in errors only), the block says so in `not_compared` and holds no
    tests: the run still finishes and writes its summaries.
    """
    per_task = {name: per_task_success(runs[name][1]) for name in order}
    block: dict[str, Any]
    try:
        block = compare_conditions(per_task, order, PERMUTATIONS, seed) | {"metric": "pass_at_1"}
    except ValueError as exc:
        block = {"order": list(order), "metric": "pass_at_1", "not_compared": str(exc)}
        block |= {"tasks": 0, "conditions": {}, "retention": [], "tests": []}
    afa = {name: per_task_afa(runs[name][1]) for name in order}
    if "not_compared" not in block and all(afa.values()):
        block["afa"] = compare_conditions(afa, order, PERMUTATIONS, seed) | {"metric": "afa"}
    panel = {}
    for name in order:
        interaction = runs[name][0].get("interaction")
        if interaction is not None:
            panel[name] = {k: interaction[k] for k in INTERACTION_KEYS}
    block["interaction"] = panel
    return block


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
    names: Sequence[str],
    progress: Callable[[str], Progress | None] | None = None,
    bars: Bars | None = None,
) -> MultiRunResult:
    """Run `opts` under each condition in `names` and compare them (module docstring);
    `bars` makes the progress bars of each audio condition's render-ahead."""
    if len(names) < 2:
        raise ValueError("run_conditions needs at least two conditions")
    suite_name = Path(opts.suite).name
    base = Path("runs") / slug(f"{suite_name}-{opts.agent}-{'-'.join(names)}")
    out = opts.out or free_run_dir(base)
    if opts.execution.resume:
        out.mkdir(parents=True, exist_ok=True)
    else:
        _prepare(out, opts.overwrite)
    write_json(out / MARKER, {"conditions": list(names), "status": "running"})
    runs: dict[str, RunResult] = {}
    for name in names:
        sub = replace(opts, condition=name, out=out / slug(name), overwrite=False)
        runs[name] = run_campaign(sub, progress(name) if progress else None, bars)
    report = _report({name: (r.summary, r.scores) for name, r in runs.items()}, names, opts.seed)
    write_json(out / MARKER, report)
    return MultiRunResult(out, runs, report)


def _report(
    runs: Mapping[str, tuple[dict[str, Any], Sequence[EpisodeScore]]],
    names: Sequence[str],
    seed: int,
) -> dict[str, Any]:
    first = runs[names[0]][0]
    return {
        "suite": first["suite"],
        "agent": first["agent"],
        "conditions": {name: runs[name][0] for name in names},
        "comparison": comparison(runs, names, seed),
    }


def is_multi_run(out: Path) -> bool:
    return (out / MARKER).is_file() and not (out / "campaign.json").exists()


def rescore_conditions(
    out: Path,
    judge: JudgeConfig | None = None,
    write: bool = True,
    allow_edited_items: bool = False,
) -> tuple[dict[str, Any], list[str]]:
    """`duplexbench score OUT` on a multi-condition folder: every run, then the comparison."""
    try:
        names = list(json.loads((out / MARKER).read_text())["conditions"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RunDirError(f"{out / MARKER}: unreadable ({exc})") from None
    runs, problems, seed = {}, [], 0
    for name in names:
        result = rescore_run(out / slug(name), judge, write, allow_edited_items)
        runs[name] = (result.summary, result.scores)
        problems += [f"{name}: {p}" for p in result.problems]
        seed = result.summary["workflows"]["bootstrap"]["seed"]
    report = _report(runs, names, seed)
    if write:
        write_json(out / MARKER, report)
    return report, problems
