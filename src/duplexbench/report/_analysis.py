"""`analyze(paths)`: every table of the report over one or more run directories.

Each run directory is read through its results store (`index.sqlite`,
refreshed from the episode folders, built when missing). Workflow runs give
the scorecard, gates, floor control and correction uptake, why fields were
wrong (failure attribution), taxonomy slices, per-item rows and field misses,
and the reliability-efficiency frontier;
action runs give the action tables; audio runs their τ-Voice panel. Runs of
the same suite and agent under several conditions are compared (from
`comparison.json` when a `run --condition a,b` folder holds them, else
computed with `scoring/_compare.py`); a human run (`duplexbench call`) is set
beside the simulated runs of the same suite and agent instead (`_human.py`).
Anything unreadable is a message in `problems` and the rest still reports. The
JSON shape is in docs/report.md.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duplexbench
from duplexbench.campaign import StoreError, invalid_labels, run_warnings, slug
from duplexbench.report import _actions as action_report
from duplexbench.report import _workflow as wf
from duplexbench.report._human import human_vs_simulated, is_human
from duplexbench.report._load import RunData, find_run_dirs, load_run, result_texts
from duplexbench.report._taxonomy import taxonomy_slices
from duplexbench.scoring import (
    PERMUTATIONS,
    TimelineRecord,
    compare_conditions,
    per_task_afa,
    per_task_success,
    pooled_panel,
)

REPORT_FORMAT = "duplexbench-report/1"
MAX_FIELD_MISSES = 2000
"""Field-miss rows kept (most missed first); `field_misses_total` counts them all."""
CONDITION_ORDER = ("text", "clean", "noise", "accents", "turn-taking")


def _labels(runs: list[RunData]) -> None:
    """`agent · condition`, with the folder name added where two runs would share one."""
    counts: dict[str, int] = defaultdict(int)
    for run in runs:
        counts[f"{run.agent} · {run.condition}"] += 1
    for run in runs:
        base = f"{run.agent} · {run.condition}"
        folder = run.path.parent if run.path.name == slug(run.condition) else run.path
        run.label = base if counts[base] == 1 else f"{base} · {folder.name}"
    seen: dict[str, int] = defaultdict(int)
    for run in runs:  # still equal (same folder names): number them
        seen[run.label] += 1
        if seen[run.label] > 1:
            run.label = f"{run.label} ({seen[run.label]})"


def _simulator_mix(runs: list[RunData]) -> list[str]:
    """Workflow runs made with different simulated users are set side by side, never
    compared as if alike: say so."""
    seen: dict[str, list[str]] = {}
    for run in runs:
        if run.family == "workflow":
            key = json.dumps(run.campaign.get("simulator"), sort_keys=True)
            seen.setdefault(key, []).append(run.label)
    if len(seen) < 2:
        return []
    groups = "; ".join(
        f"{json.loads(k) or 'not recorded'}: {', '.join(v)}" for k, v in seen.items()
    )
    return [f"these runs were made with different simulated users and are not comparable: {groups}"]


def scorer_version(run: RunData) -> str:
    """The scoring rules of the run's summary ("1" before they were recorded, "?"
    without a readable summary)."""
    if run.summary is None:
        return "?"
    return run.summary.scorer_version or "1"


def _scorer_mix(runs: list[RunData]) -> list[str]:
    """Runs scored under different rules are set side by side, never compared as if
    alike: say so (scoring/_version.py)."""
    seen: dict[str, list[str]] = {}
    for run in runs:
        seen.setdefault(scorer_version(run), []).append(run.label)
    if len(seen) < 2:
        return []
    groups = "; ".join(f"version {k}: {', '.join(v)}" for k, v in sorted(seen.items()))
    return [
        "these runs were scored with different scorer versions and are not comparable "
        f"({groups}); rescore the older ones with `duplexbench score RUN`"
    ]


def _run_info(run: RunData) -> dict[str, Any]:
    items = run.campaign.get("items")
    judge = run.campaign.get("judge")
    return {
        **run.ident(),
        "path": str(run.path),
        "family": run.family,
        "repeats": run.repeats,
        "seed": run.seed,
        "judge": judge.get("model") if isinstance(judge, dict) else None,
        "simulator": run.campaign.get("simulator"),
        "scorer_version": scorer_version(run),
        "privileged": (run.summary.privileged if run.summary else run.campaign.get("privileged")),
        "trust": _warnings(run),
        "episodes": len(run.episodes),
        "expected": len(items) * run.repeats if isinstance(items, list) else None,
        "errors": sum(1 for e in run.episodes if e.status != "ok"),
        "agent_errors": run.summary.agent_errors if run.summary else 0,
        "agent_error_reasons": run.summary.agent_error_reasons if run.summary else [],
        "complete": all(e.status == "ok" for e in run.episodes),
        "summary": run.summary is not None,
    }


def _load(paths: Sequence[Path | str]) -> tuple[list[RunData], list[str]]:
    dirs, problems = find_run_dirs([Path(p) for p in paths])
    runs = []
    for path in dirs:
        try:
            runs.append(load_run(path))
        except (StoreError, sqlite3.Error, OSError) as exc:
            problems.append(f"{path}: left out of the report: {exc}")
    _labels(runs)
    for run in runs:  # every table that names the run shows why it is not a valid result
        run.label += "".join(f" · {label}" for label in invalid_labels(_warnings(run)))
    return runs, problems


def _warnings(run: RunData) -> list[str]:
    return run_warnings(run.campaign, run.summary)


def _workflow(runs: list[RunData], problems: list[str]) -> dict[str, Any]:
    out: dict[str, list[Any]] = defaultdict(list)
    for run in runs:
        try:
            card = wf.scorecard(run)
            tables = {
                "gates": wf.gate_block(run),
                "attribution": wf.attribution(run),
                "floor": wf.floor_rows(run),
                "taxonomy": taxonomy_slices(run),
                "items": wf.item_rows(run),
                "field_misses": wf.field_misses(run),
            }
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"{run.path}: workflow tables left out ({type(exc).__name__}: {exc})")
            continue
        out["scorecard"].append(card)
        for key in ("gates", "floor", "attribution"):
            out[key].append(tables[key])
        for key in ("taxonomy", "items", "field_misses"):
            out[key].extend(tables[key])
    misses = sorted(out["field_misses"], key=lambda m: -m["misses"] / max(1, m["runs"]))
    return {
        "scorecard": out["scorecard"],
        "gates": out["gates"],
        "floor": out["floor"],
        "attribution": out["attribution"],
        "taxonomy": out["taxonomy"],
        "items": out["items"],
        "field_misses": misses[:MAX_FIELD_MISSES],
        "field_misses_total": len(misses),
        "frontier": wf.frontier(out["scorecard"]),
    }


def _actions(runs: list[RunData], problems: list[str]) -> dict[str, Any]:
    keys = ("per_action", "per_condition", "follow_through_failures", "by_scenario", "failures")
    out: dict[str, Any] = {"blocks": {}, **{key: [] for key in keys}}
    for run in runs:
        try:
            tables = action_report.action_tables(run)
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"{run.path}: action tables left out ({type(exc).__name__}: {exc})")
            continue
        out["blocks"][run.label] = tables.pop("block")
        for key, rows in tables.items():
            out[key].extend(rows)
    total = len(out["failures"])
    out["failures"] = out["failures"][: action_report.MAX_FAILURES]
    out["failures_total"] = total
    return dict(out)


def _panel(run: RunData) -> tuple[dict[str, Any] | None, str]:
    """The run's τ-Voice panel: summary.json's when it covers the indexed episodes."""
    summary = run.summary
    if summary is not None and summary.episodes == len(run.episodes):
        panel = summary.interaction
        return (None if panel is None else panel.model_dump(mode="json")), "summary.json"
    records = []
    for text in result_texts(run):
        timeline = json.loads(text).get("interaction")
        if timeline is not None:
            records.append(TimelineRecord.model_validate(timeline))
    return pooled_panel(records), "recomputed"


def _interaction(runs: list[RunData], problems: list[str]) -> list[dict[str, Any]]:
    rows = []
    for run in runs:
        try:
            panel, source = _panel(run)
        except (ValueError, TypeError) as exc:
            problems.append(f"{run.path}: interaction panel left out ({exc})")
            continue
        if panel is not None:
            rows.append({**run.ident(), "family": run.family, "source": source, "panel": panel})
    return rows


def condition_order(names: Sequence[str]) -> list[str]:
    """text, clean, single factors, pairs, realistic; unknown names last, alphabetically."""

    def rank(name: str) -> tuple[int, int, str]:
        if name in CONDITION_ORDER:
            return (0, CONDITION_ORDER.index(name), name)
        if name == "realistic":
            return (2, 0, name)
        return (1, name.count("+"), name)

    return sorted(set(names), key=rank)


def _saved_comparisons(
    runs: list[RunData], problems: list[str]
) -> tuple[list[dict[str, Any]], set[tuple[str, str, tuple[str, ...]]]]:
    out, covered = [], set()
    parents = sorted({r.path.parent for r in runs if (r.path.parent / "comparison.json").is_file()})
    for parent in parents:
        path = parent / "comparison.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            block = data["comparison"]
            order = [str(c) for c in block["order"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            problems.append(f"{path}: unreadable comparison ({exc}); computed from the runs")
            continue
        suite, agent = str(data.get("suite", "?")), str(data.get("agent", "?"))
        out.append(
            {
                "suite": suite,
                "agent": agent,
                "order": order,
                "source": "comparison.json",
                "path": str(path),
                "comparison": block,
            }
        )
        covered.add((suite, agent, tuple(sorted(order))))
    return out, covered


def _comparisons(runs: list[RunData], problems: list[str]) -> list[dict[str, Any]]:
    out, covered = _saved_comparisons(runs, problems)
    groups: dict[tuple[str, str], dict[str, RunData]] = defaultdict(dict)
    for run in runs:
        if run.family == "workflow" and not is_human(run):  # set beside, never compared
            groups[(run.suite, run.agent)].setdefault(run.condition, run)
    for (suite, agent), by_condition in sorted(groups.items()):
        order = condition_order(list(by_condition))
        if len(order) < 2 or (suite, agent, tuple(sorted(order))) in covered:
            continue
        seed = by_condition[order[0]].seed
        versions = sorted({scorer_version(r) for r in by_condition.values()})
        if len(versions) > 1:
            problems.append(
                f"{suite} · {agent}: conditions not compared (scored with scorer versions "
                f"{', '.join(versions)})"
            )
            continue
        try:
            per_task = {c: per_task_success(wf.valid(by_condition[c])) for c in order}
            block = compare_conditions(per_task, order, PERMUTATIONS, seed)
            afa = {c: per_task_afa(wf.valid(by_condition[c])) for c in order}
            if all(afa.values()):
                block["afa"] = compare_conditions(afa, order, PERMUTATIONS, seed)
        except ValueError as exc:
            problems.append(f"{suite} · {agent}: conditions not compared ({exc})")
            continue
        out.append(
            {
                "suite": suite,
                "agent": agent,
                "order": order,
                "source": "computed",
                "path": None,
                "comparison": block | {"metric": "pass_at_1"},
            }
        )
    return out


def analyze(paths: Sequence[Path | str]) -> dict[str, Any]:
    """The report over the run directories at or under `paths` (JSON-ready)."""
    runs, problems = _load(paths)
    for run in runs:
        problems.extend(run.problems)
    problems.extend(_simulator_mix(runs))
    problems.extend(_scorer_mix(runs))
    by_family: dict[str, list[Any]] = {"workflow": [], "action": []}
    for run in runs:
        by_family.setdefault(run.family, []).append(run)
    return {
        "format": REPORT_FORMAT,
        "duplexbench_version": duplexbench.__version__,
        "runs": [_run_info(r) for r in runs],
        "problems": problems,
        "notes": [n for r in runs for n in r.notes],
        "trust": [{"run": r.label, "warnings": _warnings(r)} for r in runs if _warnings(r)],
        "workflow": _workflow(by_family["workflow"], problems),
        "actions": _actions(by_family["action"], problems),
        "interaction": _interaction(runs, problems),
        "comparisons": _comparisons(runs, problems),
        "human_vs_simulated": human_vs_simulated(runs),
    }
