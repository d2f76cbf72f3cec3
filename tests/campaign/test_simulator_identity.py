"""The simulated user's identity is recorded with every run and never pooled silently."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._model import ExecutionOptions, RunOptions
from duplexbench.campaign._rundir import RunDirError
from duplexbench.campaign._runner import run_campaign
from duplexbench.report._analysis import analyze
from duplexbench.scoring.summary_models import summary_data
from duplexbench.users._observer import ObserverConfig
from duplexbench.users._simulator import SIMULATOR_VERSION

FIXTURES = Path(__file__).parents[1] / "fixtures"


def _opts(out: Path, observer: ObserverConfig | None = None) -> RunOptions:
    return RunOptions(
        str(FIXTURES),
        agent="oracle",
        condition=CONDITIONS["text"],
        repeats=1,
        items=("order-revocation",),
        out=out,
        observer=observer or ObserverConfig(),
    )


def test_campaign_summary_and_trace_name_the_simulator(tmp_path: Path) -> None:
    result = run_campaign(_opts(tmp_path / "run"))
    spec = json.loads((tmp_path / "run" / "campaign.json").read_text())
    assert spec["simulator"]["simulator"] == SIMULATOR_VERSION
    assert spec["simulator"]["observer"] == "rules+semantic"
    assert summary_data(result.summary)["simulator"] == spec["simulator"]
    [events] = list((tmp_path / "run").glob("episodes/*/*/*/r0/events.jsonl"))
    condition = next(
        json.loads(line) for line in events.read_text().splitlines() if "episode.condition" in line
    )
    assert condition["data"]["simulator"] == spec["simulator"]


def test_a_run_is_not_resumed_with_another_observer(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_campaign(_opts(out))
    resumed = replace(
        _opts(out, ObserverConfig(kind="rules")), execution=ExecutionOptions(resume=True)
    )
    with pytest.raises(RunDirError, match="simulator"):
        run_campaign(resumed)


def test_a_report_over_runs_of_different_simulators_says_so(tmp_path: Path) -> None:
    run_campaign(_opts(tmp_path / "semantic"))
    run_campaign(_opts(tmp_path / "rules", ObserverConfig(kind="rules")))
    problems = analyze([tmp_path])["problems"]
    assert any("different simulated users" in p for p in problems)
    same = analyze([tmp_path / "semantic"])["problems"]
    assert not any("different simulated users" in p for p in same)
