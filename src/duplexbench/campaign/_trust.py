"""What a run's scores can be trusted for (docs/security.md).

Three checks, recorded in `summary.json` (`privileged` and the `trust` block)
and shown wherever the scores are:

- **privileged**: the agent was registered `privileged=True` (it sees hidden
  item state); its scores are labelled "privileged: not a valid result".
- **item snapshots**: each `items/<id>.json` must have the checksum recorded
  in `campaign.json` when the run was made; `duplexbench score` refuses an
  edited item unless told to score it anyway (then every output says so). An
  item with no recorded checksum is scored and reported as unverified.
- **judge provenance**: judge verdicts that were only read from the verdict
  cache (never fetched from an endpoint in this run) are counted and named,
  and cache entries that no episode asked for are named.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from duplexbench.agents import get_agent
from duplexbench.campaign._rundir import RunDirError
from duplexbench.campaign._spec import CampaignSpec
from duplexbench.items import item_checksum
from duplexbench.scoring import (
    SCORER_VERSION,
    ActionCacheEntry,
    ActionJudge,
    ActionJudgeCache,
    ActionScore,
    CacheEntry,
    EpisodeScore,
    FieldJudge,
    JudgeCache,
    RunSummary,
    is_tampered,
    parse_summary,
)

PRIVILEGED_LABEL = "privileged: not a valid result"
EDITED_LABEL = "items edited: not a valid result"
TAMPERED_LABEL = "tampered traces: not a valid result"
MAX_NAMED = 20
"""Cache-only verdicts and unknown cache entries named one by one; beyond that, a count."""


class EditedItems(RunDirError):
    """Item snapshots that differ from the checksums recorded when the run was made."""


@dataclass
class SnapshotCheck:
    """Item snapshots against campaign.json's checksums."""

    edited: dict[str, list[str]] = field(default_factory=dict)
    """Item id -> why it counts as edited (one line per finding)."""
    unverified: list[str] = field(default_factory=list)
    """Items with no recorded checksum (hand-edited or damaged campaign.json)."""
    allowed: bool = False
    """Scored anyway (`--allow-edited-items`)."""

    def message(self) -> str:
        lines = [f"{item}: {why}" for item, whys in self.edited.items() for why in whys]
        return (
            f"{len(self.edited)} item snapshot(s) differ from the checksums recorded in "
            f"campaign.json when the run was made: {', '.join(self.edited)}\n"
            + "\n".join(lines)
            + "\nscore refuses edited items; --allow-edited-items scores them anyway and "
            "every output then says so"
        )


def check_snapshots(
    spec: CampaignSpec, items: Mapping[str, Any], allowed: bool = False
) -> SnapshotCheck:
    """Compare every item (as read from its snapshot) with campaign.json's checksum.

    Raises `EditedItems` naming each edited item unless `allowed`. (Each workflow
    trace's `episode.start` checksum is compared with campaign.json's when it is
    scored, `campaign/_scores.py`: a mismatch is an error episode.)"""
    check = SnapshotCheck(allowed=allowed)
    for item_id in spec.items:
        expected = spec.item_checksums.get(item_id)
        if expected is None:
            check.unverified.append(item_id)
            continue
        found: list[str] = []
        item = items.get(item_id)
        if isinstance(item, BaseModel) and (actual := item_checksum(item)) != expected:
            found.append(
                f"items/{item_id}.json has checksum {actual[:12]}, campaign.json records "
                f"{expected[:12]}"
            )
        if found:
            check.edited[item_id] = found
    if check.edited and not allowed:
        raise EditedItems(check.message())
    return check


def resolve_privileged(spec: CampaignSpec) -> bool | None:
    """campaign.json's flag; for runs made before it was recorded, the registry's (None:
    the agent is not registered here)."""
    if spec.privileged is not None:
        return spec.privileged
    try:
        return get_agent(spec.agent, modules=False)[0].privileged  # a run dir's spec: no imports
    except ValueError:
        return None


Score = EpisodeScore | ActionScore


def _verdicts(scores: Sequence[Score]) -> tuple[int, list[str]]:
    """Judge verdicts in the scores, and the cache-only ones named `item rK field`."""
    total, cache_only = 0, []
    for s in scores:
        named: list[tuple[str, str | None]] = []
        if isinstance(s, EpisodeScore):
            named = [
                (f"{f.artifact}.{f.field}", f.judge_source)
                for f in s.fields
                if f.judged is not None
            ]
        elif s.judge_follow_through is not None:
            named = [("follow-through", s.judge_source)]
        total += len(named)
        cache_only += [
            f"{s.item_id} r{s.repetition} {what}" for what, src in named if src != "endpoint"
        ]
    return total, cache_only


def unknown_entries(judge: FieldJudge | ActionJudge | None) -> list[str] | None:
    """Entries of the judge's model and prompt version in its cache file that no lookup
    asked for (call after scoring every episode), described; None without a judge."""
    if judge is None or not isinstance(judge.cache, JudgeCache | ActionJudgeCache):
        return None
    out = []
    for e in judge.cache.store.unasked():
        if (e.model, e.prompt_version) != (judge.model, judge.prompt_version):
            continue
        if isinstance(e, CacheEntry):
            out.append(f"{e.field}: {e.predicted!r} for gold {e.gold!r} -> {e.correct}")
        elif isinstance(e, ActionCacheEntry):
            out.append(f"{e.action} ({e.condition}) -> {e.success}")
    return out


def cache_file(judge: FieldJudge | ActionJudge | None) -> tuple[str, str | None] | None:
    """The judge's verdict cache: its path and the sha256 of its contents now (None
    while the file does not exist); None without a judge."""
    if judge is None or not isinstance(judge.cache, JudgeCache | ActionJudgeCache):
        return None
    path = judge.cache.path
    if path is None:
        return None
    try:
        digest: str | None = hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        digest = None
    return str(path), digest


