"""Where episode jobs run: in this process, in a local process pool, or on Ray.

A backend takes :class:`~duplexbench.campaign._jobs.EpisodeJob` objects and hands
back :class:`~duplexbench.campaign._jobs.JobResult` objects as they finish; the
driver (`campaign/_engine.py`) decides what to submit and writes the results.

- ``local`` with one worker runs each job inline (no pickling, no start-up);
  with more, a ``spawn`` process pool (each worker builds its agents and TTS
  once and keeps them). With ``render_service`` (audio episodes,
  unless ``DUPLEXBENCH_RENDER_SERVICE=off``), clips of model TTS engines that an
  episode asks for render in one service process
  (`campaign/_render_service.py`), not in the episode's process, started with
  the pool (inline: on the first such clip). Each worker starts
  with its share of the cores for whisper (``threads_per_worker``,
  docs/campaigns.md "Threads") and loads the agents and the heavy modules
  jobs need (:data:`WARM_MODULES`) before its first job. A worker that dies
  (killed, out of memory) fails only its job, as an error, and the pool (with
  its render service) is rebuilt.
- ``ray`` submits each job as a Ray task (``ray.init(address)``; no address:
  a local Ray instance) of :data:`RAY_TASK_CPUS` CPU, whose whisper uses as
  many threads. Results come back as bytes, so workers need no shared file
  system with the driver. Install with ``duplexbench[ray]``.
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib
import multiprocessing
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from duplexbench.agents import list_agents
from duplexbench.campaign._jobs import execute_job
from duplexbench.campaign._model import EpisodeJob, JobResult
from duplexbench.campaign._render_service import (
    MODEL_ENGINES,
    RenderService,
    ServiceClient,
    connect,
)
from duplexbench.speech import (
    ClipRequest,
    threads_per_worker,
    use_remote_renderer,
    use_worker_share,
    worker_environment,
)

WARM_MODULES = ("faster_whisper",)
"""Imported by each pool worker before its first job, after the agents (those not
installed are skipped). Not piper: a worker that renders nothing (a warm bank, or
the render service on) never needs it, and one that does imports it then."""
RAY_TASK_CPUS = 1


class Backend(Protocol):
    slots: int
    """How many jobs may be in flight at once."""

    def submit(self, job: EpisodeJob) -> None: ...

    def wait(self) -> list[tuple[EpisodeJob, JobResult]]:
        """Block until at least one submitted job has finished; return those finished."""
        ...

    def close(self) -> None: ...


class _ServiceOnDemand:
    """This process's remote renderer that starts the render service on its first clip."""

    engines = MODEL_ENGINES

    def __init__(self) -> None:
        self.service: RenderService | None = None
        self._client: ServiceClient | None = None

    def render(self, root: Path, key: str, request: ClipRequest) -> bool:
        if self._client is None:
            self.service = RenderService(1)
            self._client = self.service.connect_here()
        return self._client.render(root, key, request)

    def close(self) -> None:
        if self.service is not None:
            self.service.close()


class InlineBackend:
    slots = 1

    def __init__(self, render_service: bool = False) -> None:
        self._done: list[tuple[EpisodeJob, JobResult]] = []
        self._renderer = _ServiceOnDemand() if render_service else None

    def submit(self, job: EpisodeJob) -> None:
        if self._renderer is None:
            self._done.append((job, execute_job(job)))
            return
        previous = use_remote_renderer(self._renderer)  # for this job only
        try:
            self._done.append((job, execute_job(job)))
        finally:
            use_remote_renderer(previous)

    def wait(self) -> list[tuple[EpisodeJob, JobResult]]:
        done, self._done = self._done, []
        return done

    def close(self) -> None:
        if self._renderer is not None:
            self._renderer.close()


def _start_worker(share: int, service: tuple[Any, ...] | None = None) -> None:
    """Pool initializer: the worker's thread share, its render service client, then
    the imports its jobs need."""
    use_worker_share(share)
    if service is not None:
        connect(*service)
    warm: list[Callable[[], object]] = [list_agents]  # the agents and plug-ins
    warm += [partial(importlib.import_module, name) for name in WARM_MODULES]
    for step in warm:
        try:
            step()
        except Exception:  # not installed, or broken: the job that needs it reports it
            continue


