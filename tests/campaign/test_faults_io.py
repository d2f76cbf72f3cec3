"""Fault injection for storage: a full disk (ENOSPC) and read-only run directories.

`FaultyDisk` makes storage under one folder fail like a full (or read-only)
disk at chosen points: opening a file for writing creates it and then fails,
renames fail, creating files or folders fails, and the index's sqlite
connections cannot grow the database (a real SQLITE_FULL, through
`max_page_count`). Each test arms it at one point, checks what the run reports,
then removes the fault and resumes: every episode complete exactly once, no
`.partial` folder, and `check_index` finds nothing.
"""

from __future__ import annotations

import builtins
import errno
import io
import json
import os
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._engine import RunTally
from duplexbench.campaign._execution import execute
from duplexbench.campaign._lock import run_lock
from duplexbench.campaign._model import ExecutionOptions, RunOptions, RunResult
from duplexbench.campaign._rundir import StorageError, read_campaign
from duplexbench.campaign._runner import finish_target, prepare_target, run_campaign, start_target
from duplexbench.campaign._store import StoreError, check_index, refresh_index, upsert_episode
from duplexbench.cli import main
from duplexbench.scoring._episode import EpisodeScore
from duplexbench.trace._io import write_events
from support.fixtures import FIXTURES
from support.scores import workflow_scores, workflow_summary

ITEMS = ("order-revocation", "meeting-scheduling")
SECOND = f"/{ITEMS[1]}/"
Where = Callable[[str, str], bool]
"""(operation, path) -> whether it fails; operations: write, create, rename, index."""


class FaultyDisk:
    """Storage under `root` fails at `where`: `times` times (None: until `heal`)."""

    def __init__(
        self,
        monkeypatch: pytest.MonkeyPatch,
        root: Path,
        where: Where,
        times: int | None = None,
        code: int = errno.ENOSPC,
    ) -> None:
        self.root, self.where, self.times, self.code = str(root), where, times, code
        self.failed = 0
        self.healed = False
        self._patch(monkeypatch)

    def heal(self) -> None:
        self.healed = True

    def fires(self, op: str, path: Any) -> bool:
        if self.healed or not isinstance(path, str | os.PathLike):
            return False
        name = os.fspath(path)
        if not isinstance(name, str) or not name.startswith(self.root) or not self.where(op, name):
            return False
        if self.times is not None and self.failed >= self.times:
            return False
        self.failed += 1
        return True

    def error(self, path: Any) -> OSError:
        return OSError(self.code, os.strerror(self.code), os.fspath(path))

    def _patch(self, mp: pytest.MonkeyPatch) -> None:
        real_open, real_os_open, real_mkdir = io.open, os.open, os.mkdir
        real_replace, real_connect = os.replace, sqlite3.connect

        def fake_open(file: Any, mode: str = "r", *args: Any, **kw: Any) -> Any:
            if set(mode) & set("wax+") and self.fires("write", file):
                real_open(file, mode, *args, **kw).close()  # created; the first write fails
                raise self.error(file)
            return real_open(file, mode, *args, **kw)

        def fake_os_open(path: Any, flags: int, *args: Any, **kw: Any) -> int:
            if flags & os.O_CREAT and self.fires("create", path):
                raise self.error(path)
            return real_os_open(path, flags, *args, **kw)

        def fake_mkdir(path: Any, *args: Any, **kw: Any) -> None:
            if self.fires("create", path):
                raise self.error(path)
            real_mkdir(path, *args, **kw)

        def fake_replace(src: Any, dst: Any, *args: Any, **kw: Any) -> None:
            if self.fires("rename", src):
                raise self.error(src)
            real_replace(src, dst, *args, **kw)

        def fake_connect(database: Any, *args: Any, **kw: Any) -> sqlite3.Connection:
            conn: sqlite3.Connection = real_connect(database, *args, **kw)
            if "mode=ro" not in str(database) and self.fires("index", database):
                pages = conn.execute("PRAGMA page_count").fetchone()[0]
                conn.execute(f"PRAGMA max_page_count = {max(1, pages)}")  # cannot grow
            return conn

        for module in (io, builtins):
            mp.setattr(module, "open", fake_open)
        mp.setattr(os, "open", fake_os_open)
        mp.setattr(os, "mkdir", fake_mkdir)
        mp.setattr(os, "replace", fake_replace)
        mp.setattr(sqlite3, "connect", fake_connect)


def options(out: Path, retries: int = 0, resume: bool = False) -> RunOptions:
    execution = ExecutionOptions(retries=retries, backoff_s=0.0, resume=resume)
    return RunOptions(
        str(FIXTURES), agent="oracle", condition=CONDITIONS["text"], repeats=2, items=ITEMS,
        out=out,
        execution=execution,
    )  # fmt: skip


def run(opts: RunOptions) -> tuple[RunResult, RunTally]:
    """`run_campaign`, returning the engine's progress too (retries, unindexed episodes)."""
    target = prepare_target(opts)
    with run_lock(target.run_dir):
        start_target(target, opts)
        progress = execute([target], opts.execution)
        return finish_target(target), progress


