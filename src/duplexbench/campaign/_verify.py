"""`duplexbench verify`: re-run a sample of a run's episodes and compare them.

A trace rewritten consistently (a tool call's arguments together with the
workbench events that repeat them, the header and the end) passes every
check a scorer can make from the files alone. The answer is to re-run: the
items are snapshotted in the run directory, and seeds, agent spec and
condition are in `campaign.json`, so anyone can play a sample of the
episodes again and compare (docs/security.md, "Verifying a run").

- A local agent (`agents.is_remote` false) is reproducible: the re-run trace
  must equal the saved one event for event, wall-clock times (`wall_ms`)
  excepted. The first difference is named.
- A network agent may answer differently each time: the scores are compared
  (Workflow Success and AFA; action items: immediate execution and
  follow-through), and the share that agree is reported.
- Episodes that cannot be re-run are named with the reason: a privileged agent
  (its run is not a valid result), an agent whose plug-in is not installed, a
  spec whose secrets were redacted, a run whose caller was a person.

Both the saved and the re-run traces are scored afresh under the current
rules, so a forged `result.json` is never what is compared.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from duplexbench.agents import get_agent, is_remote
from duplexbench.campaign._conditions import parse_conditions
from duplexbench.campaign._families import get_family
from duplexbench.campaign._family import Family
from duplexbench.campaign._model import ExecutionOptions, Item, RunOptions, Score
from duplexbench.campaign._rundir import RunDirError, read_campaign
from duplexbench.campaign._runner import run_campaign
from duplexbench.campaign._spec import CampaignSpec, episode_dir

Mode = Literal["trace", "scores"]


class EpisodeCheck(BaseModel):
    """One re-run episode against its saved trace."""

    model_config = ConfigDict(extra="forbid")
    path: str = Field(description="The saved episode's folder, relative to the run.")
    item_id: str
    repetition: int
    identical: bool | None = Field(description="Traces equal but wall times (trace mode).")
    difference: str | None = Field(description="The first difference, or null.")
    scores_agree: bool
    saved: dict[str, Any] = Field(description="The saved trace's score, rescored now.")
    rerun: dict[str, Any]


class RunCheck(BaseModel):
    """`duplexbench verify`'s verdict on one run directory (`--json`)."""

    model_config = ConfigDict(extra="forbid")
    run: str
    agent: str
    mode: Mode | None = Field(description="null when the run could not be re-run.")
    cannot_rerun: str | None = Field(description="Why no episode was re-run, or null.")
    sample: float
    episodes: list[EpisodeCheck] = Field(default_factory=list)
    agree: int = Field(0, description="Episodes that match (trace mode) or agree on scores.")
    verified: bool = Field(description="Every re-run episode matched (and at least one ran).")


def _cannot_rerun(spec: CampaignSpec) -> str | None:
    """Why this run's episodes cannot be re-run, or None."""
    if spec.user == "human":
        return "a person played the caller (duplexbench call): a call cannot be replayed"
    if "=***" in spec.agent:
        return "the agent spec's secrets were redacted in campaign.json; nothing to re-run with"
    try:
        info, _ = get_agent(spec.agent, modules=False)
    except ValueError as exc:
        return f"the agent is not available here: {exc}"
    if info.privileged or spec.privileged:
        return (
            "the agent is privileged (it reads the item's gold): its run is not a valid "
            "result, so there is nothing to verify"
        )
    return None


def sample_items(spec: CampaignSpec, fraction: float, seed: int) -> list[str]:
    """A seeded sample of the run's items (at least one), in run order."""
    if not 0 < fraction <= 1:
        raise ValueError(f"--sample must be in (0, 1], got {fraction}")
    count = max(1, math.ceil(fraction * len(spec.items)))
    chosen = set(random.Random(seed).sample(spec.items, count))
    return [i for i in spec.items if i in chosen]


def _suite_copy(run_dir: Path, spec: CampaignSpec, items: list[str], to: Path) -> Path:
    """A suite folder of the run's item snapshots under the run's suite name and version."""
    to.mkdir(parents=True)
    manifest = {"name": spec.suite, "family": spec.family, "version": spec.suite_version}
    (to / "suite.json").write_text(json.dumps(manifest), encoding="utf-8")
    for item_id in items:
        shutil.copyfile(run_dir / "items" / f"{item_id}.json", to / f"{item_id}.json")
    return to