def _ray_job(job: EpisodeJob) -> JobResult:
    """A Ray task: whisper uses the task's CPUs (unless the node's environment says)."""
    use_worker_share(RAY_TASK_CPUS)
    return execute_job(job)


def _died(job: EpisodeJob, exc: BaseException) -> JobResult:
    return JobResult(job.rel, {}, f"worker failed: {type(exc).__name__}: {exc}", 0.0)


class PoolBackend:
    def __init__(self, workers: int, render_service: bool = False) -> None:
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        self.slots = workers
        self._render_service = render_service
        self._service: RenderService | None = None
        self._pool = self._new_pool()
        self._futures: dict[cf.Future[JobResult], EpisodeJob] = {}

    def _new_pool(self) -> cf.ProcessPoolExecutor:
        """A pool (and, with `render_service`, a service whose reply slots it claims)."""
        if self._service is not None:
            self._service.close()
        self._service = RenderService(self.slots) if self._render_service else None
        service = None if self._service is None else self._service.client_args()
        context = multiprocessing.get_context("spawn")
        return cf.ProcessPoolExecutor(
            max_workers=self.slots,
            mp_context=context,
            initializer=_start_worker,
            initargs=(threads_per_worker(self.slots), service),
        )

    def submit(self, job: EpisodeJob) -> None:
        # the pool starts its workers inside submit(): they inherit this environment
        with worker_environment(threads_per_worker(self.slots)):
            try:
                future = self._pool.submit(execute_job, job)
            except cf.process.BrokenProcessPool:
                self._pool = self._new_pool()
                future = self._pool.submit(execute_job, job)
        self._futures[future] = job

    def wait(self) -> list[tuple[EpisodeJob, JobResult]]:
        if not self._futures:
            return []
        finished, _ = cf.wait(self._futures, return_when=cf.FIRST_COMPLETED)
        out = []
        for future in finished:
            job = self._futures.pop(future)
            try:
                out.append((job, future.result()))
            except Exception as exc:  # the worker process died under this job
                out.append((job, _died(job, exc)))
        return out

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        if self._service is not None:
            self._service.close()


class RayBackend:
    def __init__(self, address: str | None, workers: int | None) -> None:
        try:
            import ray  # noqa: PLC0415 - optional extra, imported only for this backend
        except ImportError:
            raise ValueError("the ray backend needs Ray: pip install 'duplexbench[ray]'") from None
        self._ray: Any = ray
        if not self._ray.is_initialized():
            self._ray.init(address=address, include_dashboard=False, log_to_driver=False)
        cpus = int(self._ray.cluster_resources().get("CPU", 1))
        self.slots = max(1, workers or cpus)
        self._task = self._ray.remote(num_cpus=RAY_TASK_CPUS, max_retries=0)(_ray_job)
        self._refs: dict[Any, EpisodeJob] = {}

    def submit(self, job: EpisodeJob) -> None:
        self._refs[self._task.remote(job)] = job

    def wait(self) -> list[tuple[EpisodeJob, JobResult]]:
        if not self._refs:
            return []
        ready, _ = self._ray.wait(list(self._refs), num_returns=1)
        out = []
        for ref in ready:
            job = self._refs.pop(ref)
            try:
                out.append((job, self._ray.get(ref)))
            except Exception as exc:  # the task's worker died or the task failed
                out.append((job, _died(job, exc)))
        return out

    def close(self) -> None:
        for ref in self._refs:
            self._ray.cancel(ref, force=True)
        self._refs.clear()


def make_backend(
    name: str, workers: int = 1, ray_address: str | None = None, render_service: bool = False
) -> Backend:
    """`local` (inline for one worker, else a process pool) or `ray`; `render_service`:
    local episodes render model-engine clips in one service process."""
    if name == "local":
        if workers <= 1:
            return InlineBackend(render_service)
        return PoolBackend(workers, render_service)
    if name == "ray":
        return RayBackend(ray_address, workers if workers > 1 else None)
    raise ValueError(f"unknown backend {name!r}; use 'local' or 'ray'")
