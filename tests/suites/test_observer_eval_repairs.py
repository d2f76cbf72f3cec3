"""`duplexbench observer-eval` reports repair requests beside the other acts."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from duplexbench.cli import main

REPAIRS = """\
archetype: any
entries:
  - text: "Sorry, could you say that again?"
    acts: [REPEAT]
  - text: "could you spell that using the phonetic alphabet"
    acts: [SPELL, PHONETIC]
  - text: "Could you slow down and read the number digit by digit?"
    acts: [SLOWER, DIGITS]
  - text: "Sorry, what was the tax number again?"
    acts: [REPEAT:tax_id]
    archetype: form_completion
  - text: "Let me read that back to you."
    acts: []
"""
QUESTIONS = """\
archetype: form_completion
entries:
  - text: "What's the vendor's tax number?"
    acts: [ASK:tax_id]
  - text: "I've noted the start date."
    acts: []
"""


def _corpus(root: Path) -> Path:
    folder = root / "corpus" / "test"
    folder.mkdir(parents=True)
    (folder / "repairs.yaml").write_text(REPAIRS, encoding="utf-8")
    (folder / "form_completion.yaml").write_text(QUESTIONS, encoding="utf-8")
    return root / "corpus"


def test_the_json_report_has_repair_recall_and_false_repairs(tmp_path: Path) -> None:
    args = [
        "observer-eval",
        "--corpus",
        str(_corpus(tmp_path)),
        "--layers",
        "rules",
        "--per-entry",
        "1",
    ]
    result = CliRunner().invoke(main, [*args, "--json", "-q"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)["layers"]["rules"]
    assert report["repair_entries"] == 4 and report["repair_recall"] == 1.0
    assert report["non_repair"] == 3 and report["repair_on_non_repair"] == 0.0
    assert report["repair_acts"]["REPEAT"] == {
        "precision": 1.0,
        "recall": 1.0,
        "gold": 2,
        "read": 2,
    }
    assert set(report["repair_acts"]) == {"REPEAT", "SPELL", "PHONETIC", "DIGITS", "SLOWER"}


def test_the_table_shows_repair_rows(tmp_path: Path) -> None:
    args = ["observer-eval", "--corpus", str(_corpus(tmp_path)), "--layers", "rules", "-q"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    for row in ("SPELL precision / recall", "repair recall", "repair acts on non-repair"):
        assert row in result.output