def complete(out: Path) -> list[str]:
    return sorted(
        p.parent.relative_to(out).as_posix() for p in out.glob("episodes/*/*/*/*/result.json")
    )


def assert_consistent(out: Path, episodes: int) -> None:
    """Only complete folders, each once, and an index that matches them."""
    folders = [p for p in out.glob("episodes/*/*/*/*") if p.is_dir()]
    assert len(folders) == len(complete(out)) == episodes  # no .partial, nothing half-written
    assert check_index(out) == []


def resume(out: Path) -> tuple[RunResult, list[int]]:
    """Resume with the fault gone: the episodes run (their progress counts) and the result."""
    ran: list[int] = []
    result = run_campaign(options(out, resume=True), lambda done, total, s: ran.append(done))
    assert result.summary.episodes == 4 and result.summary.errors == 0
    assert workflow_summary(result.summary).workflows.pass_at_1 == 1.0
    rows = (out / "results.jsonl").read_text().splitlines()
    assert len(rows) == len(set(rows)) == 4
    assert_consistent(out, 4)
    return result, ran


POINTS: dict[str, Where] = {
    "episode file": lambda op, p: op == "write" and p.endswith(".partial/events.jsonl"),
    "result.json": lambda op, p: op == "write" and ".partial/.result.json-" in p,
    "rename": lambda op, p: op == "rename" and p.endswith(".partial"),
}