def judge_provenance(
    spec: CampaignSpec,
    scores: Sequence[Score],
    unknown: list[str] | None,
    cache: tuple[str, str | None] | None = None,
) -> dict[str, Any] | None:
    """The `trust.judge` block: verdicts fetched in this run vs from the cache only, and
    the cache file the verdicts came from (`cache_file`)."""
    if spec.judge is None:
        return None
    total, cache_only = _verdicts(scores)
    return {
        "cache": cache[0] if cache else spec.judge.cache,
        "cache_sha256": cache[1] if cache else None,
        "endpoint": spec.judge.base_url is not None,
        "verdicts": total,
        "fetched": total - len(cache_only),
        "cache_only": len(cache_only),
        "cache_only_verdicts": cache_only[:MAX_NAMED],
        "unknown_entries": None if unknown is None else len(unknown),
        "unknown_examples": (unknown or [])[:MAX_NAMED],
    }


def _warnings(
    privileged: bool | None, agent: str, check: SnapshotCheck | None, judge: dict[str, Any] | None
) -> list[str]:
    out = []
    if privileged:
        out.append(PRIVILEGED_LABEL)
    elif privileged is None:
        out.append(f"privileged: unknown (not in campaign.json; agent {agent!r} not registered)")
    if check is not None and check.edited:
        out.append(f"{EDITED_LABEL} ({', '.join(check.edited)}; scored with --allow-edited-items)")
    if check is not None and check.unverified:
        out.append(f"items unverified: no checksum recorded for {', '.join(check.unverified)}")
    if judge and judge["cache_only"]:
        out.append(
            f"judge: {judge['cache_only']} of {judge['verdicts']} verdicts from the cache "
            "only (never fetched in this run)"
        )
    if judge and judge["unknown_entries"]:
        cache = judge["cache"] or "judge cache"
        out.append(
            f"{cache}: {judge['unknown_entries']} entries no episode asked for "
            "(hand-written or from another run)"
        )
    return out


def _ran_on_other_items(scores: Sequence[Score]) -> dict[str, list[str]]:
    """Items whose traces ran on another checksum than campaign.json records: the
    snapshot and its checksum were edited together (`scoring/_header.py`)."""
    return {
        s.item_id: ["its trace ran on another item checksum than campaign.json records"]
        for s in scores
        if "trace does not match its item" in (s.agent_error or s.error or "")
    }


def add_trust(
    summary: dict[str, Any],
    spec: CampaignSpec,
    scores: Sequence[Score],
    check: SnapshotCheck | None = None,
    unknown: list[str] | None = None,
    *,
    cache: tuple[str, str | None] | None = None,
) -> RunSummary:
    """The typed summary: the family's blocks with `privileged` and the `trust` block
    added. A block that does not fit its model (`scoring/summary_models.py`) is a
    harness bug and raises pydantic's ValidationError here, before anything is written."""
    privileged = resolve_privileged(spec)
    judge = judge_provenance(spec, scores, unknown, cache)
    items: dict[str, Any] = {"status": "not checked", "edited": {}, "unverified": []}
    if check is not None:
        edited = {**check.edited, **_ran_on_other_items(scores)}
        status = "edited" if edited else "unverified" if check.unverified else "verified"
        items = {"status": status, "edited": edited, "unverified": check.unverified}
    warnings = _warnings(privileged, spec.agent, check, judge)
    if spec.scorer_version != SCORER_VERSION:
        made = (
            f"scorer version {spec.scorer_version}"
            if spec.scorer_version
            else "a scorer version it did not record (1)"
        )
        warnings.append(
            f"rescored with scorer version {SCORER_VERSION}; the run was made with {made} "
            "(docs/metrics.md, 'Scorer version')"
        )
    tampered = sum(is_tampered(s.agent_error or s.error) for s in scores)
    if tampered:  # scoring/_replay_check.py, campaign/_scores.py; each is named in the reasons
        warnings.append(
            f"{TAMPERED_LABEL} ({tampered} episode(s) whose trace was changed after the run: "
            "it disagrees with its replay, its item, its checksum or its folder, or cannot be "
            "read; scored as failures)"
        )
    trust = {
        "privileged": privileged,
        "items": items,
        "judge": judge,
        "warnings": warnings,
    }
    out: dict[str, Any] = {}
    for key, value in summary.items():
        out[key] = value
        if key == "agent":
            out["privileged"] = privileged
            out["scorer_version"] = SCORER_VERSION
    out.setdefault("privileged", privileged)
    out["trust"] = trust
    return parse_summary(out)


def trust_warnings(summary: RunSummary | None) -> list[str]:
    """The labels a summary's scores must be shown with (no summary: none)."""
    return [] if summary is None else list(summary.trust.warnings)


def run_warnings(campaign: dict[str, Any], summary: RunSummary | None) -> list[str]:
    """A run directory's labels from its summary, and from campaign.json's flag when the
    summary is missing or older than the flag (for reports over run directories)."""
    warnings = trust_warnings(summary)
    if campaign.get("privileged") is True and PRIVILEGED_LABEL not in warnings:
        warnings.insert(0, PRIVILEGED_LABEL)
    return warnings


def invalid_labels(warnings: Sequence[str]) -> list[str]:
    """The labels that make a run not a valid result (privileged agent, edited items,
    tampered traces)."""
    return [
        label
        for label in (PRIVILEGED_LABEL, EDITED_LABEL, TAMPERED_LABEL)
        if any(w.startswith(label) for w in warnings)
    ]
