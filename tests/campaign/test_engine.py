"""The campaign driver: resume, retries with backoff, per-agent limits, the lock, workers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._engine import EngineOptions, run_targets
from duplexbench.campaign._jobs import execute_job
from duplexbench.campaign._lock import run_lock
from duplexbench.campaign._model import (
    EpisodeJob,
    ExecutionOptions,
    JobConfig,
    JobResult,
    RunOptions,
    Target,
)
from duplexbench.campaign._rundir import RunDirError, read_campaign, read_items
from duplexbench.campaign._runner import run_campaign
from duplexbench.campaign._store import check_index, rebuild_index
from support.fixtures import FIXTURES
from support.scores import workflow_scores
from support.waiting import stop_when

ITEMS = ("order-revocation", "meeting-scheduling")


def oracle_run(out: Path, execution: ExecutionOptions | None = None) -> RunOptions:
    execution = ExecutionOptions() if execution is None else execution
    return RunOptions(
        str(FIXTURES), agent="oracle", repeats=2, items=ITEMS, out=out, execution=execution
    )


def episodes(out: Path) -> list[Path]:
    return sorted(p.parent for p in out.glob("episodes/*/*/*/r*/result.json"))


def test_resume_keeps_complete_episodes_and_redoes_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = run_campaign(oracle_run(out))
    assert len(episodes(out)) == 4
    (episodes(out)[0] / "result.json").unlink()  # killed before its score was written
    (out / "episodes" / "oracle" / "clean" / ITEMS[0] / "r1.partial").mkdir()
    stamp = (episodes(out)[-1] / "result.json").stat().st_mtime_ns
    with pytest.raises(RunDirError, match="--resume"):
        run_campaign(oracle_run(out))
    ran: list[int] = []
    second = run_campaign(
        oracle_run(out, ExecutionOptions(resume=True)), lambda d, t, s: ran.append(d)
    )
    assert ran == [4]  # three kept, one redone
    assert (episodes(out)[-1] / "result.json").stat().st_mtime_ns == stamp
    assert not list(out.glob("episodes/**/*.partial"))
    assert second.summary == first.summary


def test_resume_refuses_other_settings(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_campaign(oracle_run(out))
    other = RunOptions(str(FIXTURES), agent="oracle", repeats=3, items=ITEMS, out=out)
    other = RunOptions(**{**other.__dict__, "execution": ExecutionOptions(resume=True)})
    with pytest.raises(RunDirError, match="repeats"):
        run_campaign(other)


class FlakyBackend:
    """Fails each job's first `failures` attempts; records how many ran at once per agent."""

    slots = 4

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.queue: list[EpisodeJob] = []
        self.peak: dict[str, int] = {}
        self.started: list[tuple[str, int]] = []

    def submit(self, job: EpisodeJob) -> None:
        self.queue.append(job)
        self.started.append((str(job.item["id"]), job.repetition))
        agent = job.config.agent
        self.peak[agent] = max(
            self.peak.get(agent, 0), sum(j.config.agent == agent for j in self.queue)
        )

    def wait(self) -> list[tuple[EpisodeJob, JobResult]]:
        job = self.queue.pop(0)
        if job.attempt < self.failures:
            return [(job, JobResult(job.rel, {}, "ConnectionError: reset by peer", 0.0))]
        return [(job, execute_job(job))]

    def close(self) -> None:
        return None


def target(tmp_path: Path) -> Target:
    out = tmp_path / "run"
    run_campaign(oracle_run(out))  # a run directory to re-run into
    spec = read_campaign(out)
    for folder in episodes(out):
        (folder / "result.json").unlink()
    config = JobConfig("workflow", spec.suite, "oracle", "oracle", CONDITIONS["clean"], 0)
    return Target(out, spec, read_items(out, spec), config)