@pytest.mark.parametrize("point", list(POINTS))
def test_regression_disk_full_saving_an_episode_stops_the_run_and_resume_completes_it(
    point: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    at = POINTS[point]
    disk = FaultyDisk(monkeypatch, tmp_path, lambda op, p: at(op, p) and SECOND in p)
    with pytest.raises(StorageError) as err:  # before: a raw OSError (a traceback)
        run_campaign(options(out, retries=1))
    message = str(err.value)
    assert message.startswith(
        f"the run stopped: cannot save episode episodes/oracle/text{SECOND}r0"
    )
    assert "disk full (No space left on device: " in message and "--resume" in message
    assert disk.failed == 3  # r0, r1, then r0's one retry: the run stops there
    assert complete(out) == [f"episodes/oracle/text/{ITEMS[0]}/r{k}" for k in (0, 1)]
    assert_consistent(out, 2)  # its .partial folder was removed; the index is right
    disk.heal()
    _, ran = resume(out)
    assert ran == [3, 4]  # the two missing episodes, once each


def test_transient_disk_full_is_retried_and_the_run_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = POINTS["episode file"]
    disk = FaultyDisk(monkeypatch, tmp_path, lambda op, p: where(op, p) and SECOND in p, times=1)
    result, progress = run(options(tmp_path / "run", retries=1))
    assert disk.failed == 1 and progress.retried == 1
    assert result.summary.errors == 0 and result.summary.episodes == 4
    assert_consistent(tmp_path / "run", 4)


def test_regression_index_full_for_a_while_does_not_stop_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = FaultyDisk(monkeypatch, tmp_path, lambda op, p: op == "index", times=1)
    result, progress = run(options(tmp_path / "run"))
    assert disk.failed == 1 and progress.unindexed == 1  # saved, indexed at the end of the run
    assert result.summary.errors == 0
    assert_consistent(tmp_path / "run", 4)
    assert not (tmp_path / "run" / "index.sqlite.corrupt").exists()


def test_regression_index_that_cannot_be_written_is_a_clear_error_and_resume_repairs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    disk = FaultyDisk(monkeypatch, tmp_path, lambda op, p: op == "index")
    with pytest.raises(StorageError, match="database or disk is full") as err:
        run_campaign(options(out))
    assert "every episode is saved" in str(err.value) and "--resume" in str(err.value)
    assert len(complete(out)) == 4 and not (out / "index.sqlite.corrupt").exists()
    disk.heal()
    _, ran = resume(out)
    assert ran == []  # nothing to run again: only the index and the summary were missing


@pytest.mark.parametrize("name", ["results.jsonl", "summary.json"])
def test_regression_unwritable_summary_files_are_a_clear_error(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    disk = FaultyDisk(monkeypatch, tmp_path, lambda op, p: op == "write" and f"/.{name}-" in p)
    with pytest.raises(StorageError, match=rf"cannot write {out}/{name}: disk full") as err:
        run_campaign(options(out))
    assert "every episode is saved" in str(err.value)
    assert_consistent(out, 4)  # the episodes were indexed as they finished
    disk.heal()
    _, ran = resume(out)
    assert ran == [] and (out / "summary.json").exists()


def test_full_disk_from_the_start_is_a_clear_cli_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    disk = FaultyDisk(monkeypatch, tmp_path, lambda op, p: op in ("write", "index"))
    args = ["run", "--suite", str(FIXTURES), "--agent", "oracle", "--condition", "text"]
    args += ["-k", "2", "--items", ",".join(ITEMS), "--out", str(out), "-q", "--json"]
    failed = CliRunner().invoke(main, args)
    assert failed.exit_code == 2 and isinstance(failed.exception, SystemExit)
    assert "disk full (No space left on device" in failed.output
    assert "Traceback" not in failed.output and complete(out) == []
    disk.heal()
    done = CliRunner().invoke(main, [*args, "--resume"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["episodes"] == 4
    assert_consistent(out, 4)


def test_regression_read_only_run_directory_is_a_clear_cli_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    run_campaign(options(out))
    stamp = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    FaultyDisk(monkeypatch, tmp_path, lambda op, p: True, code=errno.EROFS)
    for folder, extra in ((out, ["--resume"]), (tmp_path / "new", [])):
        args = ["run", "--suite", str(FIXTURES), "--agent", "oracle", "--condition", "text"]
        args += ["-k", "2", "--items", ",".join(ITEMS), "--out", str(folder), "-q", *extra]
        failed = CliRunner().invoke(main, args)  # before: a PermissionError/OSError traceback
        assert failed.exit_code == 2 and isinstance(failed.exception, SystemExit)
        why = f"cannot write the run directory {folder}: not writable (Read-only file system"
        assert why in failed.output and "Traceback" not in failed.output
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == stamp


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder_for_real(tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    out.chmod(0o555)
    try:
        with pytest.raises(StorageError, match="not writable \\(Permission denied"):
            run_campaign(options(out))
    finally:
        out.chmod(0o755)


WORKER_FAULTS: dict[str, tuple[str, Callable[..., Any]]] = {
    "temp folder": ("duplexbench.campaign._jobs.tempfile.mkdtemp", tempfile.mkdtemp),
    "trace file": ("duplexbench.campaign._episode_runner.write_events", write_events),
}


@pytest.mark.parametrize("point", list(WORKER_FAULTS))
def test_regression_disk_full_in_the_worker_is_an_error_episode_and_retried(
    point: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker's own temp folder fills up: an episode error (retried), never a crash."""
    target, real = WORKER_FAULTS[point]
    left = [1]

    def full(*args: Any, **kw: Any) -> Any:
        ours = real is not tempfile.mkdtemp or "duplexbench-episode-" in str(kw.get("prefix"))
        if ours and left[0]:
            left[0] -= 1
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kw)

    monkeypatch.setattr(target, full)
    result, _ = run(options(tmp_path / "kept"))  # no retries: kept as an error, not a failure
    errors = [s for s in workflow_scores(result.scores) if s.status == "error"]
    assert len(errors) == 1 and "No space left on device" in (errors[0].error or "")
    assert result.summary.errors == 1 and errors[0].ws is None
    assert_consistent(tmp_path / "kept", 4)
    left[0] = 1
    result, progress = run(options(tmp_path / "retried", retries=1))
    assert progress.retried == 1 and result.summary.errors == 0
    assert_consistent(tmp_path / "retried", 4)


def test_regression_full_index_keeps_sqlite_reason_and_rolls_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    run_campaign(options(out))
    spec = read_campaign(out)
    score = EpisodeScore.model_validate_json((out / complete(out)[0] / "result.json").read_text())
    big = score.model_copy(update={"error": "x" * 20_000})  # needs new pages
    FaultyDisk(monkeypatch, tmp_path, lambda op, p: op == "index")
    rel = "episodes/oracle/text/extra/r0"
    with pytest.raises(StoreError, match="cannot write the index: database or disk is full"):
        upsert_episode(out, spec, rel, big)  # before: "cannot rollback - no transaction is active"
    rows = sqlite3.connect(out / "index.sqlite").execute("SELECT path FROM episodes").fetchall()
    assert len(rows) == 4 and (rel,) not in rows


def test_regression_unwritable_index_is_not_set_aside_as_corrupt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    run_campaign(options(out))
    for path in out.glob("index.sqlite*"):
        path.unlink()  # an older run directory: the index is built on first use
    disk = FaultyDisk(monkeypatch, tmp_path, lambda op, p: op == "index")
    with pytest.raises(StoreError, match="cannot open the index: database or disk is full"):
        refresh_index(out)  # before: set aside as "unreadable", then a raw OperationalError
    assert not (out / "index.sqlite.corrupt").exists()
    disk.heal()
    assert refresh_index(out).episodes == 4 and check_index(out) == []


def test_regression_read_only_folder_for_campaign_and_multi_condition_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`campaign run` and `run --condition a,b` took the lock (or made the folder) unguarded."""
    plan = tmp_path / "plan.yaml"
    plan.write_text(f"agents: [oracle]\nsuites: [{FIXTURES}]\nconditions: [text]\nrepetitions: 1\n")
    out = tmp_path / "out"
    FaultyDisk(monkeypatch, out, lambda op, p: True, code=errno.EROFS)
    multi = ["run", "--suite", str(FIXTURES), "--agent", "oracle", "--condition", "text,clean"]
    for args in (
        ["campaign", "run", str(plan), "--out", str(out / "c"), "-q"],
        [*multi, "-k", "1", "--out", str(out / "m"), "-q"],
    ):
        failed = CliRunner().invoke(main, args)
        assert failed.exit_code == 2 and isinstance(failed.exception, SystemExit), failed.output
        assert "not writable (Read-only file system" in failed.output
        assert "Traceback" not in failed.output