def _events(path: Path) -> list[dict[str, Any]]:
    """The trace's events without their wall-clock times (a line that is no JSON object
    is kept as `{"line": ...}`, so it still compares)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if not isinstance(event, dict) or not isinstance(event.get("data", {}), dict):
            event = {"line": event}
        event.pop("wall_ms", None)
        out.append(event)
    return out


def first_difference(saved: Path, rerun: Path) -> str | None:
    """Where two traces first differ (wall times excepted), or None when they agree."""
    a, b = _events(saved), _events(rerun)
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            keys = sorted(
                k
                for k in {*x.get("data", {}), *y.get("data", {})}
                if x.get("data", {}).get(k) != y.get("data", {}).get(k)
            )
            what = f"data {', '.join(keys)}" if keys else "header"
            return f"event {i} ({x.get('type')} at {x.get('t_ms')} ms): {what} differ"
    if len(a) != len(b):
        return f"the saved trace has {len(a)} events, the re-run {len(b)}"
    return None


def _headline(score: Score) -> dict[str, Any]:
    """The numbers a verdict compares: WS and AFA, or action items' I and S."""
    data = score.model_dump(mode="json")
    keys = ("status", "ws", "afa", "immediate", "follow_through", "agent_error")
    return {k: data[k] for k in keys if k in data}


def verify_run(run_dir: Path, fraction: float = 0.1, seed: int = 0, workers: int = 1) -> RunCheck:
    """Re-run a seeded sample of the run's items (every repetition) and compare."""
    spec = read_campaign(run_dir)
    base = {"run": str(run_dir), "agent": spec.agent, "sample": fraction}
    reason = _cannot_rerun(spec)
    if reason is not None:
        return RunCheck(**base, mode=None, cannot_rerun=reason, verified=False)
    _, agent = get_agent(spec.agent, modules=False)
    mode: Mode = "scores" if is_remote(agent) else "trace"
    items = sample_items(spec, fraction, seed)
    with tempfile.TemporaryDirectory(prefix="duplexbench-verify-") as tmp:
        suite = _suite_copy(run_dir, spec, items, Path(tmp) / "suite")
        opts = RunOptions(
            str(suite), agent=spec.agent, condition=parse_conditions(spec.condition)[0],
            repeats=spec.repeats,
            seed=spec.seed, items=tuple(items), out=Path(tmp) / "run",
            voice_fallback=spec.voice_fallback, execution=ExecutionOptions(workers=workers),
        )  # fmt: skip
        rerun = run_campaign(opts)
        fresh = read_campaign(rerun.run_dir)
        if fresh.simulator != spec.simulator:
            raise RunDirError(
                f"{run_dir} was made with another simulated user ({spec.simulator}); this "
                f"version plays {fresh.simulator}, so its episodes cannot be compared"
            )
        family = get_family(spec.family)
        snapshots = family.read_items(run_dir, spec)
        checks = [
            _check(family, snapshots[item_id], (run_dir, rerun.run_dir), spec, rep, mode=mode)
            for item_id, rep, _ in spec.episodes()
            if item_id in items
        ]
    agree = sum(bool(c.identical) if mode == "trace" else c.scores_agree for c in checks)
    verified = bool(checks) and agree == len(checks)
    return RunCheck(
        **base, mode=mode, cannot_rerun=None, episodes=checks, agree=agree, verified=verified
    )


def _check(
    family: Family, item: Item, dirs: tuple[Path, Path], spec: CampaignSpec, rep: int, *, mode: Mode
) -> EpisodeCheck:
    rel = episode_dir(spec, item.id, rep)
    saved, again = dirs[0] / rel, dirs[1] / rel
    checksum, exempt = spec.item_checksums.get(item.id), spec.provenance_exempt is not None
    scores = [
        _headline(family.score(item, f, None, rep, False, checksum=checksum, exempt=exempt))
        for f in (saved, again)
    ]
    try:
        difference = first_difference(saved / "events.jsonl", again / "events.jsonl")
    except (OSError, ValueError) as exc:  # a missing or unreadable trace on either side
        difference = f"cannot compare the traces: {exc}"
    return EpisodeCheck(
        path=rel,
        item_id=item.id,
        repetition=rep,
        identical=(difference is None) if mode == "trace" else None,
        difference=difference,
        scores_agree=scores[0] == scores[1],
        saved=scores[0],
        rerun=scores[1],
    )
