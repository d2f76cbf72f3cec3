"""`suite list|show|stats|validate` on the built-in suites, and `run`'s defaults."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from duplexbench.cli import main
from duplexbench.suites._package import DATA


def invoke(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def test_suite_list_names_the_builtin_suites() -> None:
    result = CliRunner().invoke(main, ["suite", "list", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.stdout)}
    assert rows["workflows-v1"]["items"] == 120
    assert rows["workflows-mini"]["items"] == 12 and rows["workflows-mini"]["default"]
    assert rows["workflows-v1"]["generator"]["seed"] == 20261129


def test_suite_stats_json_gives_items_and_every_taxonomy_dimension() -> None:
    result = CliRunner().invoke(main, ["suite", "stats", "workflows-v1", "--json"])
    stats = json.loads(result.stdout)
    assert stats["items"] == 120
    assert len(stats["taxonomy"]) == 11
    assert stats["taxonomy"]["work_archetype"]["customer_service"] == 10
    assert all(n > 0 for counts in stats["taxonomy"].values() for n in counts.values())
    text = CliRunner().invoke(main, ["suite", "stats", "workflows-mini"]).stdout
    assert "work_archetype" in text and "duplex_phenomena" in text


def test_suite_show_lists_items_and_prints_one() -> None:
    listing = json.loads(
        CliRunner().invoke(main, ["suite", "show", "workflows-mini", "--json"]).stdout
    )
    first = listing["item_list"][0]["id"]
    item = CliRunner().invoke(main, ["suite", "show", "workflows-mini", first])
    assert item.exit_code == 0 and f"id: {first}" in item.stdout
    missing = CliRunner().invoke(main, ["suite", "show", "workflows-mini", "no-such-item"])
    assert missing.exit_code == 2 and "has no item" in missing.stderr


def test_validate_reports_counts_for_a_builtin_suite() -> None:
    result = CliRunner().invoke(main, ["suite", "validate", "workflows-mini", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["valid"] and report["items"] == 12
    assert report["checks"]["shortcut fails"] == {"passed": 12, "failed": 0}
    assert report["generator"]["candidates"] >= 120
    text = CliRunner().invoke(main, ["suite", "validate", "workflows-mini"]).stdout
    assert "oracle passes (WS = 1)                       12/12" in text
    assert "all checks passed" in text


def test_a_suite_edited_after_versioning_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    folder.mkdir()
    for src in (DATA / "workflows-v1").iterdir():
        (folder / src.name).write_text(src.read_text())
    target = folder / "planning-01.yaml"
    target.write_text(target.read_text().replace("version: '1.0'", "version: '1.1'"))
    result = CliRunner().invoke(main, ["suite", "validate", str(folder), "--no-solve"])
    assert result.exit_code == 1
    assert "planning-01.yaml: item 'planning-01' differs from the checksum" in result.stdout


def test_unknown_suite_names_the_builtin_ones() -> None:
    result = CliRunner().invoke(main, ["run", "--suite", "workflows-v9"])
    assert result.exit_code == 2
    assert "workflows-mini, workflows-v1" in result.stderr


def test_run_defaults_to_the_mini_suite_and_the_reference_agent(tmp_path: Path) -> None:
    help_text = " ".join(CliRunner().invoke(main, ["run", "--help"]).stdout.split())
    assert "[default: workflows-mini]" in help_text and "[default: reference]" in help_text
    out = tmp_path / "run"
    result = CliRunner().invoke(
        main, ["run", "--agent", "oracle", "--limit", "1", "-k", "1", "--out", str(out), "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["suite"] == "workflows-mini"
    assert summary["workflows"]["pass_at_1"] == 1.0
