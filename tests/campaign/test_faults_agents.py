"""Fault injection: agents that raise, disconnect, send garbage, flood or stall.

Each kind (the shipped `fault` agent, step and streaming forms) must end its
episode as an `error` naming the fault, be retried by the policy (counted in
the agent's `count_file`: one line per attempt), and leave the campaign to
finish with every other episode scored. Stalls are cut by the watchdog
(`--stall-timeout`, here 1 s). `faulthandler` guards against hangs (the
watchdog itself owns SIGALRM).
"""

from __future__ import annotations

import faulthandler
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import FIXTURES
from duplexbench.agents.registry import get_agent
from duplexbench.campaign.execution import ExecutionOptions
from duplexbench.campaign.plan import CampaignPlan, run_plan
from duplexbench.campaign.runner import RunOptions, run_campaign
from duplexbench.cli import main

ITEM = "meeting-scheduling"
GUARD_S = 120


@pytest.fixture(autouse=True)
def hang_guard() -> Iterator[None]:
    faulthandler.dump_traceback_later(GUARD_S, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


def one_episode(out: Path, agent: str, execution: ExecutionOptions, **kw: Any) -> RunOptions:
    """Options for one repetition of ITEM from the fixtures."""
    return RunOptions(
        str(FIXTURES), agent=agent, repeats=1, items=(ITEM,), out=out, execution=execution, **kw
    )


def run_fault(tmp_path: Path, spec: str, retries: int = 1, workers: int = 1) -> dict[str, object]:
    """Run the fault agent on one item once; the episode's result.json.

    The stall limit is 1 s for the stall kinds and 60 s for the others (a
    flood's played part goes through whisper, which can take over 1 s).
    """
    counts = tmp_path / "attempts"
    stall_s = 1.0 if "kind=stall" in spec else 60.0
    execution = ExecutionOptions(retries=retries, backoff_s=0.0, stall_s=stall_s, workers=workers)
    agent = f"{spec}&count_file={counts}&times=99"
    result = run_campaign(one_episode(tmp_path / "run", agent, execution, realtime_speed=50.0))
    assert len(result.scores) == 1
    assert counts.stat().st_size == retries + 1  # every attempt started the agent once
    (path,) = (tmp_path / "run").glob("episodes/*/*/*/r0/result.json")
    assert not list((tmp_path / "run").glob("episodes/**/*.partial"))
    data: dict[str, object] = json.loads(path.read_text())
    return data


CASES = [
    ("raise", "step", "RuntimeError: injected fault in step"),
    ("raise", "stream", "RuntimeError: injected fault in send_audio"),
    ("disconnect", "step", "ConnectionResetError: injected disconnect in step"),
    ("disconnect", "stream", "AgentError: connection closed by the peer (injected)"),
    ("garbage", "step", "AgentError: the agent sent a malformed event: an unknown event of type"),
    ("garbage", "stream", "AgentError: the agent sent a malformed event: an unknown event of type"),
    ("flood", "step", "AgentFlood: the agent queued more than 300 s of unplayed audio"),
    ("flood", "stream", "AgentFlood: the agent queued more than 300 s of unplayed audio"),
    ("stall", "step", "Stalled: no progress for 1 s: the agent (or the harness) stalled"),
    ("stall", "stream", "Stalled: send_audio did not return within 1 s: the agent stalled"),
    ("stall-connect", "stream", "Stalled: connect did not return within 1 s: the agent stalled"),
]


@pytest.mark.parametrize(("kind", "transport", "message"), CASES)
def test_each_fault_ends_as_an_error_and_is_retried(
    tmp_path: Path, kind: str, transport: str, message: str
) -> None:
    result = run_fault(tmp_path, f"fault?kind={kind}&transport={transport}")
    assert result["status"] == "error"
    assert str(result["error"]).startswith(message)
    assert result["ws"] is None and result["afa"] is None  # an error is never scored


def test_text_channel_faults(tmp_path: Path) -> None:
    for kind, message in [
        ("raise", "RuntimeError: injected fault in respond"),
        ("garbage", "AgentError: the agent sent a malformed turn: say must be text"),
        ("stall", "Stalled: no progress for 1 s"),
    ]:
        agent, execution = f"fault?kind={kind}&at_ms=0", ExecutionOptions(stall_s=1.0)
        options = one_episode(tmp_path / kind, agent, execution, condition="text")
        (score,) = run_campaign(options).scores
        assert score.status == "error" and (score.error or "").startswith(message), score.error


def test_a_retry_after_a_transient_fault_is_scored_normally(tmp_path: Path) -> None:
    counts = tmp_path / "attempts"
    agent = f"fault?kind=raise&times=1&count_file={counts}"
    execution = ExecutionOptions(retries=2, backoff_s=0.0)
    (score,) = run_campaign(one_episode(tmp_path / "run", agent, execution)).scores
    assert counts.stat().st_size == 2  # failed once, then ran clean
    assert score.status == "ok" and score.error is None
    assert score.ws == 0  # a silent agent fails the workflow, not the harness


def test_a_stalled_worker_process_is_stopped_too(tmp_path: Path) -> None:
    result = run_fault(tmp_path, "fault?kind=stall", retries=0, workers=2)
    assert str(result["error"]).startswith("Stalled: no progress for 1 s")


def test_a_campaign_with_faulty_agents_finishes(tmp_path: Path) -> None:
    plan = CampaignPlan.model_validate(
        {
            "suites": [str(FIXTURES)],
            "agents": ["oracle", "fault?kind=raise", "fault?kind=garbage"],
            "conditions": ["text", "clean"],
            "repetitions": 2,
            "items": [ITEM],
            "retries": 1,
            "backoff_s": 0,
        }
    )
    summary = run_plan(plan, tmp_path / "c", ExecutionOptions())
    runs = {(r["agent"], r["condition"]): r for r in summary["runs"]}
    assert len(runs) == 6
    for (agent, _), run in runs.items():
        expected_errors = 0 if agent == "oracle" else 2
        assert (run["episodes"], run["errors"]) == (2, expected_errors), run["error_reasons"]
        if agent == "oracle":
            assert run["workflows"]["pass_at_1"] == 1.0
    blocks = {c["agent"]: c["comparison"] for c in summary["comparisons"]}
    assert blocks["oracle"]["tasks"] == 1
    assert "no task is scored" in blocks["fault?kind=raise"]["not_compared"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("fault", "kind must be one of raise"),
        ("fault?kind=explode", "kind must be one of"),
        ("fault?kind=stall-connect", "does not fit kind"),
        ("fault?kind=raise&at_ms=soon", "at_ms must be a number"),
        ("fault?kind=raise&times=1", "times and count_file go together"),
        ("fault?kind=raise&color=red", "unknown options color"),
    ],
)
def test_bad_specs_are_named(spec: str, message: str) -> None:
    info, parsed = get_agent(spec)
    with pytest.raises(ValueError, match=message):
        info.create(parsed, "audio")


def test_stall_timeout_option_is_documented_and_checked() -> None:
    runner = CliRunner()
    assert "--stall-timeout" in runner.invoke(main, ["run", "--help"]).output
    bad = runner.invoke(main, ["run", "--suite", str(FIXTURES), "--stall-timeout", "0"])
    assert bad.exit_code == 2 and "--stall-timeout" in bad.output


def test_the_cli_prints_the_error_reason(tmp_path: Path) -> None:
    args = ["run", "--suite", str(FIXTURES), "--agent", "fault?kind=garbage", "-k", "1"]
    args += ["--items", ITEM, "--out", str(tmp_path / "run")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "errors (not failures)" in result.output
    assert "error: AgentError: the agent sent a malformed event: an unknown event" in result.output
