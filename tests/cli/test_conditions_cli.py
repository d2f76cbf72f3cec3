"""`run --condition a,b,c`: one run per condition, the comparison, the τ-Voice panel."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from duplexbench.audio._wav import write_wav
from duplexbench.cli import main
from duplexbench.trace._io import read_events
from support.chat_endpoint import ChatHandler, serve_chat
from support.fixtures import FIXTURES

PANEL = {
    "response_latency",
    "response_rate",
    "yield_latency",
    "yield_rate",
    "agent_interruption_rate",
    "selectivity_backchannel",
    "selectivity_vocal_tic",
    "selectivity_non_directed",
}


def test_several_conditions_are_run_into_one_folder_each_and_compared(tmp_path: Path) -> None:
    out = tmp_path / "cmp"
    args = ["run", "--suite", str(FIXTURES), "--agent", "oracle", "-k", "2", "--out", str(out)]
    result = CliRunner().invoke(main, [*args, "--condition", "text,clean,noise", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report == json.loads((out / "comparison.json").read_text())
    assert list(report["conditions"]) == ["text", "clean", "noise"]
    for name, summary in report["conditions"].items():
        assert summary["condition"] == name and summary["episodes"] == 10
        # every trace reads back (media time never went backwards: a bug once); on the
        # noisy line a burst can cut the scripted oracle and desync it (an agent error)
        assert not any("unreadable" in r for r in summary["error_reasons"])
        assert summary["errors"] == 0 or name == "noise", summary["error_reasons"]
        assert json.loads((out / name / "summary.json").read_text()) == summary
    comparison = report["comparison"]
    assert comparison["order"] == ["text", "clean", "noise"] and comparison["tasks"] == 5
    assert comparison["conditions"]["text"]["mean"] == 1.0
    assert comparison["conditions"]["clean"]["mean"] == 1.0
    assert comparison["retention"][0] == {"from": "text", "to": "clean", "ratio": 1.0}
    pairs = [(t["a"], t["b"]) for t in comparison["tests"]]
    assert pairs == [("text", "clean"), ("text", "noise"), ("clean", "noise")]
    text_clean = comparison["tests"][0]
    assert text_clean["p_value"] == 1.0 and text_clean["exact"] and not text_clean["significant"]
    afa = comparison["afa"]  # per-task AFA compared the same way
    assert afa["metric"] == "afa" and afa["conditions"]["clean"]["mean"] == 1.0
    assert [(t["a"], t["b"]) for t in afa["tests"]] == pairs
    assert set(comparison["interaction"]) == {"clean", "noise"}  # text has no audio
    for panel in comparison["interaction"].values():
        assert set(panel) == PANEL and all("count" in entry for entry in panel.values())
    assert report["conditions"]["text"]["interaction"] is None
    episode = out / "noise" / "episodes" / "oracle" / "noise" / "form-expense-correction" / "r0"
    assert (episode / "user_line.wav").exists()
    types = {e.type for e in read_events(episode / "events.jsonl")}
    assert {"episode.condition", "user.effect"} <= types
    clean = out / "clean" / "episodes" / "oracle" / "clean" / "form-expense-correction" / "r0"
    assert not (clean / "user_line.wav").exists()
    rescored = CliRunner().invoke(main, ["score", str(out), "--json", "--no-write"])
    assert rescored.exit_code == 0, rescored.output
    assert json.loads(rescored.stdout) == report  # the files reproduce every number


def test_human_comparison_and_bad_condition_lists(tmp_path: Path) -> None:
    out = tmp_path / "cmp"
    args = ["run", "--suite", str(FIXTURES), "--agent", "oracle", "-k", "1", "--out", str(out)]
    result = CliRunner().invoke(main, [*args, "--items", "order-revocation", "-c", "text,clean"])
    assert result.exit_code != 0  # -c is not an option: click says so
    result = CliRunner().invoke(
        main, [*args, "--items", "order-revocation", "--condition", "text,clean"]
    )
    assert result.exit_code == 0, result.output
    assert "conditions compared on 1 tasks" in result.output
    assert "paired permutation tests" in result.output
    for bad, message in [("clean,loud", "unknown condition 'loud'"), ("clean,clean", "twice")]:
        refused = CliRunner().invoke(main, [*args, "--condition", bad, "--overwrite"])
        assert refused.exit_code != 0 and message in refused.output


def test_user_model_is_recorded_and_its_options_checked(tmp_path: Path) -> None:
    out = tmp_path / "tt"
    args = ["run", "--suite", str(FIXTURES), "--agent", "oracle", "-k", "1", "--out", str(out)]
    args += ["--items", "form-expense-correction", "--condition", "turn-taking"]
    lonely = CliRunner().invoke(main, [*args, "--user-model", "m"])
    assert lonely.exit_code != 0 and "needs --user-base-url" in lonely.output
    for base_url in serve_chat():
        ChatHandler.replies += ['{"answer": "NO", "reason": "listening"}'] * 50
        ok = CliRunner().invoke(main, [*args, "--user-model", "m", "--user-base-url", base_url])
        assert ok.exit_code == 0, ok.output
    episode = out / "episodes" / "oracle" / "turn-taking" / "form-expense-correction" / "r0"
    setup = next(e for e in read_events(episode / "events.jsonl") if e.type == "episode.condition")
    assert setup.data.turn_decider == "llm:m"


def test_noise_dir_recordings_are_used_and_bad_ones_refused_before_running(
    tmp_path: Path,
) -> None:
    noise = tmp_path / "noise"
    rng = np.random.default_rng(0)
    for kind in ("indoor", "outdoor"):
        (noise / kind).mkdir(parents=True)
        samples = (rng.standard_normal(8000 * 3) * 3000).astype(np.int16)
        write_wav(noise / kind / "street.wav", [samples], 8000)  # resampled to 16 kHz
    out = tmp_path / "rec"
    args = ["run", "--suite", str(FIXTURES), "--agent", "oracle", "-k", "1", "--out", str(out)]
    args += ["--items", "order-revocation", "--condition", "noise", "--noise-dir", str(noise)]
    ok = CliRunner().invoke(main, args)
    assert ok.exit_code == 0, ok.output
    episode = out / "episodes" / "oracle" / "noise" / "order-revocation" / "r0"
    setup = next(e for e in read_events(episode / "events.jsonl") if e.type == "episode.condition")
    assert setup.data.noise_dir == str(noise.resolve())
    (noise / "dog_bark").mkdir()
    (noise / "dog_bark" / "broken.wav").write_bytes(b"RIFF not really")
    args[args.index(str(out))] = str(tmp_path / "bad")
    bad = CliRunner().invoke(main, args)
    assert bad.exit_code != 0 and "broken.wav" in bad.output
    assert not (tmp_path / "bad").exists()
    (noise / "dog_bark" / "broken.wav").unlink()
    (noise / "dog_bark" / "escape.wav").symlink_to(noise / "indoor" / ".." / ".." / "outside.wav")
    write_wav(tmp_path / "outside.wav", [samples], 8000)
    escaped = CliRunner().invoke(main, args)
    assert escaped.exit_code != 0 and "escape.wav" in escaped.output, escaped.output
    assert "outside" in escaped.output and not (tmp_path / "bad").exists()
