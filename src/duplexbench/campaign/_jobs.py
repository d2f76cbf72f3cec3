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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from duplexbench.campaign._family import get_family
from duplexbench.orchestrator import DEFAULT_STALL_S, FAULTS, watchdog
from duplexbench.speech import SpeechBank
from duplexbench.trace import ErrorKind
from duplexbench.users import DeciderConfig, ObserverConfig


@dataclass(frozen=True)
class JobConfig:
    """What every episode of one run directory shares."""

    family: Literal["workflow", "action"]
    suite: str
    agent: str
    """The agent spec as given (options included)."""
    agent_label: str
    """The spec as recorded in traces (`redact_spec`: no secrets)."""
    condition: str
    seed: int = 0
    frame_ms: int = 20
    speech_cache: str | None = None
    realtime_speed: float = 1.0
    decider: DeciderConfig | None = None
    noise_dir: str | None = None
    voice_fallback: bool = False
    stall_s: float | None = DEFAULT_STALL_S
    """Wall seconds without progress before the episode is stopped as an error (None: never)."""
    observer: ObserverConfig = field(default_factory=ObserverConfig)
    """The simulated user's act observer (workflow items)."""


@dataclass(frozen=True)
class EpisodeJob:
    config: JobConfig
    item: dict[str, Any]
    """The item snapshot (as in RUN_DIR/items/<id>.json)."""
    item_checksum: str
    repetition: int
    rel: str
    """Episode folder relative to the run directory."""
    attempt: int = 0

    @property
    def item_id(self) -> str:
        return str(self.item["id"])


@dataclass(frozen=True)
class JobResult:
    rel: str
    files: dict[str, bytes]
    """events.jsonl, audio.wav, ... (empty when the episode could not run at all)."""
    error: str | None
    seconds: float
    error_kind: ErrorKind | None = None
    """With an error: `agent` (scored as a failed episode, never retried) or `harness`
    (retried; a fault outside the episode loop is the harness's)."""

    @property
    def status(self) -> str:
        return "ok" if self.error is None else "error"

    @property
    def retryable(self) -> bool:
        """Only a harness error is retried: a retry must never choose between outcomes."""
        return self.error is not None and self.error_kind != "agent"


_BANKS: dict[str | None, SpeechBank] = {}


def bank_at(path: str | None) -> SpeechBank:
    """The worker's speech bank at `path` (None: the default folder), made once."""
    if path not in _BANKS:
        _BANKS[path] = SpeechBank(Path(path) if path else None)
    return _BANKS[path]


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
