"""The command line, end to end, through click's runner (the Done-when commands)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from click.testing import CliRunner, Result

from duplexbench.audio._wav import read_wav
from duplexbench.cli import main
from duplexbench.speech._tts import SpeechUnavailable
from support.fixtures import FIXTURES


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def run_json(tmp_path: Path, agent: str, *extra: str) -> tuple[dict[str, Any], Path]:
    out = tmp_path / agent
    result = invoke(
        "run",
        "--suite",
        str(FIXTURES),
        "--agent",
        agent,
        "--repeats",
        "3",
        "--out",
        str(out),
        "--json",
        *extra,
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), out


def test_oracle_passes_everything_in_audio_and_score_reproduces_it(tmp_path: Path) -> None:
    summary, out = run_json(tmp_path, "oracle")
    wf = summary["workflows"]
    assert summary["condition"] == "clean"
    assert summary["episodes"] == 15 and summary["errors"] == 0
    assert wf["pass_at_1"] == 1.0 and wf["pass_at_k"] == 1.0 and wf["reliable_at_k"] == 1.0
    assert wf["gates"] == {"TS": 1.0, "PV": 1.0, "AC": 1.0, "AV": 1.0}
    assert wf["afa"] == 1.0 and wf["k"] == 3 and wf["k_of_n"] == {"3": 5}
    # the correction and the revocation barge in while the oracle talks; it yields
    assert summary["floor"]["barge_ins"] == 6 and summary["floor"]["yield_rate"] == 1.0
    assert summary["floor"]["median_stop_latency_ms"] < 650
    assert wf["correction_uptake"]["corrected_fields"] == 6
    assert wf["correction_uptake"]["afa_corrected_fields"] == 1.0
    rescored = invoke("score", str(out), "--json")
    assert rescored.exit_code == 0
    assert json.loads(rescored.stdout) == summary
    assert json.loads((out / "summary.json").read_text()) == summary
    episode = out / "episodes" / "oracle" / "clean" / "form-expense-correction" / "r2"
    names = {p.name for p in episode.iterdir()}
    assert names == {"events.jsonl", "workbench.json", "result.json", "audio.wav"}
    channels, rate = read_wav(episode / "audio.wav")
    assert len(channels) == 2 and rate == 16_000
    # the correction overlaps the oracle's speech in the recording
    events = [json.loads(line) for line in (episode / "events.jsonl").read_text().splitlines()]
    [overlap] = [e["data"] for e in events if e["type"] == "floor.overlap"]
    user, agent = channels
    span = slice(overlap["start_ms"] * 16, overlap["end_ms"] * 16)
    assert np.abs(user[span]).max() > 1000 and np.abs(agent[span]).max() > 1000
    [yielded] = [e["data"] for e in events if e["type"] == "floor.yield"]
    assert yielded["yielded"] and 0 < yielded["stop_latency_ms"] <= 650

    # the same command again: byte-identical user channels and identical scores
    again, out2 = run_json(tmp_path / "again", "oracle")
    assert again == summary
    for first in sorted(out.glob("episodes/*/*/*/*/audio.wav")):
        second = out2 / first.relative_to(out)
        assert read_wav(first)[0][0].tobytes() == read_wav(second)[0][0].tobytes()


def test_text_condition_is_the_text_only_control(tmp_path: Path) -> None:
    summary, out = run_json(tmp_path, "oracle", "--condition", "text")
    assert summary["condition"] == "text" and summary["workflows"]["pass_at_1"] == 1.0
    assert summary["floor"] is None
    episode = out / "episodes" / "oracle" / "text" / "order-revocation" / "r0"
    assert not (episode / "audio.wav").exists()


def test_noop_fails_everything(tmp_path: Path) -> None:
    summary, _ = run_json(tmp_path, "noop")
    assert summary["workflows"]["pass_at_1"] == 0.0
    assert summary["workflows"]["pass_at_k"] == 0.0
    assert summary["errors"] == 0


def test_corrupt_trace_is_a_tampered_failure_for_that_episode_only(tmp_path: Path) -> None:
    _, out = run_json(tmp_path, "oracle", "--items", "airline-rebooking,order-revocation")
    events = out / "episodes" / "oracle" / "clean" / "airline-rebooking" / "r1" / "events.jsonl"
    events.write_text(events.read_text()[:-40])
    result = CliRunner().invoke(main, ["score", str(out), "--json"])
    assert result.exit_code == 0
    rescored = json.loads(result.stdout)
    # written atomically, so changed after the run: counted as a failure, never left out
    assert rescored["episodes"] == 6 and rescored["errors"] == 0 and rescored["tampered"] == 1
    assert rescored["workflows"]["runs"] == 6
    assert rescored["workflows"]["pass_at_1"] == pytest.approx(5 / 6, abs=1e-6)
    assert "airline-rebooking/r1" in result.stderr and "tampered: unreadable trace" in result.stderr
    assert any(w.startswith("tampered traces") for w in rescored["trust"]["warnings"])


def test_human_scorecard(tmp_path: Path) -> None:
    result = invoke(
        "run",
        "--suite",
        str(FIXTURES / "airline-rebooking.yaml"),
        "--repeats",
        "1",
        "--out",
        str(tmp_path / "r"),
    )
    assert result.exit_code == 0
    assert "Pass@1" in result.stdout and "Reliable@1" in result.stdout
    assert "run directory" in result.stderr


def test_existing_run_directory_is_protected(tmp_path: Path) -> None:
    out = tmp_path / "r"
    args = [
        "run",
        "--suite",
        str(FIXTURES / "airline-rebooking.yaml"),
        "-k",
        "1",
        "--out",
        str(out),
        "--json",
    ]
    assert invoke(*args).exit_code == 0
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 2 and "not empty" in again.stderr
    assert invoke(*args, "--overwrite").exit_code == 0
    other = tmp_path / "precious"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    refused = CliRunner().invoke(main, [*args[:-3], str(other), "--overwrite"])
    assert refused.exit_code == 2 and (other / "notes.txt").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agent", "gpt-9"], "unknown agent 'gpt-9'"),
        (["--condition", "loud"], "unknown condition 'loud'"),
        (["--items", "nope"], "no such item"),
    ],
)
def test_bad_run_options_give_clear_errors(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(
        main, ["run", "--suite", str(FIXTURES), "--out", str(tmp_path / "r"), *args]
    )
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_suite_validate_lists_every_problem(tmp_path: Path) -> None:
    data = yaml.safe_load((FIXTURES / "benefits-enrollment.yaml").read_text())
    data["artifacts"][0]["fields"][3]["grader"] = "fuzzy"
    data["taxonomy"]["risk"] = "extreme"
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(data))
    (tmp_path / "broken.yaml").write_text("id: [unclosed\n")
    result = CliRunner().invoke(main, ["suite", "validate", str(tmp_path)])
    assert result.exit_code == 1
    assert "bad.yaml: artifacts[0].fields[3].grader:" in result.stdout
    assert "bad.yaml: taxonomy.risk:" in result.stdout
    assert "broken.yaml: line 2 column 1: invalid YAML" in result.stdout
    assert "Traceback" not in result.output
    as_json = CliRunner().invoke(main, ["suite", "validate", str(tmp_path), "--json"])
    assert as_json.exit_code == 1
    report = json.loads(as_json.stdout)
    assert report["valid"] is False and len(report["problems"]) == 3


def test_suite_validate_ok_and_run_on_invalid_suite(tmp_path: Path) -> None:
    ok = json.loads(invoke("suite", "validate", str(FIXTURES), "--json").stdout)
    assert (ok["valid"], ok["suite"], ok["items"], ok["problems"]) == (True, "fixtures", 5, [])
    assert all(c == {"passed": 5, "failed": 0} for c in ok["checks"].values())
    assert set(ok["checks"]) >= {"oracle passes", "noop fails", "silent fails", "shortcut fails"}
    (tmp_path / "bad.yaml").write_text("id: x\n")
    result = CliRunner().invoke(
        main, ["run", "--suite", str(tmp_path), "--out", str(tmp_path / "r")]
    )
    assert result.exit_code == 2 and "invalid suite" in result.stderr


def test_score_on_something_that_is_not_a_run(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["score", str(tmp_path)])
    assert result.exit_code == 2 and "not a run directory" in result.stderr


def test_agents_list_and_help() -> None:
    listed = json.loads(invoke("agents", "list", "--json").stdout)
    names = {a["name"]: a for a in listed}
    assert {"oracle", "noop"} <= set(names) and names["oracle"]["privileged"] is True
    for verb in (["run"], ["score"], ["suite", "validate"], ["agents", "list"]):
        assert invoke(*verb, "--help").exit_code == 0


def test_judge_cache_through_the_cli(tmp_path: Path) -> None:
    summary, _ = run_json(
        tmp_path, "noop", "--items", "meeting-scheduling", "--judge-model", "judge-x"
    )
    assert summary["judge"] == {"model": "judge-x", "prompt_version": "field-judge-v2"}
    assert summary["workflows"]["afa_deterministic"] == 0.0
    result = CliRunner().invoke(main, ["run", "--suite", str(FIXTURES), "--judge-cache", "x"])
    assert result.exit_code == 2 and "need --judge-model" in result.output


def test_suite_validate_runs_the_oracle(tmp_path: Path) -> None:
    data = yaml.safe_load((FIXTURES / "airline-rebooking.yaml").read_text())
    data["gold"]["final_database"]["reservations"][0]["bags"] = 3
    (tmp_path / "item.yaml").write_text(yaml.safe_dump(data))
    result = CliRunner().invoke(main, ["suite", "validate", str(tmp_path)])
    assert result.exit_code == 1
    assert "item.yaml: reference: the oracle does not pass" in result.stdout
    assert "TS final_database" in result.stdout
    skipped = CliRunner().invoke(main, ["suite", "validate", str(tmp_path), "--no-solve"])
    assert skipped.exit_code == 0


def test_default_run_directory_is_never_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    item = str(FIXTURES / "airline-rebooking.yaml")
    args = ["run", "--suite", item, "--agent", "oracle", "-k", "1", "-q"]
    assert invoke(*args).exit_code == 0
    assert invoke(*args).exit_code == 0
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == [
        "airline-rebooking-oracle",
        "airline-rebooking-oracle-2",
    ]


def test_suite_build_prerenders_every_clip(tmp_path: Path) -> None:
    bank = tmp_path / "bank"
    args = [
        "suite",
        "build",
        str(FIXTURES / "airline-rebooking.yaml"),
        "--speech-cache",
        str(bank),
        "--voice",
        "synthetic:alto",
        "--json",
    ]
    first = json.loads(invoke(*args).stdout)
    assert first["failed"] == 0 and first["rendered"] == first["clips"] > 10
    again = json.loads(invoke(*args).stdout)
    assert again["rendered"] == 0 and again["cached"] == first["clips"]
    assert len(list(bank.glob("*/*.wav"))) == first["clips"]
    bad = CliRunner().invoke(main, [*args[:-3], "--voice", "nonsense"])
    assert bad.exit_code == 2 and "engine:voice" in bad.stderr


def test_channel_and_speech_problems_are_reported_before_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text_only = CliRunner().invoke(
        main,
        [
            "run",
            "--suite",
            str(FIXTURES),
            "--agent",
            "echo",
            "--condition",
            "text",
            "--out",
            str(tmp_path / "a"),
        ],
    )
    assert text_only.exit_code == 2 and "has no text channel" in text_only.stderr

    def missing(name: str) -> object:
        raise SpeechUnavailable(
            "the piper voice is not installed: pip install 'duplexbench[speech]'"
        )

    monkeypatch.setattr("duplexbench.campaign._preflight.get_tts", missing)
    result = CliRunner().invoke(
        main, ["run", "--suite", str(FIXTURES), "--out", str(tmp_path / "b")]
    )
    assert result.exit_code == 2 and "pip install 'duplexbench[speech]'" in result.stderr
    assert not (tmp_path / "b").exists()
