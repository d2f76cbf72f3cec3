"""Errors policy in campaigns: only harness errors are retried and left out (and leave
the run incomplete everywhere it is shown); agent errors are failures; exit statuses."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duplexbench.agents._audio_builtin import SilentAgent
from duplexbench.agents._protocol import ToolResultMessage
from duplexbench.audio._frames import AudioFrame
from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._action_scoring import (
    save_action_episode,
    score_action_trace,
    summarize_actions,
)
from duplexbench.campaign._model import ExecutionOptions, RunOptions
from duplexbench.campaign._runner import run_campaign
from duplexbench.campaign._spec import CampaignSpec
from duplexbench.cli import main
from duplexbench.cli._workflow_table import print_scorecard
from duplexbench.items._action import ActionItem
from duplexbench.orchestrator._replay import ActionSetup, ReplayConfig
from duplexbench.orchestrator._replay_loop import ActionEpisode
from duplexbench.orchestrator._text_loop import TextEpisode
from duplexbench.report._analysis import analyze
from duplexbench.report._html import render_html
from duplexbench.scoring.summary_models import summary_data
from duplexbench.speech._bank import SpeechBank
from support.fixtures import FIXTURES
from support.replay_builders import Timeline, gap, item
from support.scores import workflow_scores, workflow_summary

MEETING, ORDER = "meeting-scheduling", "order-revocation"


def test_a_harness_error_is_retried_left_out_and_marks_the_run_incomplete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    original = TextEpisode._user_turn
    attempts: dict[str, int] = {}

    def user_side(self: TextEpisode, plans: Any, opening: bool = False) -> Any:
        if opening:
            attempts[self.item.id] = attempts.get(self.item.id, 0) + 1
        if self.item.id == ORDER and not opening:  # the harness fails on this item, always
            raise OSError("No space left on device")
        return original(self, plans, opening)

    monkeypatch.setattr(TextEpisode, "_user_turn", user_side)
    execution = ExecutionOptions(retries=2, backoff_s=0.0)
    options = RunOptions(
        str(FIXTURES), agent="oracle", condition=CONDITIONS["text"], repeats=1,
        items=(MEETING, ORDER),
        out=tmp_path / "run", execution=execution,
    )  # fmt: skip
    result = run_campaign(options)
    assert attempts == {MEETING: 1, ORDER: 3}  # retried twice, the clean item never
    by_item = {s.item_id: s for s in workflow_scores(result.scores)}
    assert by_item[ORDER].status == "error" and by_item[ORDER].ws is None
    assert by_item[ORDER].error == "OSError: No space left on device"
    summary = summary_data(result.summary)
    assert (summary["errors"], summary["agent_errors"], summary["complete"]) == (1, 0, False)
    assert summary["workflows"]["runs"] == 1 and summary["workflows"]["pass_at_1"] == 1.0
    print_scorecard(workflow_summary(result.summary))
    out = capsys.readouterr().out
    assert "INCOMPLETE: 1 episode(s) left out by harness errors" in out
    assert "error: OSError: No space left on device" in out
    page = render_html(analyze([tmp_path / "run"]), tmp_path)
    assert "incomplete: 1 episode(s) left out by harness errors" in page
    assert "1 · incomplete" in page


def test_an_agent_error_is_reported_and_complete(tmp_path: Path) -> None:
    counts = tmp_path / "attempts"
    agent = f"fault?kind=raise&at_ms=0&times=1&count_file={counts}"
    options = RunOptions(
        str(FIXTURES), agent=agent, condition=CONDITIONS["text"], repeats=1, items=(MEETING, ORDER),
        out=tmp_path / "run", execution=ExecutionOptions(retries=3, backoff_s=0.0),
    )  # fmt: skip
    result = run_campaign(options)
    assert counts.stat().st_size == 2  # two episodes, one attempt each
    summary = summary_data(result.summary)
    assert (summary["errors"], summary["agent_errors"], summary["complete"]) == (0, 1, True)
    assert summary["agent_error_reasons"][0].startswith("RuntimeError: injected fault")
    assert summary["workflows"]["runs"] == 2  # the errored episode is a failed run
    page = render_html(analyze([tmp_path / "run"]), tmp_path)
    assert "1 agent error(s), scored as failed episodes: RuntimeError: injected fault" in page


def _run(tmp_path: Path, name: str, agent: str, items: str, *flags: str) -> int:
    args = ["run", "--suite", str(FIXTURES), "--agent", agent, "--condition", "text"]
    args += ["-k", "1", "--items", items, "--out", str(tmp_path / name), "--quiet", *flags]
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert (tmp_path / name / "summary.json").exists()  # written whatever the exit status
    return result.exit_code


def test_fail_on_error_exit_status(tmp_path: Path) -> None:
    counts = tmp_path / "attempts"
    faulty = f"fault?kind=raise&at_ms=0&times=1&count_file={counts}"
    both = f"{MEETING},{ORDER}"
    assert _run(tmp_path, "a", faulty, both) == 0  # one agent error of two: a result
    counts.unlink()
    assert _run(tmp_path, "b", faulty, both, "--fail-on-error") == 3
    assert _run(tmp_path, "c", "oracle", MEETING, "--fail-on-error") == 0


def test_every_episode_errored_exits_non_zero(tmp_path: Path) -> None:
    assert _run(tmp_path, "a", "fault?kind=raise&at_ms=0", f"{MEETING},{ORDER}") == 4
    result = CliRunner().invoke(main, ["score", str(tmp_path / "a")])
    assert result.exit_code == 4, result.output
    assert "every episode errored" in result.output


class _Crashes(SilentAgent):
    """Listens, then raises from its step at 1 s (a bug in the agent)."""

    def step(self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]) -> list[Any]:
        if frame.t_ms >= 1000:
            raise RuntimeError("the agent crashed")
        return []


def test_an_action_episode_the_agent_crashed_is_a_failed_trial(tmp_path: Path) -> None:
    bank = SpeechBank(tmp_path / "bank")
    timeline = Timeline(bank)
    a = timeline.add("I was thinking that next summer we could go")
    b = timeline.add("to the coast for a week.", gap_ms=1500)
    it = item("wait.intra_sentential_pause", timeline.segments, wait_interval=gap(a, b))
    setup = ActionSetup(it, "checksum", "test", "agent")
    config = ReplayConfig(asr=None, agent_voice="synthetic:tenor")
    record = ActionEpisode(setup, _Crashes(), bank, config=config).run()
    assert record.error_kind == "agent"
    folder = tmp_path / "episode"
    folder.mkdir()
    save_action_episode(folder, record)
    score = score_action_trace(it, folder, 0)
    assert score.status == "ok" and score.immediate is False
    assert score.agent_error == "RuntimeError: the agent crashed"
    assert score.follow_through is None  # no follow-through without immediate success
    summary = summarize_actions(_spec(it), [score])
    wait = summary["actions"]["per_action"]["wait"]
    assert (wait["immediate"], wait["n"], wait["errors"]) == (0.0, 1, 0)  # a failed trial
    assert (summary["agent_errors"], summary["errors"], summary["complete"]) == (1, 0, True)


def _spec(it: ActionItem) -> CampaignSpec:
    return CampaignSpec(
        duplexbench_version="test", suite="t", family="action", suite_version="1",
        suite_path="t", agent="crashes", condition="clean", repeats=1, items=[it.id],
        item_checksums={it.id: "checksum"},
    )  # fmt: skip
