"""Finding run directories and reading what the report needs from their stores.

A run directory is any folder holding `campaign.json`; a folder given to the
report is searched for them up to `MAX_DEPTH` levels down (not inside a run
directory). Each run's index (`index.sqlite`) is refreshed from the episode
folders first (built when missing, rebuilt when corrupt), then read. Whatever
cannot be read becomes a message in `problems`; the rest still reports.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from duplexbench.campaign import (
    EpisodeRow,
    episode_rows,
    query,
    read_campaign_data,
    refresh_index,
    slug,
)
from duplexbench.scoring import RunSummary, parse_summary

MAX_DEPTH = 4
MAX_LISTED = 5
"""Missing episodes listed one by one per run; beyond that, a count."""


@dataclass
class RunData:
    """One run directory as the report sees it."""

    path: Path
    campaign: dict[str, Any]
    label: str = ""
    summary: RunSummary | None = None
    """summary.json, typed; None when missing or not readable by this version."""
    episodes: list[EpisodeRow] = field(default_factory=list)
    """Typed index rows: `WorkflowRow`s (graded fields attached) or `ActionRow`s."""
    items: dict[str, dict[str, Any]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def suite(self) -> str:
        return str(self.campaign.get("suite", "?"))

    @property
    def agent(self) -> str:
        return str(self.campaign["agent"])

    @property
    def condition(self) -> str:
        return str(self.campaign["condition"])

    @property
    def family(self) -> str:
        return str(self.campaign.get("family") or "workflow")

    @property
    def seed(self) -> int:
        seed = self.campaign.get("seed")
        return seed if isinstance(seed, int) else 0

    @property
    def repeats(self) -> int:
        k = self.campaign.get("repeats")
        return k if isinstance(k, int) else 1

    def ident(self) -> dict[str, Any]:
        """The columns that say which run a table row belongs to."""
        return {
            "run": self.label,
            "suite": self.suite,
            "agent": self.agent,
            "condition": self.condition,
        }


def find_run_dirs(paths: list[Path]) -> tuple[list[Path], list[str]]:
    """Run directories at or under `paths` (depth <= MAX_DEPTH), in order, and problems."""
    found: list[Path] = []
    problems: list[str] = []
    for root in paths:
        if not root.exists():
            problems.append(f"{root}: no such file or directory")
            continue
        before = len(found)
        _walk(root, 0, found)
        if len(found) == before:
            problems.append(f"{root}: no run directory (campaign.json) within {MAX_DEPTH} levels")
    unique = list(dict.fromkeys(p.resolve() for p in found))
    return unique, problems


def _walk(folder: Path, depth: int, found: list[Path]) -> None:
    if (folder / "campaign.json").is_file():
        found.append(folder)
        return
    if depth >= MAX_DEPTH or not folder.is_dir():
        return
    try:
        children = sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        return
    for child in children:
        _walk(child, depth + 1, found)


def _read_json(path: Path, problems: list[str], what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        problems.append(f"{path}: unreadable {what} ({exc})")
        return None


def read_summary(run_dir: Path, problems: list[str]) -> RunSummary | None:
    """RUN_DIR/summary.json as its typed model; None when it is missing, and a
    problem when it cannot be read (what is recomputed from the index then is)."""
    data = _read_json(run_dir / "summary.json", problems, "summary.json")
    if data is None:
        return None
    try:
        return parse_summary(data)
    except ValidationError as exc:
        problems.append(
            f"{run_dir / 'summary.json'}: not a summary this version can read "
            f"({exc.error_count()} problem(s), first: {_first_error(exc)}); the tables are "
            "computed from the episodes, the trust labels from campaign.json; "
            "`duplexbench score RUN_DIR` rewrites it"
        )
        return None


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    return f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}"


def item_info(data: Any) -> dict[str, Any]:
    """What the report needs of an item snapshot: title, taxonomy, gating, field count."""
    if not isinstance(data, dict):
        return {}
    info: dict[str, Any] = {"title": str(data.get("title") or "")}
    taxonomy = data.get("taxonomy")
    if isinstance(taxonomy, dict):
        info["taxonomy"] = taxonomy
    tools = data.get("tools")
    if isinstance(tools, list):
        info["approval_gated"] = any(
            isinstance(t, dict) and t.get("requires_approval") for t in tools
        )
    artifacts = data.get("artifacts")
    if isinstance(artifacts, list):
        info["graded_fields"] = sum(
            1
            for a in artifacts
            if isinstance(a, dict)
            for f in a.get("fields") or []
            if isinstance(f, dict) and f.get("gold") is not None
        )
    for key in ("condition", "scenario", "topic"):
        if isinstance(data.get(key), str):
            info[key] = data[key]
    return info


def _read_items(run: RunData) -> None:
    ids = run.campaign.get("items")
    wanted = {e.item_id for e in run.episodes} | set(ids if isinstance(ids, list) else [])
    missing = []
    for item_id in sorted(wanted):
        path = run.path / "items" / f"{item_id}.json"
        data = _read_json(path, run.problems, "item snapshot")
        if data is None and not path.exists():
            missing.append(item_id)
        run.items[item_id] = item_info(data)
    if missing:
        run.problems.append(
            f"{run.path}: no item snapshot for {_listing(missing)}; taxonomy slices show them "
            "as (unknown)"
        )


def _listing(names: list[str]) -> str:
    shown = ", ".join(names[:MAX_LISTED])
    more = len(names) - MAX_LISTED
    return f"{shown} and {more} more" if more > 0 else shown


def _check_expected(run: RunData) -> None:
    """Episodes the campaign planned that have no indexed result: a problem each."""
    items = run.campaign.get("items")
    if not isinstance(items, list):
        return
    have = {(e.item_id, e.repetition) for e in run.episodes}
    base = f"episodes/{slug(run.agent)}/{slug(run.condition)}"
    gone: list[str] = []
    unscored: list[str] = []
    for item_id in items:
        for rep in range(run.repeats):
            if (item_id, rep) in have:
                continue
            rel = f"{base}/{item_id}/r{rep}"
            (unscored if (run.path / rel).is_dir() else gone).append(rel)
    if gone:
        run.problems.append(
            f"{run.path}: {len(gone)} episode folder(s) missing, left out: {_listing(gone)}"
        )
    if unscored:
        run.problems.append(
            f"{run.path}: {len(unscored)} episode(s) with no readable result.json (not finished "
            f"or unreadable), left out: {_listing(unscored)}"
        )


def load_run(path: Path) -> RunData:
    """Refresh and read one run's store; raises StoreError when the run is unusable."""
    campaign, _ = read_campaign_data(path)
    status = refresh_index(path)
    run = RunData(path, campaign)
    run.problems += [f"{path}: {p}" for p in status.problems]
    run.notes += [f"{path}: {n}" for n in status.notes]
    run.episodes = episode_rows(path, run.family)
    run.summary = read_summary(path, run.problems)
    _check_expected(run)
    _read_items(run)
    return run


def result_texts(run: RunData) -> list[str]:
    """The `result.json` texts of the run's valid episodes (read from the index)."""
    rows = query(run.path, "SELECT result_json FROM episodes WHERE status = 'ok'")
    return [str(r["result_json"]) for r in rows]


def relative_to(target: Path, start: Path) -> str:
    """`target` relative to `start`, as a URL path (for links in the HTML page)."""
    return Path(os.path.relpath(target, start)).as_posix()
