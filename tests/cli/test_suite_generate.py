"""`duplexbench suite generate`: a private suite from the command line, and a run on it
that records how the suite was made."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from duplexbench.campaign._rundir import read_campaign
from duplexbench.cli import main


def test_generate_then_run_records_the_generator_and_seed(tmp_path: Path) -> None:
    out = tmp_path / "private"
    args = ["suite", "generate", "workflows", "--seed", "9", "--per-archetype", "1"]
    made = CliRunner().invoke(main, [*args, "--out", str(out), "--json"])
    assert made.exit_code == 0, made.output
    summary = json.loads(made.stdout)
    assert summary["suite"] == "workflows-seed9" and summary["items"] == 12
    assert summary["generator"]["seed"] == 9 and summary["validation"]["valid"]
    assert set(summary["overlap"]) == {"against", "values", "sentences", "items"}
    assert "workflows-v2" in summary["overlap"]["against"]
    run = tmp_path / "run"
    oracle = ["run", "--suite", str(out), "--agent", "oracle", "-k", "1", "--limit", "2"]
    ran = CliRunner().invoke(main, [*oracle, "--out", str(run), "--json"])
    assert ran.exit_code == 0, ran.output
    generator = read_campaign(run).generator
    assert generator is not None and (generator.name, generator.seed) == (
        "duplexbench.suites.workflows",
        9,
    )
    assert json.loads(ran.stdout)["workflows"]["pass_at_1"] == 1.0


def test_bad_requests_are_refused_with_a_reason(tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "x.yaml").write_text("id: x\n", encoding="utf-8")
    cases = [
        (["workflows", "--seed", "1", "--out", str(taken)], "exists and is not empty"),
        (["workflows", "--seed", "one", "--out", str(tmp_path / "a")], "'--seed'"),
        (["workflows", "--seed", "-3", "--out", str(tmp_path / "a")], "'--seed'"),
        (["workflows", "--seed", "1", "--per-archetype", "0", "--out", str(tmp_path / "a")],
         "at least 1"),
        (["actions", "--seed", "1", "--per-archetype", "2", "--out", str(tmp_path / "a")],
         "does not apply"),
    ]  # fmt: skip
    for args, reason in cases:
        result = CliRunner().invoke(main, ["suite", "generate", *args])
        assert result.exit_code == 2, (args, result.output)
        assert reason in result.output, (args, result.output)
    assert not (tmp_path / "a").exists()


def test_help_explains_private_suites() -> None:
    result = CliRunner().invoke(main, ["suite", "generate", "--help"])
    assert result.exit_code == 0
    assert "--seed" in result.output and "private suite" in result.output
