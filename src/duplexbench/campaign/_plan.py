"""A campaign plan: agents x suites x conditions x repetitions, run as one resumable job.

```yaml
agents: [reference, oracle]
suites: [workflows-mini]
conditions: [clean, realistic]
repetitions: 3
seed: 0
limits: {"openai-realtime?model=gpt-realtime": 2}   # most episodes of an agent at once
retries: 2
```

Layout: `OUT/plan.json` (the plan as run), `OUT/runs/<suite>/<agent>/<condition>/`
(each an ordinary run directory: campaign.json, items, episodes, results.jsonl,
index, summary.json) and `OUT/campaign-summary.json` (every run's summary and,
for each suite and agent run under several conditions, their comparison).
Episodes are enumerated in a fixed order (suite, agent, condition, item,
repetition); each repetition has its own simulator seed derived from `seed`.
All runs share one backend, so workers stay busy across runs; rerunning the
same command resumes where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from duplexbench.campaign._ahead import Bars
from duplexbench.campaign._conditions import parse_conditions
from duplexbench.campaign._families import get_family
from duplexbench.campaign._lock import run_lock
from duplexbench.campaign._model import ExecutionOptions, RunOptions, RunResult, Runs, Score
from duplexbench.campaign._rundir import RunDirError, check_writable, write_json
from duplexbench.campaign._runner import complete_runs, start_runs
from duplexbench.campaign._spec import JudgeConfig, slug
from duplexbench.items import ItemError, read_document
from duplexbench.scoring import summary_data
from duplexbench.suites import resolve_suite

MAX_PLAN_BYTES = 1024 * 1024
"""A campaign plan file (a typical one is a few hundred bytes)."""


class CampaignPlan(BaseModel):
    model_config = ConfigDict(extra="forbid")
    agents: list[str] = Field(min_length=1)
    suites: list[str] = Field(min_length=1, description="Built-in suite names or item folders.")
    conditions: list[str] = Field(default_factory=lambda: ["clean"], min_length=1)
    repetitions: int = Field(3, ge=1, le=1000)
    seed: int = 0
    items: list[str] = Field(default_factory=list, description="Item ids to run (default: all).")
    limit: int | None = Field(None, ge=1, description="Only the first N items of each suite.")
    limits: dict[str, int] = Field(
        default_factory=dict, description="Agent spec -> most of its episodes at once."
    )
    retries: int = Field(2, ge=0, le=20)
    backoff_s: float = Field(1.0, ge=0.0)
    frame_ms: int = Field(20, ge=10, le=1000)
    judge: JudgeConfig | None = None


def load_plan(path: Path) -> CampaignPlan:
    """Read a plan (YAML or JSON); a bad one is a RunDirError naming the file and field.

    Read like an item file (safe YAML: no Python tags, aliases or duplicate keys;
    at most :data:`MAX_PLAN_BYTES`). Its `suites` are chosen by whoever runs the
    plan, like `--suite`: built-in names or paths (absolute, or relative to the
    working folder); the files inside each suite are contained by the suite loader.
    """
    try:
        data = read_document(path, MAX_PLAN_BYTES, "campaign plan")
    except ItemError as exc:
        why = "; ".join(f"{p.path}: {p.message}" if p.path else p.message for p in exc.problems)
        raise RunDirError(f"{path}: cannot read the campaign plan: {why}") from None
    try:
        plan = CampaignPlan.model_validate(data)
    except ValidationError as exc:
        raise RunDirError(f"{path}: invalid campaign plan:\n{exc}") from None
    parse_conditions(",".join(plan.conditions))  # unknown names fail here, before any run
    for suite in plan.suites:
        resolve_suite(suite)  # an unknown suite fails here, naming the built-in ones
    return plan


def _options(plan: CampaignPlan, out: Path, ex: ExecutionOptions) -> list[RunOptions]:
    runs = []
    conditions = parse_conditions(",".join(plan.conditions))
    for suite in plan.suites:
        for agent in plan.agents:
            for condition in conditions:
                name = condition.name
                folder = out / "runs" / slug(Path(suite).name) / slug(agent) / slug(name)
                runs.append(
                    RunOptions(
                        str(resolve_suite(suite)),
                        agent=agent,
                        condition=condition,
                        repeats=plan.repetitions,
                        seed=plan.seed,
                        items=tuple(plan.items),
                        limit=plan.limit,
                        out=folder,
                        judge=plan.judge,
                        frame_ms=plan.frame_ms,
                        execution=ex,
                    )
                )
    return runs


def run_plan(
    plan: CampaignPlan,
    out: Path,
    ex: ExecutionOptions,
    progress: Callable[[int, int, Score], None] | None = None,
    bars: Bars | None = None,
) -> dict[str, Any]:
    """Run (or resume) the whole plan into `out`; the campaign summary.

    Every clip the audio runs need is rendered first (`campaign/_ahead.py`; `bars`
    makes its progress bars)."""
    ex = replace(ex, retries=plan.retries, backoff_s=plan.backoff_s, limits=plan.limits)
    check_writable(out)  # a StorageError naming the folder, not an OSError
    with run_lock(out):
        resume = (out / "plan.json").exists()
        if resume and not ex.resume:
            raise RunDirError(f"{out} holds a campaign; add --resume to continue it")
        targets = start_runs(_options(plan, out, replace(ex, resume=resume)))
        write_json(out / "plan.json", plan.model_dump(mode="json"))
        results = complete_runs(targets, ex, progress, bars)
    summary = _campaign_summary(plan, results)
    write_json(out / "campaign-summary.json", summary)
    return summary


def _campaign_summary(plan: CampaignPlan, results: list[RunResult]) -> dict[str, Any]:
    runs = [summary_data(r.summary) | {"run_dir": str(r.run_dir)} for r in results]
    comparisons = []
    if len(plan.conditions) > 1:
        by_key: dict[tuple[str, str], dict[str, RunResult]] = {}
        for r in results:
            key = (r.summary.suite, r.summary.agent)
            by_key.setdefault(key, {})[r.summary.condition] = r
        for (suite, agent), per in by_key.items():
            pairs: Runs = {name: (res.summary, res.scores) for name, res in per.items()}
            family = get_family(next(iter(per.values())).family)
            block = family.compare(pairs, plan.conditions, plan.seed)
            comparisons.append({"suite": suite, "agent": agent, "comparison": block})
    return {"plan": plan.model_dump(mode="json"), "runs": runs, "comparisons": comparisons}
