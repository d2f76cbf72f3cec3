"""The campaign driver: resumable, retrying, concurrency-limited episode execution.

For each run directory (`Target`) it lists the episodes in their fixed order
(`CampaignSpec.episodes`). An episode is complete only when its folder holds a
`result.json`; the folder is filled as `<name>.partial/` (files, then the
score written from the trace) and renamed into place in one step, so a runner
killed at any moment leaves complete episodes and, at worst, a `.partial`
folder that the next run deletes and redoes. Rerunning therefore skips every
complete episode and duplicates none. Each finished episode is also upserted
into the run's SQLite index (`store.py`); `rebuild_index` makes the index
agree with the folders again after a crash between the two.

Jobs start repetition by repetition: every item's first repetition, then
every item's second, and so on (with `--workers 2`, an item's repetitions no
longer run side by side). A later repetition then finds what the first one
put in the caches shared by the workers (the observer's embeddings; the
transcripts of caller speech that recurs across repetitions) instead of
computing it a second time at the same moment.
Each episode's result does not depend on the order.

Jobs go to a backend (`backends.py`). A job that ends in a harness error (a
TTS or ASR engine failed, the simulated user or storage failed, a connection
never opened, a worker died, the backend could not start it) is retried
after `backoff_s`, doubling each time, up to `retries` times; after that it
is kept as an error episode, left out of the rates (the run is then
incomplete). An agent error (the agent raised, disconnected, sent garbage,
flooded or stalled) is never retried: a retry must not choose between
outcomes, so it is saved at once and scored as a failed episode
(docs/metrics.md, "Errors"). `limits` caps how many episodes of one agent
spec run at once (hosted APIs have rate limits).

Storage faults: when an episode's folder cannot be written (disk full,
read-only, no permission) its `.partial` folder is removed and the job is
retried like an error; with no retry left the run stops with a
`StorageError` naming the episode and the cause. That episode is then not
complete (no `result.json`), so `--resume` runs it once the fault is gone;
it is never kept as an error, which `--resume` would skip. An index
(`index.sqlite`) that cannot be written does not stop the run: the episode is
complete, and `refresh_index` at the end of the run (or of the next
`--resume`) indexes it.
"""

from __future__ import annotations

import heapq
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from duplexbench.campaign._backends import Backend
from duplexbench.campaign._model import EpisodeJob, JobResult, Score, Target
from duplexbench.campaign._rundir import StorageError, storage_error, write_model
from duplexbench.campaign._scores import error_of, read_score, score_folder
from duplexbench.campaign._store import StoreError, upsert_episode

PARTIAL = ".partial"
RESUME_HINT = (
    "complete episodes are kept; free space (or make the folder writable) and continue "
    "with --resume"
)


@dataclass(frozen=True)
class EngineOptions:
    retries: int = 0
    backoff_s: float = 1.0
    limits: dict[str, int] = field(default_factory=dict)
    """Agent spec -> most episodes of it in flight."""

    def __post_init__(self) -> None:
        bad = {agent: n for agent, n in self.limits.items() if n < 1}
        if bad or self.retries < 0 or self.backoff_s < 0:
            raise ValueError(f"limits must be >= 1 ({bad}), retries and backoff_s >= 0")


@dataclass
class RunTally:
    """What a run of targets has done so far: episodes counted by outcome, and time."""

    total: int = 0
    done: int = 0
    skipped: int = 0
    errors: int = 0
    """Harness errors kept (left out of the rates)."""
    agent_errors: int = 0
    """Episodes the agent failed by an error (scored as failures, never retried)."""
    retried: int = 0
    unindexed: int = 0
    """Episodes saved but not indexed (the index could not be written); see module docs."""
    job_seconds: float = 0.0
    """Time spent inside the episode jobs (the rest is the runner's own cost)."""
    started: float = field(default_factory=time.perf_counter)


Listener = Callable[[RunTally, Score | None], None]


def _pending(target: Target) -> Iterator[EpisodeJob]:
    """Jobs of the episodes not complete yet; complete ones are loaded into `scores`."""
    for partial in target.run_dir.glob(f"episodes/**/*{PARTIAL}"):
        shutil.rmtree(partial, ignore_errors=True)
    for item_id, repetition, rel in target.spec.episodes():
        folder = target.run_dir / rel
        done = read_score(folder, target.spec.family)
        if done is not None:
            target.scores[rel] = done
            continue
        shutil.rmtree(folder, ignore_errors=True)  # an incomplete episode: redo it
        item = target.items[item_id]
        yield EpisodeJob(
            target.config,
            item.model_dump(mode="json"),
            target.spec.item_checksums[item_id],
            repetition,
            rel,
        )


