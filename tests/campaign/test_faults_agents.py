"""Fault injection: agents that raise, disconnect, send garbage, flood or stall.

Each kind (the shipped `fault` agent, step and streaming forms) must end its
episode as an agent error naming the fault, scored as a failed episode and
never retried (a retry must not choose between outcomes; counted in the
agent's `count_file`: one line per attempt), and leave the campaign to
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

from duplexbench.agents._registry import get_agent
from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._model import ExecutionOptions, RunOptions
from duplexbench.campaign._plan import CampaignPlan, run_plan
from duplexbench.campaign._runner import run_campaign
from duplexbench.cli import main
from support.fixtures import FIXTURES
from support.scores import workflow_scores

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


def run_fault(
    tmp_path: Path, spec: str, retries: int = 1, workers: int = 1, stall_s: float = 1.0
) -> dict[str, object]:
    """Run the fault agent on one item (one attempt: agent errors are not retried);
    the episode's result.json.

    The stall limit is 1 s for the stall kinds and 60 s for the others (a
    flood's played part goes through whisper, which can take over 1 s).
    """
    counts = tmp_path / "attempts"
    stall_s = stall_s if "kind=stall" in spec else 60.0
    execution = ExecutionOptions(retries=retries, backoff_s=0.0, stall_s=stall_s, workers=workers)
    agent = f"{spec}&count_file={counts}&times=99"
    result = run_campaign(one_episode(tmp_path / "run", agent, execution, realtime_speed=50.0))
    assert len(result.scores) == 1
    assert counts.stat().st_size == 1  # started once: an agent error is never retried
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
def test_each_fault_is_an_agent_error_scored_as_a_failure_and_not_retried(
    tmp_path: Path, kind: str, transport: str, message: str
) -> None:
    result = run_fault(tmp_path, f"fault?kind={kind}&transport={transport}")
    assert result["status"] == "ok" and result["error"] is None
    assert str(result["agent_error"]).startswith(message)
    assert result["ws"] == 0 and result["afa"] is not None  # scored over the artifact as left


def test_text_channel_faults(tmp_path: Path) -> None:
    for kind, message in [
        ("raise", "RuntimeError: injected fault in respond"),
        ("garbage", "AgentError: the agent sent a malformed turn: say must be text"),
        ("stall", "Stalled: no progress for 1 s"),
    ]:
        stall_s = 1.0 if kind == "stall" else 60.0  # a loaded machine can take 1 s to start
        agent, execution = f"fault?kind={kind}&at_ms=0", ExecutionOptions(stall_s=stall_s)
        options = one_episode(tmp_path / kind, agent, execution, condition=CONDITIONS["text"])
        (score,) = workflow_scores(run_campaign(options).scores)
        assert score.status == "ok" and score.ws == 0
        assert (score.agent_error or "").startswith(message), score.agent_error


def test_regression_an_agent_fault_is_not_retried_into_a_clean_run(tmp_path: Path) -> None:
    """Before: the fault was retried and the clean second attempt was the one scored,
    so retries chose between the agent's outcomes."""
    counts = tmp_path / "attempts"
    agent = f"fault?kind=raise&times=1&count_file={counts}"
    execution = ExecutionOptions(retries=2, backoff_s=0.0)
    result = run_campaign(one_episode(tmp_path / "run", agent, execution))
    (score,) = workflow_scores(result.scores)
    assert counts.stat().st_size == 1  # the fault stands: no second attempt
    assert score.status == "ok" and score.ws == 0 and score.error is None
    assert (score.agent_error or "").startswith("RuntimeError: injected fault")
    assert (result.summary.agent_errors, result.summary.errors) == (1, 0)
    assert result.summary.complete is True


def test_a_stalled_worker_process_is_stopped_too(tmp_path: Path) -> None:
    # 5 s: a spawned worker on a loaded machine can take over 1 s before the agent starts
    result = run_fault(tmp_path, "fault?kind=stall", retries=0, workers=2, stall_s=5.0)
    assert str(result["agent_error"]).startswith("Stalled: no progress for 5 s")


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
        expected = 0 if agent == "oracle" else 2  # agent errors: failures, not left out
        assert (run["episodes"], run["errors"], run["agent_errors"]) == (2, 0, expected)
        assert run["workflows"]["pass_at_1"] == (1.0 if agent == "oracle" else 0.0)
    blocks = {c["agent"]: c["comparison"] for c in summary["comparisons"]}
    assert blocks["oracle"]["tasks"] == 1 and blocks["fault?kind=raise"]["tasks"] == 1


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
    assert result.exit_code == 4, result.output  # its only episode errored: nothing measured
    assert "agent error: AgentError: the agent sent a malformed event: an unknown" in result.output
    assert "every episode errored" in result.output
