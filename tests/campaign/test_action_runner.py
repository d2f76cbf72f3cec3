"""Action campaigns end to end: run directory, per-action rates, re-scoring, CLI."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._model import RunOptions
from duplexbench.campaign._rescore import rescore_run
from duplexbench.campaign._rundir import read_campaign
from duplexbench.campaign._runner import run_campaign
from duplexbench.campaign._trust import PRIVILEGED_LABEL, EditedItems
from duplexbench.cli import main
from duplexbench.items._suite import SuiteManifest
from duplexbench.scoring.summary_models import summary_data
from duplexbench.speech._bank import SpeechBank
from duplexbench.suites._package import write_suite
from support.replay_builders import one_per_action

pytest.importorskip("piper", reason="the agents speak with piper:joe")


@pytest.fixture(scope="module")
def suite_dir(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("actions")
    bank_dir = root / "bank"
    items = one_per_action(SpeechBank(bank_dir))
    manifest = SuiteManifest(name="mini-actions", family="action", version="1")
    write_suite(root / "suite", manifest, items)
    return root / "suite", bank_dir


def run(suite_dir: tuple[Path, Path], agent: str, out: Path) -> dict[str, Any]:
    suite, bank = suite_dir
    opts = RunOptions(str(suite), agent=agent, repeats=1, speech_cache=bank, out=out)
    return summary_data(run_campaign(opts).summary)


def test_ideal_floor_executes_every_action(suite_dir: tuple[Path, Path], tmp_path: Path) -> None:
    summary = run(suite_dir, "ideal-floor", tmp_path / "run")
    assert summary["episodes"] == 8 and summary["errors"] == 0
    per_action = summary["actions"]["per_action"]
    assert {a: b["immediate"] for a, b in per_action.items()} == dict.fromkeys(per_action, 1.0)
    assert len(per_action) == 8
    assert per_action["stop"]["yield_latency_ms"]["n"] == 1
    assert read_campaign(tmp_path / "run").family == "action"
    # re-scoring from the files reproduces the summary
    assert summary_data(rescore_run(tmp_path / "run", write=False).summary) == summary


def test_silent_agent_waits_and_ignores_but_does_nothing_else(
    suite_dir: tuple[Path, Path], tmp_path: Path
) -> None:
    per_action = run(suite_dir, "silent", tmp_path / "run")["actions"]["per_action"]
    immediate = {a: b["immediate"] for a, b in per_action.items()}
    assert immediate["wait"] == immediate["ignore"] == 1.0
    for action in ("take_turn", "backchannel", "recover", "interrupt", "hold_floor"):
        assert immediate[action] == 0.0, action
    assert immediate["stop"] is None and per_action["stop"]["n_na"] == 1  # never speaking


def test_cli_run_and_score_an_action_suite(suite_dir: tuple[Path, Path], tmp_path: Path) -> None:
    suite, bank = suite_dir
    out = tmp_path / "run"
    args = ["run", "--suite", str(suite), "--agent", "silent", "-k", "1", "--out", str(out)]
    result = CliRunner().invoke(main, [*args, "--speech-cache", str(bank), "--json", "-q"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["family"] == "action" and summary["episodes"] == 8
    table = CliRunner().invoke(main, ["score", str(out)])
    assert table.exit_code == 0 and "take_turn" in table.output and "0.0%" in table.output


def test_conditions_that_cannot_apply_to_replays_are_refused(
    suite_dir: tuple[Path, Path], tmp_path: Path
) -> None:
    """Before any episode, naming the condition and why; a streaming agent is accepted
    (it fails only when it cannot connect)."""
    suite, _bank = suite_dir
    text = RunOptions(str(suite), agent="silent", condition=CONDITIONS["text"], out=tmp_path / "b")
    with pytest.raises(ValueError, match="'text' is text-only; action items replay audio"):
        run_campaign(text)
    polite = RunOptions(
        str(suite), agent="silent", condition=CONDITIONS["turn-taking"], out=tmp_path / "c"
    )
    with pytest.raises(ValueError, match="'turn-taking' changes only the user's turn-taking"):
        run_campaign(polite)
    assert not any((tmp_path / d).exists() for d in "bc")
    noise = tmp_path / "noise" / "dog_bark"
    noise.mkdir(parents=True)
    (noise / "broken.wav").write_bytes(b"RIFF not really")
    bad = RunOptions(str(suite), agent="silent", condition=CONDITIONS["noise"], out=tmp_path / "d")
    with pytest.raises(ValueError, match=r"broken\.wav"):  # one preflight for both families
        run_campaign(replace(bad, noise_dir=tmp_path / "noise"))
    assert not (tmp_path / "d").exists()


def test_action_runs_carry_the_trust_checks(suite_dir: tuple[Path, Path], tmp_path: Path) -> None:
    """ideal-floor is privileged: flagged; an edited action snapshot is refused by score."""
    out = tmp_path / "run"
    summary = run(suite_dir, "ideal-floor", out)
    assert json.loads((out / "campaign.json").read_text())["privileged"] is True
    assert summary["privileged"] is True and summary["trust"]["warnings"] == [PRIVILEGED_LABEL]
    spec = read_campaign(out)
    snapshot = out / "items" / f"{spec.items[0]}.json"
    data = json.loads(snapshot.read_text())
    data["context"] = data["context"] + " (edited)"
    snapshot.write_text(json.dumps(data))
    with pytest.raises(EditedItems, match=spec.items[0]):
        rescore_run(out, write=False)
    allowed = summary_data(rescore_run(out, write=False, allow_edited_items=True).summary)
    assert allowed["trust"]["items"]["status"] == "edited"
    assert list(allowed["trust"]["items"]["edited"]) == [spec.items[0]]


def test_swapped_action_traces_are_tampered_failures_naming_the_mismatch(
    suite_dir: tuple[Path, Path], tmp_path: Path
) -> None:
    """Regression: the action path scored each of two swapped traces on the other's
    item without a complaint (the workflow path refused them). Then they were left out
    as errors; now they are counted as failed trials, labelled tampered."""
    out = tmp_path / "run"
    run(suite_dir, "ideal-floor", out)
    spec = read_campaign(out)
    (a_id, _, a_rel), (b_id, _, b_rel) = list(spec.episodes())[:2]
    a, b = out / a_rel / "events.jsonl", out / b_rel / "events.jsonl"
    a_bytes = a.read_bytes()
    a.write_bytes(b.read_bytes())
    b.write_bytes(a_bytes)
    result = rescore_run(out, write=False)
    errors = {s.item_id: s.agent_error for s in result.scores if s.agent_error}
    mismatch = "tampered: trace does not match its folder: it holds item"
    assert errors == {
        a_id: f"{mismatch} {b_id!r} repetition 0",
        b_id: f"{mismatch} {a_id!r} repetition 0",
    }
    assert result.problems == [f"{a_rel}: {errors[a_id]}", f"{b_rel}: {errors[b_id]}"]
    assert result.summary.errors == 0 and result.summary.agent_errors == 2
    assert any(w.startswith("tampered traces") for w in result.summary.trust.warnings)


def test_two_conditions_compare_i_and_s_per_action(
    suite_dir: tuple[Path, Path], tmp_path: Path
) -> None:
    """`--condition clean,noise` on an action suite: a run per condition and the paired
    comparison per action; `score` on the folder rebuilds the same report."""
    suite, bank = suite_dir
    out = tmp_path / "cmp"
    args = ["run", "--suite", str(suite), "--agent", "ideal-floor", "-k", "1", "--out", str(out)]
    args += ["--speech-cache", str(bank), "--condition", "clean,noise", "-q"]
    shown = CliRunner().invoke(main, args)
    assert shown.exit_code == 0, shown.output
    assert "conditions compared per action" in shown.output
    report = json.loads((out / "comparison.json").read_text())
    block = report["comparison"]
    assert block["order"] == ["clean", "noise"] and len(block["actions"]) == 8
    stop = block["actions"]["stop"]["immediate"]
    assert stop["tasks"] == 1 and [t["a"] for t in stop["tests"]] == ["clean"]
    assert (out / "noise" / "episodes").is_dir()
    noisy = json.loads((out / "noise" / "summary.json").read_text())
    assert noisy["condition"] == "noise" and noisy["errors"] == noisy["agent_errors"] == 0
    line = list((out / "noise").glob("episodes/**/user_line.wav"))
    assert len(line) == 8  # every replay went over the degraded line
    rescored = CliRunner().invoke(main, ["score", str(out), "--json"])
    assert rescored.exit_code == 0, rescored.output
    assert json.loads(rescored.output)["comparison"] == block
    # the report shows the per-action comparison (a regression: it read it as a workflow one)
    html = tmp_path / "report.html"
    report = CliRunner().invoke(main, ["report", str(out), "--html", str(html)])
    assert report.exit_code == 0, report.output
    assert "conditions compared per action" in report.output
    assert "per-item I and S paired across conditions" in html.read_text()


def test_a_campaign_plan_runs_an_action_suite(suite_dir: tuple[Path, Path], tmp_path: Path) -> None:
    """Plans go through the family interface too: an action suite under two conditions,
    compared per action in campaign-summary.json, and the CLI's campaign table shows
    action runs (it read every run as a workflow run: KeyError 'workflows')."""
    suite, _ = suite_dir
    plan = {"agents": ["silent"], "suites": [str(suite)], "conditions": ["clean", "noise"]}
    (tmp_path / "plan.yaml").write_text(json.dumps({**plan, "repetitions": 1}))
    args = ["campaign", "run", str(tmp_path / "plan.yaml"), "--out", str(tmp_path / "c")]
    result = CliRunner().invoke(main, [*args, "-q"])
    assert result.exit_code == 0, result.output
    assert "mean I" in result.output and "I and S averaged over their actions" in result.output
    summary = json.loads((tmp_path / "c" / "campaign-summary.json").read_text())
    assert [r["condition"] for r in summary["runs"]] == ["clean", "noise"]
    assert all(r["family"] == "action" and r["episodes"] == 8 for r in summary["runs"])
    (comparison,) = summary["comparisons"]
    assert set(comparison["comparison"]["actions"]) == {
        "wait", "ignore", "take_turn", "backchannel", "stop", "hold_floor", "recover", "interrupt"
    }  # fmt: skip
