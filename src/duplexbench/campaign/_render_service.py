"""One process that renders the clips episodes ask for, so episode workers hold no TTS model.

Render ahead (`campaign/_ahead.py`) renders every clip a run's episodes can be
predicted to need, then its processes exit. An audio episode can still ask
for a line nobody predicted: the agent misheard a name and reads back what
it heard, the caller corrects it. Rendering those inside the episode worker
loads piper's (or hibari's, the agent's voice) model there and keeps it: in a cold `duplexbench run
--condition clean -k 1 --workers 2`, 95 of the run's 451 clips were rendered
in episode workers, and piper alone peaks at 371 MiB on the read-backs
(docs/results/campaign.md).

Local runs (one worker or a pool) start one render service instead (unless
``DUPLEXBENCH_RENDER_SERVICE=off``, :data:`SERVICE_ENV`): a ``spawn`` process per
model engine (:data:`MODEL_ENGINES`) that loads its engine on its first request
and renders clips into the requested bank folder, one at a time. One process
per engine, because one process holding piper (the callers) and hibari (the
agent) peaked at 675 MiB in the demo's cold run, over the 600 MiB a process may
take (docs/results/campaign.md). Episode workers install
a :class:`ServiceClient` as their bank's remote renderer (`speech/_bank.py`,
:func:`use_remote_renderer`): a missing clip of a model engine is sent to that
engine's process, and the worker reads it back from disk (checksum verified) when the
service says it is committed. Clips are deterministic, so where a clip was
rendered never changes its bytes.

Lighter engines (espeak and flite run as subprocesses; synthetic) render in
the worker as before. When the service has stopped (killed, out of memory),
a worker renders that engine's clips locally again and logs one warning. Ray runs do not use it
(their workers may be on other machines).

It is on by default since the piece cache (`speech/_pieces.py`) made the
unpredictable clips short: a misheard value re-renders the read-back's
changed pieces only, so workers seldom wait on each other. Measured on 2
cores (`benchmarks/demo.py`, docs/results/campaign.md): the cold main job
took 463 s with the service and 461 s without, its largest process 634 MiB
against 785 MiB. Before the piece cache it cost 711 s against 626 s, and it
was off by default.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duplexbench.orchestrator import kick
from duplexbench.speech import ClipRequest, SpeechBank, TTSError, use_remote_renderer

__all__ = [
    "MODEL_ENGINES",
    "SERVICE_ENV",
    "RenderService",
    "ServiceClient",
    "enabled",
    "engine_of",
    "serve",
]

MODEL_ENGINES = frozenset({"piper", "hibari"})
"""TTS engines that hold a neural model in memory: their clips render in the service
(rendering one read-back took a fresh process from 37 to 200 MiB with hibari, the
voice local agents speak with, and to 178 MiB with piper, peak 240)."""
POLL_S = 0.2
"""How often a waiting worker checks that the service is alive (and tells the episode's
stall watchdog that the harness is working: a render in progress is not a stall)."""
RENDER_LIMIT_S = 600.0
"""A clip the live service has not rendered after this long fails (TTSError)."""

SERVICE_ENV = "DUPLEXBENCH_RENDER_SERVICE"
"""``off`` (or ``0``, ``no``, ``false``): local runs render model-engine clips in the
episode workers; anything else (the default): in the service."""

_LOG = logging.getLogger(__name__)


def enabled() -> bool:
    """Whether local runs with audio episodes start a render service (default: yes)."""
    return os.environ.get(SERVICE_ENV, "on").strip().casefold() not in ("off", "0", "no", "false")


def serve(requests: Any, replies: list[Any], lifeline: Any) -> None:
    """The service's main loop: ``(slot, ident, root, key, request)`` in, ``(ident,
    outcome, error)`` out to ``replies[slot]``; ``None`` stops it. The outcome is
    ``ok``, ``failed`` (the render raised `error`) or ``other`` (this process
    describes the request under another key: its engine is not the worker's, e.g. a
    plug-in registered under the same name; the worker renders it). One bank object
    per folder, kept. ``lifeline`` is the write end of a pipe nobody else holds,
    never written: when this process ends, for whatever reason, its readers see
    the pipe close."""
    banks: dict[str, SpeechBank] = {}
    while True:
        try:
            message = requests.get()
        except (EOFError, OSError):  # every sender is gone: the run ended without us
            return
        if message is None:
            return
        slot, ident, root, key, request = message
        bank = banks.setdefault(root, SpeechBank(Path(root), memory_items=0))
        try:
            if bank.key(request.text, request.voice, request.settings) != key:
                replies[slot].put((ident, "other", None))
                continue
            bank.clip(request.text, request.voice, request.settings)
            outcome, error = "ok", None
        except Exception as exc:  # the worker raises it as its own render's failure
            outcome, error = "failed", f"{type(exc).__name__}: {exc}"
        replies[slot].put((ident, outcome, error))


def engine_of(request: ClipRequest) -> str:
    """The engine of a request's voice (``engine:voice``)."""
    return request.voice.partition(":")[0]


