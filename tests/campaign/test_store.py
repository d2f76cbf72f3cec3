"""The results store (RUN_DIR/index.sqlite): upsert, rebuild, check, recovery, export."""

from __future__ import annotations

import csv
import json
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duplexbench.campaign._rundir import read_campaign
from duplexbench.campaign._spec import CampaignSpec
from duplexbench.campaign._store import (
    INDEX_NAME,
    StoreError,
    check_index,
    index_path,
    query,
    rebuild_index,
    refresh_index,
    upsert_episode,
)
from duplexbench.campaign._store_export import export
from duplexbench.campaign._store_rows import EXPORT_COLUMNS
from duplexbench.cli import main
from duplexbench.scoring._actions.result import ActionScore
from duplexbench.scoring._episode import EpisodeScore
from support.fixtures import FIXTURES

EPISODES = 10  # 5 fixture items x 2 repetitions


@pytest.fixture(scope="module")
def made_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("store") / "run"
    args = ["run", "--suite", str(FIXTURES), "--agent", "oracle", "-k", "2"]
    args += ["--condition", "text", "--out", str(out), "-q"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def run_dir(made_run: Path, tmp_path: Path) -> Path:
    """A private copy without an index (as an older duplexbench would have left it)."""
    copy = tmp_path / "run"
    shutil.copytree(made_run, copy)
    for path in copy.glob(f"{INDEX_NAME}*"):
        path.unlink()
    return copy


def _results(run_dir: Path) -> dict[str, Path]:
    return {
        p.parent.relative_to(run_dir).as_posix(): p
        for p in run_dir.glob("episodes/*/*/*/r*/result.json")
    }


def _rows(run_dir: Path) -> dict[str, dict[str, Any]]:
    return {r["path"]: r for r in query(run_dir, "SELECT * FROM episodes")}


def test_rebuild_indexes_every_episode_with_its_scores(run_dir: Path) -> None:
    assert check_index(run_dir) == [f"{index_path(run_dir)}: no index (rebuild with "
                                    "`duplexbench score` or rebuild_index)"]  # fmt: skip
    assert rebuild_index(run_dir) == EPISODES
    assert check_index(run_dir) == []
    rows = _rows(run_dir)
    assert set(rows) == set(_results(run_dir))
    for rel, path in _results(run_dir).items():
        data = json.loads(path.read_text())
        row = rows[rel]
        assert (row["agent"], row["condition"], row["suite"]) == ("oracle", "text", "fixtures")
        assert (row["item_id"], row["repetition"]) == (data["item_id"], data["repetition"])
        assert row["ws"] == data["ws"] == 1
        assert row["gate_ts"] == row["gate_pv"] == row["gate_ac"] == row["gate_av"] == 1
        assert row["afa_total"] == data["afa"]["total"]
        assert row["tool_calls"] == data["tool_calls"]
        assert row["time_to_resolution_ms"] == data["time_to_resolution_ms"]
        assert json.loads(row["result_json"]) == data
    fields = query(run_dir, "SELECT COUNT(*) AS n FROM fields")[0]["n"]
    assert fields == sum(
        len(json.loads(p.read_text())["fields"]) for p in _results(run_dir).values()
    )
    runs = query(run_dir, "SELECT * FROM runs")
    assert len(runs) == 1 and json.loads(runs[0]["campaign_json"])["agent"] == "oracle"


def test_upserts_give_the_same_index_as_a_rebuild(run_dir: Path) -> None:
    spec = read_campaign(run_dir)
    for rel, path in _results(run_dir).items():
        upsert_episode(run_dir, spec, rel, EpisodeScore.model_validate_json(path.read_text()))
        upsert_episode(run_dir, spec, rel, EpisodeScore.model_validate_json(path.read_text()))
    assert check_index(run_dir) == []
    upserted = _rows(run_dir)
    assert len(upserted) == EPISODES
    rebuild_index(run_dir)
    rebuilt = _rows(run_dir)
    for rel, row in rebuilt.items():
        mine = upserted[rel]
        assert json.loads(mine.pop("result_json")) == json.loads(row.pop("result_json"))
        assert mine == row


def test_stale_rows_and_changed_results(run_dir: Path) -> None:
    rebuild_index(run_dir)
    gone = "episodes/oracle/text/order-revocation/r1"
    shutil.rmtree(run_dir / gone)
    changed = run_dir / "episodes/oracle/text/airline-rebooking/r0/result.json"
    data = json.loads(changed.read_text())
    data["ws"] = 0
    changed.write_text(json.dumps(data, indent=1))
    problems = check_index(run_dir)
    assert f"{gone}: indexed, but the folder or its result.json is gone" in problems
    assert (
        "episodes/oracle/text/airline-rebooking/r0: the index differs from result.json" in problems
    )
    status = refresh_index(run_dir)
    assert (status.removed, status.added, status.episodes) == (1, 1, EPISODES - 1)
    assert check_index(run_dir) == []
    assert _rows(run_dir)["episodes/oracle/text/airline-rebooking/r0"]["ws"] == 0
    assert refresh_index(run_dir).added == 0  # nothing changed since
    assert rebuild_index(run_dir) == EPISODES - 1


def test_unreadable_result_is_reported_and_left_out(run_dir: Path) -> None:
    bad = run_dir / "episodes/oracle/text/meeting-scheduling/r0/result.json"
    bad.write_text("{not json")
    status = refresh_index(run_dir)
    assert status.rebuilt and status.episodes == EPISODES - 1
    assert any("meeting-scheduling/r0/result.json: unreadable" in p for p in status.problems)
    assert any("unreadable" in p for p in check_index(run_dir))


def test_concurrent_upserts_from_two_processes(run_dir: Path) -> None:
    """Two writer processes, 60 upserts each, interleaved: every row lands, no corruption."""
    script = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from duplexbench.campaign._rundir import read_campaign
        from duplexbench.campaign._store import upsert_episode
        from duplexbench.scoring._episode import EpisodeScore
        run_dir, offset = Path(sys.argv[1]), int(sys.argv[2])
        spec = read_campaign(run_dir)
        template = EpisodeScore.model_validate_json(
            next(run_dir.glob("episodes/*/*/*/r0/result.json")).read_text())
        for i in range(60):
            rep = offset + i
            score = template.model_copy(update={"repetition": rep})
            upsert_episode(run_dir, spec, f"episodes/oracle/text/{score.item_id}/r{rep}", score)
        """
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(run_dir), str(offset)])
        for offset in (100, 200)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    conn = sqlite3.connect(index_path(run_dir))
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT COUNT(*) FROM episodes").fetchone()[0] == 120
        reps = {r for (r,) in conn.execute("SELECT repetition FROM episodes")}
        assert reps == set(range(100, 160)) | set(range(200, 260))
    finally:
        conn.close()


def test_corrupt_index_is_set_aside_and_rebuilt(run_dir: Path) -> None:
    index_path(run_dir).write_bytes(b"this is not a database" * 100)
    status = refresh_index(run_dir)
    assert status.rebuilt and status.episodes == EPISODES
    assert "unreadable" in status.problems[0] and "rebuilt" in status.problems[0]
    assert (run_dir / f"{INDEX_NAME}.corrupt").exists()
    assert check_index(run_dir) == []
    # rebuild_index and upsert_episode recover the same way
    index_path(run_dir).write_bytes(b"garbage")
    assert rebuild_index(run_dir) == EPISODES
    index_path(run_dir).write_bytes(b"garbage")
    rel, path = next(iter(_results(run_dir).items()))
    upsert_episode(
        run_dir, read_campaign(run_dir), rel, EpisodeScore.model_validate_json(path.read_text())
    )
    assert check_index(run_dir) == []


def test_not_a_run_directory(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="campaign"):
        rebuild_index(tmp_path)


def test_csv_export_has_every_column_but_the_result_text(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "episodes.csv"
    assert export(run_dir, out) == EPISODES  # builds the missing index first
    with out.open(newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    assert tuple(reader.fieldnames or ()) == EXPORT_COLUMNS
    assert "result_json" not in EXPORT_COLUMNS and "ws" in EXPORT_COLUMNS
    assert {r["ws"] for r in rows} == {"1"}
    assert {r["path"] for r in rows} == set(_results(run_dir))


def test_parquet_export(run_dir: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "episodes.parquet"
    assert export(run_dir, out, "parquet") == EPISODES
    table = pq.read_table(out)
    assert tuple(table.column_names) == EXPORT_COLUMNS
    assert table.num_rows == EPISODES
    assert set(table.column("ws").to_pylist()) == {1}


def test_parquet_without_pyarrow_names_the_extra(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import fails
    with pytest.raises(StoreError, match=r"duplexbench\[parquet\]"):
        export(run_dir, tmp_path / "x.parquet", "parquet")


def test_folders_being_written_are_not_indexed(run_dir: Path) -> None:
    partial = run_dir / "episodes/oracle/text/order-revocation/r1.partial"
    shutil.copytree(run_dir / "episodes/oracle/text/order-revocation/r1", partial)
    assert rebuild_index(run_dir) == EPISODES
    assert check_index(run_dir) == []


def test_action_episodes_index_their_verdicts(tmp_path: Path) -> None:
    spec = CampaignSpec(
        duplexbench_version="test",
        suite="mini-actions",
        family="action",
        suite_version="1",
        suite_path="x",
        agent="silent",
        condition="clean",
        repeats=1,
        items=["t-stop"],
        item_checksums={"t-stop": "0"},
    )
    (tmp_path / "campaign.json").write_text(spec.model_dump_json())
    score = ActionScore(
        item_id="t-stop",
        repetition=0,
        status="ok",
        condition="stop.direct_interruption",
        action="stop",
        scenario="meeting",
        immediate=True,
        immediate_reason="stopped <fast>",
        follow_through=False,
        follow_through_source="rule",
        follow_through_reason="spoke again",
        timing_ms=420,
        fdb={"task": "user_interruption", "tor": 1},
    )
    rel = "episodes/silent/clean/t-stop/r0"
    (tmp_path / rel).mkdir(parents=True)
    (tmp_path / rel / "result.json").write_text(score.model_dump_json(indent=2) + "\n")
    upsert_episode(tmp_path, spec, rel, score)
    assert check_index(tmp_path) == []
    row = query(tmp_path, "SELECT * FROM episodes")[0]
    assert (row["family"], row["action"], row["action_condition"]) == (
        "action", "stop", "stop.direct_interruption"
    )  # fmt: skip
    assert (row["immediate"], row["follow_through"], row["timing_ms"]) == (1, 0, 420)
    assert row["immediate_reason"] == "stopped <fast>" and row["ws"] is None
    assert json.loads(row["fdb"]) == {"task": "user_interruption", "tor": 1}
    assert query(tmp_path, "SELECT COUNT(*) AS n FROM fields")[0]["n"] == 0
