"""`duplexbench suite` verbs on action suites."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from duplexbench.cli import main
from duplexbench.suites._package import DATA


def test_validate_actions_v1_passes_with_counts() -> None:
    result = CliRunner().invoke(main, ["suite", "validate", "actions-v1", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["valid"] and summary["family"] == "action" and summary["items"] == 672
    assert min(summary["conditions"].values()) >= 25 and len(summary["conditions"]) == 24
    text = CliRunner().invoke(main, ["suite", "validate", "actions-v1"]).stdout
    assert "672/672" in text and "24/24" in text and "all checks passed" in text


def test_stats_json_gives_items_conditions_actions_scenarios() -> None:
    result = CliRunner().invoke(main, ["suite", "stats", "actions-v1", "--json"])
    stats = json.loads(result.stdout)
    assert stats["items"] == 672
    assert stats["conditions"]["hold_floor.background_speech"] == 28
    assert stats["actions"]["recover"] == 6 * 28
    assert stats["scenarios"]["interview"] == 168
    text = CliRunner().invoke(main, ["suite", "stats", "actions-v1"]).stdout
    assert "every condition has at least 25 items" in text


def test_list_and_show_know_the_action_suite() -> None:
    rows = json.loads(CliRunner().invoke(main, ["suite", "list", "--json"]).stdout)
    assert {"name": "actions-v1", "family": "action"}.items() <= next(
        r for r in rows if r["name"] == "actions-v1"
    ).items()
    shown = json.loads(CliRunner().invoke(main, ["suite", "show", "actions-v1", "--json"]).stdout)
    first = shown["item_list"][0]["id"]
    one = CliRunner().invoke(main, ["suite", "show", "actions-v1", first]).stdout
    assert yaml.safe_load(one)["family"] == "action"


def test_a_bad_action_item_is_rejected_with_its_path(tmp_path: Path) -> None:
    source = sorted((DATA / "actions-v1").glob("act-wait-*.yaml"))[0]
    data = yaml.safe_load(source.read_text())
    data["annotations"]["wait_interval"]["end_ms"] = 10**7  # after the audio
    del data["segments"][0]["voice"]
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(data))
    result = CliRunner().invoke(main, ["suite", "validate", str(tmp_path / "bad.yaml")])
    assert result.exit_code == 1
    assert "segments[0].voice" in result.output
    data["segments"][0]["voice"] = "piper:joe"
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(data))
    result = CliRunner().invoke(main, ["suite", "validate", str(tmp_path / "bad.yaml")])
    assert result.exit_code == 1 and "annotations.wait_interval" in result.output
    assert "after the audio" in result.output
