"""Campaign plans: agents x suites x conditions x repetitions, local and Ray, resumable."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duplexbench.campaign._model import ExecutionOptions
from duplexbench.campaign._plan import CampaignPlan, load_plan, run_plan
from duplexbench.campaign._rundir import RunDirError
from duplexbench.cli import main
from duplexbench.items._errors import ItemError
from support.fixtures import FIXTURES

PLAN = {
    "agents": ["oracle", "noop"],
    "suites": [str(FIXTURES)],
    "conditions": ["text", "clean"],
    "repetitions": 2,
    "items": ["order-revocation", "meeting-scheduling"],
    "retries": 0,
}


def scores(summary: dict[str, Any]) -> list[tuple[str, str, Any, Any]]:
    return [
        (r["agent"], r["condition"], r["workflows"]["pass_at_1"], r["workflows"]["afa"])
        for r in summary["runs"]
    ]


def test_plan_runs_every_combination_and_compares_conditions(tmp_path: Path) -> None:
    summary = run_plan(CampaignPlan.model_validate(PLAN), tmp_path / "c", ExecutionOptions())
    assert [(a, c) for a, c, _, _ in scores(summary)] == [
        ("oracle", "text"),
        ("oracle", "clean"),
        ("noop", "text"),
        ("noop", "clean"),
    ]
    assert [p for _, _, p, _ in scores(summary)] == [1.0, 1.0, 0.0, 0.0]
    assert all(r["episodes"] == 4 and r["errors"] == 0 for r in summary["runs"])
    assert [c["agent"] for c in summary["comparisons"]] == ["oracle", "noop"]
    run = tmp_path / "c" / "runs" / "fixtures" / "oracle" / "clean"
    assert (run / "summary.json").exists() and (run / "campaign.json").exists()
    assert json.loads((tmp_path / "c" / "campaign-summary.json").read_text()) == summary


def test_rerun_needs_resume_and_then_skips_everything(tmp_path: Path) -> None:
    plan, out = CampaignPlan.model_validate(PLAN | {"agents": ["oracle"]}), tmp_path / "c"
    first = run_plan(plan, out, ExecutionOptions())
    with pytest.raises(RunDirError, match="--resume"):
        run_plan(plan, out, ExecutionOptions())
    ran: list[int] = []
    again = run_plan(plan, out, ExecutionOptions(resume=True), lambda d, t, s: ran.append(d))
    assert ran == [] and again == first


def test_bad_plans_are_refused_with_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "plan.yaml"
    bad.write_text("agents: [oracle]\nsuites: [workflows-mini]\nrepetition: 3\n")
    with pytest.raises(RunDirError, match="repetition"):
        load_plan(bad)
    bad.write_text("agents: [oracle]\nsuites: [workflows-mini]\nconditions: [loud]\n")
    with pytest.raises(ValueError, match="unknown condition 'loud'"):
        load_plan(bad)
    bad.write_text("agents: [oracle]\nsuites: [no-such-suite]\n")
    with pytest.raises(ItemError, match="no such file, folder or built-in suite"):
        load_plan(bad)
    good = tmp_path / "actions.yaml"  # action suites run in plans too (one family interface)
    good.write_text("agents: [ideal-floor]\nsuites: [actions-v1]\nconditions: [clean, noise]\n")
    assert load_plan(good).suites == ["actions-v1"]


def test_local_and_ray_backends_give_the_same_scores(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    plan_file = tmp_path / "plan.yaml"
    plan_file.write_text(json.dumps(PLAN))
    outputs = []
    for backend in ("local", "ray"):
        out = tmp_path / backend
        args = ["campaign", "run", str(plan_file), "--out", str(out), "--json", "-q"]
        result = CliRunner().invoke(main, [*args, "--backend", backend, "--workers", "2"])
        assert result.exit_code == 0, result.output
        outputs.append(json.loads(result.stdout))
    assert scores(outputs[0]) == scores(outputs[1])
    assert [r["workflows"] for r in outputs[0]["runs"]] == [
        r["workflows"] for r in outputs[1]["runs"]
    ]