@dataclass
class ServiceClient:
    """A worker's side of the service: renders through it while it is alive."""

    requests: dict[str, Any]
    """Each engine's request queue."""
    reply: Any
    slot: int
    lifelines: dict[str, Any]
    """The read end of each engine process's lifeline: readable (closed) once it ended."""
    stopped_engines: set[str] = field(default_factory=set)
    sent: int = 0

    @property
    def engines(self) -> frozenset[str]:
        """The engines this client renders through the service (those still running)."""
        return frozenset(self.requests) - self.stopped_engines

    @property
    def stopped(self) -> bool:
        """Whether an engine's process stopped while this client used it."""
        return bool(self.stopped_engines)

    def render(self, root: Path, key: str, request: ClipRequest) -> bool:
        """Ask the service to commit `request`'s clip under `root` as `key`; False when
        the engine's process has stopped or would render another clip (the caller
        renders it itself). TTSError when the render failed."""
        engine = engine_of(request)
        if engine not in self.engines or not self._alive(engine):
            return self._stop(engine)
        self.sent += 1
        self.requests[engine].put((self.slot, self.sent, str(root), key, request))
        deadline = time.monotonic() + RENDER_LIMIT_S
        while True:
            try:
                ident, outcome, error = self.reply.get(timeout=POLL_S)
            except queue.Empty:
                if not self._alive(engine):
                    return self._stop(engine)
                if time.monotonic() > deadline:
                    raise TTSError(f"the render service took over {RENDER_LIMIT_S:g} s") from None
                kick()
                continue
            if ident != self.sent:  # the reply to a request abandoned earlier (a stall)
                continue
            if outcome == "failed":
                raise TTSError(f"the render service could not render {request.text!r}: {error}")
            return bool(outcome == "ok")

    def _alive(self, engine: str) -> bool:
        try:
            return not bool(self.lifelines[engine].poll())
        except (OSError, EOFError):
            return False

    def _stop(self, engine: str) -> bool:
        if engine in self.requests and engine not in self.stopped_engines:
            _LOG.warning(
                "the render service's %s process stopped; this worker renders its clips itself",
                engine,
            )
            self.stopped_engines.add(engine)
        return False


class RenderService:
    """The driver's handle: starts one service process per engine and the queues, one
    reply queue per worker slot (shared by the engines: a worker waits on one clip at a
    time); :meth:`client_args` go to each worker's initializer."""

    def __init__(self, slots: int, engines: frozenset[str] = MODEL_ENGINES) -> None:
        context = multiprocessing.get_context("spawn")
        self._replies = [context.Queue() for _ in range(max(1, slots))]
        self._next = context.Value("i", 0)
        self._requests: dict[str, Any] = {}
        self._lifelines: dict[str, Any] = {}
        self._processes: dict[str, Any] = {}
        for engine in sorted(engines):
            requests = self._requests[engine] = context.Queue()
            self._lifelines[engine], writer = context.Pipe(duplex=False)
            process = context.Process(
                target=serve,
                args=(requests, self._replies, writer),
                name=f"duplexbench-render-{engine}",
                daemon=True,
            )
            process.start()
            writer.close()  # the service holds the only write end
            self._processes[engine] = process

    def pid(self, engine: str) -> int | None:
        """The process id of `engine`'s process."""
        return int(self._processes[engine].pid)

    def client_args(self) -> tuple[Any, ...]:
        """What :func:`connect` needs in a worker (picklable at process start)."""
        return (self._requests, self._replies, self._next, self._lifelines)

    def connect_here(self) -> ServiceClient:
        """A client for this process (the inline backend's episodes), not installed."""
        return _claim(*self.client_args())

    def close(self) -> None:
        """Stop the service (each process finishes the clip it is rendering)."""
        for engine, process in self._processes.items():
            if process.is_alive():
                self._requests[engine].put(None)
        for process in self._processes.values():
            process.join(timeout=30)
            if process.is_alive():
                process.kill()
                process.join()


def connect(*client_args: Any) -> ServiceClient:
    """In a worker: claim the next reply slot and install the client as this
    process's bank renderer (:meth:`RenderService.client_args`)."""
    client = _claim(*client_args)
    use_remote_renderer(client)
    return client


def _claim(
    requests: dict[str, Any], replies: list[Any], counter: Any, lifelines: dict[str, Any]
) -> ServiceClient:
    with counter.get_lock():
        slot = counter.value
        counter.value += 1
    if slot >= len(replies):
        raise RuntimeError(f"render service: {slot + 1} workers for {len(replies)} slots")
    return ServiceClient(dict(requests), replies[slot], slot, dict(lifelines))
