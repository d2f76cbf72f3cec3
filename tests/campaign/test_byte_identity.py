"""Refactoring changes no output: every trace, score and summary of three small runs is
byte-identical to the digests recorded in `byte_identity.json`, wall times excepted.

The runs cover both families and every path an episode takes through the campaign
layer: the fixtures with the oracle on two conditions at once (text and clean audio:
a multi-condition run, render ahead, the audio frame loop, `comparison.json`), the
fixtures with the reference agent in text over two repetitions, and two actions-v1
items (a replayed user timeline, action scoring).

What is left out, because it changes from run to run by design: each event's
`wall_ms`, the `result_mtime_ns` column of `index.sqlite`, the run lock, and where
the checkout and the run directory are (`campaign.json` records the suite's path).
Every other file is compared whole (`index.sqlite` as its rows, in key order).

When a change is meant to change outputs (a new trace field, a scoring fix), update
the digests and say why in the commit:

    DUPLEXBENCH_UPDATE_GOLDEN=1 .venv/bin/pytest tests/campaign/test_byte_identity.py
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from duplexbench.cli import main
from support.fixtures import FIXTURES

GOLDEN = Path(__file__).with_name("byte_identity.json")
ROOT = Path(__file__).resolve().parents[2]
RUNS: dict[str, list[str]] = {
    "multi": [
        *("--suite", str(FIXTURES), "--agent", "oracle", "--condition", "text,clean"),
        *("--items", "airline-rebooking,form-expense-correction", "-k", "1"),
    ],
    "reference": ["--suite", str(FIXTURES), "--agent", "reference", "--condition", "text"],
    "actions": ["--suite", "actions-v1", "--agent", "reference", "--limit", "2"],
}
WALL_MS = re.compile(rb'"wall_ms":-?\d+,')
VARYING_COLUMNS = frozenset({"result_mtime_ns"})
SKIPPED = frozenset({".lock"})


def normalized(path: Path, run_dir: Path) -> bytes:
    """The file's bytes, less what changes from run to run by design."""
    data = _index_rows(path) if path.suffix == ".sqlite" else path.read_bytes()
    if path.suffix == ".jsonl":
        data = WALL_MS.sub(b"", data)
    for place, name in ((run_dir, b"<run>"), (ROOT, b"<checkout>")):
        data = data.replace(str(place).encode(), name)
    return data


def _index_rows(path: Path) -> bytes:
    connection = sqlite3.connect(path)
    try:
        out = []
        tables = connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
        for (table,) in sorted(tables.fetchall()):
            cursor = connection.execute(f"SELECT * FROM {table}")
            names = [column[0] for column in cursor.description]
            kept = [i for i, name in enumerate(names) if name not in VARYING_COLUMNS]
            rows = sorted(json.dumps([row[i] for i in kept]) for row in cursor.fetchall())
            out.append(json.dumps({"table": table, "columns": [names[i] for i in kept]}))
            out.extend(rows)
        return "\n".join(out).encode()
    finally:
        connection.close()


def digests(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(normalized(path, root)).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.name not in SKIPPED
    }


def test_digests_leave_out_only_what_varies(tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    events.write_bytes(b'{"seq":0,"t_ms":0,"wall_ms":6,"actor":"harness"}\n')
    once = digests(tmp_path)
    events.write_bytes(b'{"seq":0,"t_ms":0,"wall_ms":917,"actor":"harness"}\n')
    assert digests(tmp_path) == once
    events.write_bytes(b'{"seq":0,"t_ms":1,"wall_ms":917,"actor":"harness"}\n')
    assert digests(tmp_path) != once  # media time is output, never left out
    spec = tmp_path / "campaign.json"
    spec.write_text(json.dumps({"suite_path": str(ROOT / "tests" / "fixtures")}))
    assert b"<checkout>/tests/fixtures" in normalized(spec, tmp_path)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_outputs_are_byte_identical(name: str, tmp_path: Path) -> None:
    out = tmp_path / name
    result = CliRunner().invoke(main, ["run", *RUNS[name], "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    found = digests(out)
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("DUPLEXBENCH_UPDATE_GOLDEN"):
        golden[name] = found
        GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
        return
    expected = golden.get(name, {})
    changed = sorted(k for k in found.keys() & expected.keys() if found[k] != expected[k])
    new, missing = sorted(found.keys() - expected.keys()), sorted(expected.keys() - found.keys())
    assert not (changed or new or missing), (
        f"{name}: outputs differ from tests/campaign/byte_identity.json: changed {changed}, "
        f"new {new}, missing {missing}. If the change is meant, update the digests "
        "(module docstring) and say why in the commit."
    )
