"""`suite validate SUITE --audio`: the listener on every item, and what it could not pass."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duplexbench.cli import main
from duplexbench.cli._audio_audit import Audit, Miss, Unsolved, audit_run
from duplexbench.items import load_suite
from support.fixtures import FIXTURES


@pytest.fixture(scope="module")
def text_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("audit") / "run"
    args = ["suite", "validate", str(FIXTURES), "--audio", "--condition", "text", "--out", str(out)]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["label"] == "text-solvable"
    assert (data["solved"], data["items"]) == (5, 5)
    assert data["unsolved"] == [] and data["run_dir"] == str(out)
    return out


def _spoil(run: Path, item_id: str) -> None:
    """Mark one episode failed on its employee id, as a misheard value would."""
    (folder,) = run.glob(f"episodes/*/*/{item_id}/r0")
    result: dict[str, Any] = json.loads((folder / "result.json").read_text())
    result["ws"] = 0
    for check in result["checks"]:
        if check["gate"] == "AV":
            check["passed"] = False
    for field in result["fields"]:
        if field["field"] == "employee_id":
            field["score"], field["predicted"], field["cause"] = 0.0, "E1024", "misheard"
    (folder / "result.json").write_text(json.dumps(result))


def test_an_unsolved_item_names_the_value_what_was_said_and_heard(text_run: Path) -> None:
    _spoil(text_run, "form-expense-correction")
    items = load_suite(FIXTURES).items
    audit = audit_run(text_run, "fixtures", items, "text", None)
    assert (audit.solved, audit.items) == (4, 5)
    (unsolved,) = audit.unsolved
    assert unsolved.item == "form-expense-correction"
    assert unsolved.failed and all(f.startswith("AV") for f in unsolved.failed)
    (miss,) = unsolved.misses
    assert miss.where == "expense.employee_id"
    assert (miss.said, miss.expected, miss.written) == ("E1042", "E1042", "E1024")
    assert miss.repairs == 0 and miss.cause == "misheard"
    assert miss.heard == ["It's E1042."]
    lines = audit.lines()
    assert lines[0] == "fixtures: text-solvable 4/5 (text)"
    assert lines[2] == (
        "    expense.employee_id: said 'E1042', wrote 'E1024' (expected 'E1042'), "
        "0 repair(s), misheard"
    )
    assert lines[3] == '      heard: "It\'s E1042."'


def test_an_unsolved_audit_exits_1_and_prints_its_lines(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    miss = Miss("form.tax_id", "T X dash 2 8", "TX-28", "TX-23", "misheard", 2, ["TX 23"])
    audit = Audit("fixtures", "clean", 5, 4, str(tmp_path), [Unsolved("x", ["AV afa"], [miss])])

    def fake(*args: object, **kwargs: object) -> Audit:
        return audit

    monkeypatch.setattr("duplexbench.cli._suite.run_audit", fake)
    result = CliRunner().invoke(main, ["suite", "validate", str(FIXTURES), "--audio"])
    assert result.exit_code == 1
    assert "fixtures: audio-solvable 4/5 (clean)" in result.stdout
    assert "form.tax_id: said 'T X dash 2 8', wrote 'TX-23'" in result.stdout
    assert "heard: 'TX 23'" in result.stdout
