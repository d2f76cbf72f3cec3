"""The scorer version is recorded with every run and summary, and runs scored under
other rules are never resumed, rescored or compared silently (scoring/_version.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._model import ExecutionOptions, RunOptions
from duplexbench.campaign._rescore import rescore_run
from duplexbench.campaign._rundir import RunDirError
from duplexbench.campaign._runner import run_campaign
from duplexbench.report._analysis import analyze
from duplexbench.scoring import SCORER_VERSION

FIXTURES = Path(__file__).parents[1] / "fixtures"


def _opts(out: Path, condition: str = "text") -> RunOptions:
    one = ("order-revocation",)
    return RunOptions(str(FIXTURES), "noop", CONDITIONS[condition], repeats=1, items=one, out=out)


def _run(out: Path, condition: str = "text") -> Path:
    run_campaign(_opts(out, condition))
    return out


def _edit(path: Path, **changes: object) -> None:
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))


def test_the_run_and_its_summary_record_the_scorer_version(tmp_path: Path) -> None:
    run = _run(tmp_path / "run")
    assert json.loads((run / "campaign.json").read_text())["scorer_version"] == SCORER_VERSION
    summary = json.loads((run / "summary.json").read_text())
    assert summary["scorer_version"] == SCORER_VERSION
    assert not any("scorer version" in w for w in summary["trust"]["warnings"])


def test_a_rescore_under_other_rules_says_so(tmp_path: Path) -> None:
    run = _run(tmp_path / "run")
    _edit(run / "campaign.json", scorer_version=None)  # a run made before it was recorded
    summary = rescore_run(run).summary
    assert summary.scorer_version == SCORER_VERSION
    [warning] = [w for w in summary.trust.warnings if "scorer version" in w]
    assert f"rescored with scorer version {SCORER_VERSION}" in warning
    assert "did not record" in warning


def test_a_run_is_not_resumed_under_other_rules(tmp_path: Path) -> None:
    run = _run(tmp_path / "run")
    _edit(run / "campaign.json", scorer_version="1")
    with pytest.raises(RunDirError, match="scorer_version"):
        run_campaign(replace(_opts(run), execution=ExecutionOptions(resume=True)))


def test_a_report_never_compares_runs_of_different_scorer_versions(tmp_path: Path) -> None:
    _run(tmp_path / "text")
    old = _run(tmp_path / "clean", condition="clean")
    both = analyze([tmp_path])
    assert both["comparisons"] and not any("scorer versions" in p for p in both["problems"])
    _edit(old / "summary.json", scorer_version=None)  # a summary written before version 2
    report = analyze([tmp_path])
    assert any("different scorer versions" in p for p in report["problems"])
    assert any("conditions not compared" in p for p in report["problems"])
    assert report["comparisons"] == []
    assert {r["scorer_version"] for r in report["runs"]} == {SCORER_VERSION, "1"}
