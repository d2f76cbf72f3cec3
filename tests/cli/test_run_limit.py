"""`duplexbench run --limit N` / `--items` read only the items they run, and the run
directory records the same item snapshots and checksums as a full load gives."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml
from click.testing import CliRunner

from duplexbench.cli import main
from duplexbench.items._load import item_checksum
from duplexbench.items._suite import load_suite
from support.fixtures import FIXTURES


def run(suite: Path, out: Path, *extra: str) -> dict[str, object]:
    args = ["run", "--suite", str(suite), "--agent", "oracle", "--condition", "text"]
    result = CliRunner().invoke(main, [*args, "-k", "1", "--out", str(out), "--json", *extra])
    assert result.exit_code == 0, result.output
    summary: dict[str, object] = json.loads(result.stdout)
    return summary


def test_limit_runs_the_first_items_and_snapshots_them_as_a_full_load_would(
    tmp_path: Path,
) -> None:
    full = load_suite(FIXTURES).items
    summary = run(FIXTURES, tmp_path / "run", "--limit", "2")
    assert summary["episodes"] == 2
    campaign = json.loads((tmp_path / "run" / "campaign.json").read_text())
    assert campaign["items"] == [i.id for i in full[:2]]
    assert campaign["item_checksums"] == {i.id: item_checksum(i) for i in full[:2]}
    snapshots = sorted(p.name for p in (tmp_path / "run" / "items").iterdir())
    assert snapshots == sorted(f"{i.id}.json" for i in full[:2])
    for item in full[:2]:
        saved = json.loads((tmp_path / "run" / "items" / f"{item.id}.json").read_text())
        assert saved == item.model_dump(mode="json")


def test_a_broken_item_after_the_limit_does_not_stop_the_run(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    first = sorted(p for p in FIXTURES.glob("*.yaml") if p.name != "suite.yaml")[0]
    shutil.copy(first, suite / first.name)
    (suite / "broken.yaml").write_text("id: broken\nuser: [unclosed\n")
    manifest = {"name": "lazy", "items": [first.name, "broken.yaml"]}
    (suite / "suite.yaml").write_text(yaml.safe_dump(manifest))
    assert run(suite, tmp_path / "one", "--limit", "1")["episodes"] == 1
    assert run(suite, tmp_path / "by-id", "--items", first.stem)["episodes"] == 1
    validate = CliRunner().invoke(main, ["suite", "validate", str(suite)])
    assert validate.exit_code != 0 and "broken.yaml" in validate.output
    everything = CliRunner().invoke(main, ["run", "--suite", str(suite), "--out", str(suite)])
    assert everything.exit_code == 2 and "broken.yaml" in everything.output