def place(target: Target, job: EpisodeJob, result: JobResult) -> Score:
    """Write the job's files, score them, and rename the folder into place.

    A folder that cannot be written raises `StorageError`; its `.partial` is removed.
    """
    final = target.run_dir / job.rel
    partial = final.with_name(final.name + PARTIAL)
    try:
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        for name, data in result.files.items():
            (partial / name).write_bytes(data)
        item = target.items[job.item_id]
        if "events.jsonl" in result.files:
            exempt = target.spec.provenance_exempt is not None
            score = score_folder(item, partial, target.judge, job.repetition, exempt=exempt)
        else:
            score = error_of(item, job.repetition, result.error or "the episode produced no trace")
            write_model(partial / "result.json", score)
        shutil.rmtree(final, ignore_errors=True)
        os.replace(partial, final)
    except (OSError, StorageError) as exc:
        shutil.rmtree(partial, ignore_errors=True)  # frees its space; never counted complete
        if isinstance(exc, StorageError):
            raise StorageError(f"cannot save episode {job.rel}: {exc}") from exc
        raise storage_error(exc, f"cannot save episode {job.rel}") from exc
    return score


class _Scheduler:
    def __init__(self, options: EngineOptions, backend: Backend) -> None:
        self.options, self.backend = options, backend
        self.ready: list[tuple[float, int, EpisodeJob, Target]] = []
        self.in_flight: dict[str, int] = {}
        self.owner: dict[int, Target] = {}
        """Target of each submitted job (backends hand back the job object submitted)."""
        self.refused: list[tuple[EpisodeJob, JobResult]] = []
        """Jobs the backend failed to start: they end as errors (and are retried)."""
        self._n = 0

    def add(self, job: EpisodeJob, target: Target, at: float = 0.0) -> None:
        self._n += 1
        heapq.heappush(self.ready, (at, self._n, job, target))

    def _allowed(self, job: EpisodeJob) -> bool:
        limit = self.options.limits.get(job.config.agent)
        return limit is None or self.in_flight.get(job.config.agent, 0) < limit

    def fill(self) -> None:
        """Submit ready jobs while there are free slots and the agent limits allow."""
        held: list[tuple[float, int, EpisodeJob, Target]] = []
        now = time.monotonic()
        while self.ready and sum(self.in_flight.values()) < self.backend.slots:
            entry = heapq.heappop(self.ready)
            at, _, job, target = entry
            if at > now or not self._allowed(job):
                held.append(entry)
                continue
            self.in_flight[job.config.agent] = self.in_flight.get(job.config.agent, 0) + 1
            self.owner[id(job)] = target
            try:
                self.backend.submit(job)
            except Exception as exc:  # e.g. no space for the job's temp folder
                error = f"could not start the episode: {type(exc).__name__}: {exc}"
                self.refused.append((job, JobResult(job.rel, {}, error, 0.0)))
        for entry in held:
            heapq.heappush(self.ready, entry)

    def finished(self) -> list[tuple[EpisodeJob, JobResult, Target]]:
        if not any(self.in_flight.values()):
            delay = self.ready[0][0] - time.monotonic() if self.ready else 0.0
            time.sleep(max(0.0, delay))  # only backoff waits: nothing is running
            return []
        done, self.refused = self.refused, []
        out = []
        for job, result in done or self.backend.wait():
            self.in_flight[job.config.agent] -= 1
            target = self.owner.pop(id(job))
            out.append((job, result, target))
        return out

    def retry(self, job: EpisodeJob, target: Target) -> None:
        delay = self.options.backoff_s * 2**job.attempt
        self.add(replace(job, attempt=job.attempt + 1), target, time.monotonic() + delay)


def _save(target: Target, job: EpisodeJob, result: JobResult, progress: RunTally) -> Score:
    """Place the episode (StorageError if it cannot be written) and index it."""
    score = place(target, job, result)
    target.scores[job.rel] = score
    try:
        upsert_episode(target.run_dir, target.spec, job.rel, score)
    except StoreError:
        progress.unindexed += 1  # complete on disk; refresh_index indexes it (module docs)
    return score


def run_targets(
    targets: list[Target],
    backend: Backend,
    options: EngineOptions | None = None,
    listener: Listener | None = None,
) -> RunTally:
    """Run every incomplete episode of `targets` (module docstring)."""
    opts = options or EngineOptions()
    sched = _Scheduler(opts, backend)
    progress = RunTally()
    pending = [(job, target) for target in targets for job in _pending(target)]
    for job, target in sorted(pending, key=lambda entry: entry[0].repetition):
        sched.add(job, target)  # repetition by repetition (module docstring)
    progress.skipped = sum(len(target.scores) for target in targets)
    progress.total = progress.skipped + len(sched.ready)
    progress.done = progress.skipped
    if listener is not None:
        listener(progress, None)
    while sched.ready or any(sched.in_flight.values()):
        sched.fill()
        for job, result, target in sched.finished():
            progress.job_seconds += result.seconds
            retry = job.attempt < opts.retries
            if result.retryable and retry:
                progress.retried += 1
                sched.retry(job, target)
                continue
            try:
                score = _save(target, job, result, progress)
            except StorageError as exc:
                if not retry:
                    raise StorageError(f"the run stopped: {exc}; {RESUME_HINT}") from exc
                progress.retried += 1
                sched.retry(job, target)
                continue
            progress.done += 1
            progress.errors += score.status == "error"
            progress.agent_errors += score.agent_error is not None
            if listener is not None:
                listener(progress, score)
    return progress
