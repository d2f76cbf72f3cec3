"""One episode as a self-contained job: what a worker process (or a Ray task) runs.

A job carries everything it needs (the item snapshot as JSON, the agent spec,
the condition and options) and returns the episode's files as bytes, so it
runs the same in this process, in a local process pool or on another machine
without a shared file system. The driver writes the files into the run
directory and scores them (`campaign/_engine.py`). Expensive things (agents'
models, TTS engines, the speech bank) are built once per worker process and
reused across its jobs.
"""

from __future__ import annotations

import gc
import shutil
import tempfile
import time
from pathlib import Path

from duplexbench.campaign._families import get_family
from duplexbench.campaign._model import EpisodeJob, JobResult
from duplexbench.orchestrator import FAULTS, watchdog
from duplexbench.trace import ErrorKind


def _run_into(job: EpisodeJob, folder: Path) -> tuple[str | None, ErrorKind | None]:
    """Run the episode and save its files into `folder`; the episode's error and its kind."""
    return get_family(job.config.family).run_episode(job, folder)


def free_episode() -> None:
    """Free the finished episode before the next one starts.

    An episode's objects (the loop, its agent, the recorder, the trace events)
    refer to each other, so they outlive the episode until Python's cycle
    collector runs a full pass, which it does rarely; the channels' audio hangs
    off them. A worker that played workflows-mini's items one after another
    grew from 231 to 881 MiB over 12 episodes without this, and to 476 MiB with
    it (docs/results/campaign.md). One full collection costs milliseconds.
    """
    gc.collect()


def execute_job(job: EpisodeJob) -> JobResult:
    """Run one episode; never raises (a fault becomes the result's error)."""
    start = time.perf_counter()
    try:
        folder = Path(tempfile.mkdtemp(prefix="duplexbench-episode-"))
    except OSError as exc:  # e.g. the worker's temp disk is full
        reason = f"could not start the episode: {type(exc).__name__}: {exc}"
        return JobResult(job.rel, {}, reason, time.perf_counter() - start)
    files: dict[str, bytes] = {}
    error: str | None
    kind: ErrorKind | None = None
    try:
        try:
            with watchdog(job.config.stall_s):
                error, kind = _run_into(job, folder)
        except FAULTS as exc:  # a fault outside the episode loop: the harness's error
            error, kind = f"{type(exc).__name__}: {exc}", "harness"
        free_episode()
        try:
            files = {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}
        except OSError as exc:
            files, error = {}, f"could not read the episode's files: {type(exc).__name__}: {exc}"
            kind = "harness"
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return JobResult(job.rel, files, error, time.perf_counter() - start, kind)