def test_errors_are_retried_with_backoff_then_kept_as_errors(tmp_path: Path) -> None:
    t = target(tmp_path)
    progress = run_targets([t], FlakyBackend(1), EngineOptions(retries=1, backoff_s=0.0))
    assert progress.retried == 4 and progress.errors == 0
    first = workflow_scores(s for _, s in t.ordered_scores())
    assert all(s.status == "ok" and s.ws == 1 for s in first)
    t2 = target(tmp_path / "b")
    progress = run_targets([t2], FlakyBackend(5), EngineOptions(retries=2, backoff_s=0.0))
    assert progress.retried == 8 and progress.errors == 4  # never scored as failures
    scores = [s for _, s in t2.ordered_scores()]
    assert all(s.status == "error" and "reset by peer" in (s.error or "") for s in scores)


def test_per_agent_limit(tmp_path: Path) -> None:
    t = target(tmp_path)
    backend = FlakyBackend(0)
    run_targets([t], backend, EngineOptions(limits={"oracle": 1}))
    assert backend.peak == {"oracle": 1}


def test_jobs_start_repetition_by_repetition_and_count_what_was_kept(tmp_path: Path) -> None:
    """An item's repetitions never start side by side: a later one reuses the caches the
    first filled (embeddings, transcripts). Bug: sorting the jobs counted the kept
    episodes once per job started."""
    pending, kept = target(tmp_path / "a"), target(tmp_path / "b")
    run_campaign(oracle_run(kept.run_dir, ExecutionOptions(resume=True)))  # all four kept
    kept.scores.clear()
    backend = FlakyBackend(0)
    backend.slots = 1
    progress = run_targets([pending, kept], backend)
    first, second = pending.spec.items
    assert backend.started == [(first, 0), (second, 0), (first, 1), (second, 1)]
    assert (progress.total, progress.skipped, progress.done) == (8, 4, 8)


def test_bad_engine_options_are_refused() -> None:
    with pytest.raises(ValueError, match="limits must be >= 1"):
        EngineOptions(limits={"oracle": 0})  # would never run an oracle episode


def test_one_runner_per_run_directory(tmp_path: Path) -> None:
    with run_lock(tmp_path), pytest.raises(RunDirError, match="in use"), run_lock(tmp_path):
        pass
    with run_lock(tmp_path):  # released when the holder is done
        pass


def test_two_local_workers_give_the_same_scores(tmp_path: Path) -> None:
    one = run_campaign(oracle_run(tmp_path / "one"))
    two = run_campaign(oracle_run(tmp_path / "two", ExecutionOptions(workers=2)))
    assert two.summary == one.summary


def test_sigkill_then_resume_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "duplexbench.cli", "run", "--suite", str(FIXTURES)]
    cmd += ["--agent", "oracle", "-k", "3", "--out", str(out), "-q", "--json"]
    work = tmp_path / "tmp"  # the episodes' work folders (TMPDIR): one there is in flight
    work.mkdir()
    env = {**os.environ, "TMPDIR": str(work)}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)

    def in_flight() -> bool:
        return any(p.name.startswith("duplexbench-episode-") for p in work.iterdir())

    try:  # stopped (SIGSTOP) with 4 episodes complete and the next in flight, then killed
        stop_when(proc, lambda: len(episodes(out)) >= 4 and in_flight(), 120, "4 episodes")
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    killed_at = len(episodes(out))
    assert 4 <= killed_at < 15 and in_flight()  # the state it was stopped, then killed, in
    done = subprocess.run([*cmd, "--resume"], capture_output=True, text=True, check=True)
    summary = json.loads(done.stdout)
    assert summary["episodes"] == 15 and summary["errors"] == 0
    assert summary["workflows"]["pass_at_1"] == 1.0
    folders = [p for p in out.glob("episodes/*/*/*/*") if p.is_dir()]
    assert len(folders) == 15 and len(episodes(out)) == 15  # each once, each complete
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert (
        sorted((r["item_id"], r["repetition"]) for r in rows)
        == sorted({(r["item_id"], r["repetition"]) for r in rows})
        and len(rows) == 15
    )
    assert check_index(out) == [] and rebuild_index(out) == 15  # the index matches the folders
