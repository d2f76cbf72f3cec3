"""Render ahead: every clip a run's audio episodes can ask for, before the first one starts.

`duplexbench run` and `campaign run` call :func:`render_ahead` after the run
directories are set up. For each workflow target on an audio condition it
rehearses every (item, repetition) of the run (:mod:`duplexbench.campaign._rehearsal`:
the same episode on the text channel; cached beside the speech bank), then
renders each clip the bank does not hold yet. Text conditions and action
suites are left alone, and so are runs on Ray (its workers keep their own banks).

Work is spread over the run's ``workers``: with more than one, a ``spawn``
process pool rehearses the items and renders the clips (longest text first);
with one, rehearsals run in this process (they warm what its episodes use)
and clips render in one child process. Either way the model memory of a
neural TTS (piper, hibari) leaves with the pool before the episodes start, so
episode workers do not hold it; the clips of each model engine render in fresh
processes of their own (in a cold `run --condition clean -k 1 --workers 2`, a
render-ahead process that rendered both engines' clips peaked at 540 MiB:
`benchmarks/worker_memory.py --run`). Clips of :data:`LIGHT_ENGINES` render in
this process. Bank writes are atomic and deterministic, so parallel renders
of the same clip are harmless.

A clip that fails to render is reported (the episode that needs it tries
again and, failing, ends as a harness error); it never stops the run here.
"""

from __future__ import annotations

import concurrent.futures as cf
import logging
import multiprocessing
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from duplexbench.campaign._rehearsal import Rehearsal, RehearsalCache, rehearse
from duplexbench.items import WorkflowItem
from duplexbench.speech import (
    ClipRequest,
    PrerenderFailure,
    SpeechBank,
    keep_arena,
    threads_per_worker,
    worker_environment,
)

if TYPE_CHECKING:  # not imported at run time: pool processes import this module
    from duplexbench.campaign._model import ExecutionOptions, Target

__all__ = ["LIGHT_ENGINES", "AheadReport", "Bars", "plan_rehearsals", "render_ahead"]

LIGHT_ENGINES = frozenset({"synthetic"})
"""Engines cheap enough to render in the driver process (no model, no subprocess)."""

Tick = Callable[[int, int, Any], None]
Bars = Callable[[str], Tick]
"""A progress-bar factory: `bars(description)` -> tick(done, total, outcome with `.status`)."""

_LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class AheadReport:
    episodes: int
    """Episodes whose clips were predicted."""
    rehearsed: int
    """Of those, rehearsed now (the others came from the rehearsal cache)."""
    clips: int
    """Distinct clips the episodes need."""
    rendered: int
    """Clips rendered now (the others were in the bank)."""
    failures: tuple[PrerenderFailure, ...]
    seconds: float


@dataclass(frozen=True)
class _Outcome:
    status: str  # "ok" | "error": what the progress bars count


_OK, _ERROR = _Outcome("ok"), _Outcome("error")


def _audio_targets(targets: Iterable[Target]) -> list[Target]:
    return [
        t
        for t in targets
        if t.config.family == "workflow" and t.config.condition.channel == "audio"
    ]


def plan_rehearsals(target: Target) -> list[Rehearsal]:
    """One rehearsal per (item, repetition) of an audio workflow target, in run order."""
    c = target.config
    rehearsals = []
    for item_id, repetition, _ in target.spec.episodes():
        item = target.items[item_id]
        assert isinstance(item, WorkflowItem)
        rehearsals.append(
            Rehearsal(item, c.agent, c.condition, c.seed, repetition, c.observer, c.voice_fallback)
        )
    return rehearsals


class _Pool:
    """A spawn process pool, started on first use and closed at the end."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._pool: cf.ProcessPoolExecutor | None = None

    def map(self, fn: Callable[..., Any], args: Sequence[Any], tick: Tick | None) -> list[Any]:
        """`fn(arg)` for each arg (in the pool), results in order; ticks as each finishes.

        A call that raised, or whose process died (e.g. out of memory), gives
        its exception as its result.
        """
        with worker_environment(threads_per_worker(self.size)):  # workers start in submit()
            try:
                futures = {self._started().submit(fn, a): i for i, a in enumerate(args)}
            except cf.process.BrokenProcessPool:  # a process died in an earlier map
                self.close()
                self._pool = None
                futures = {self._started().submit(fn, a): i for i, a in enumerate(args)}
        results: list[Any] = [None] * len(args)
        for done, future in enumerate(cf.as_completed(futures), start=1):
            try:
                result = future.result()
            except Exception as exc:  # the caller reports it; the run goes on
                result = exc
            results[futures[future]] = result
            if tick is not None:
                tick(done, len(args), _ERROR if isinstance(result, str | Exception) else _OK)
        return results

    def _started(self) -> cf.ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = cf.ProcessPoolExecutor(
                max_workers=self.size, mp_context=context, initializer=keep_arena
            )
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)

    def recycle(self) -> None:
        """Close the processes; the next `map` starts fresh ones (no model loaded)."""
        self.close()
        self._pool = None


@dataclass
class _Step:
    """What the steps of one render-ahead share: the pool, the workers, the bars."""

    pool: _Pool
    workers: int
    bars: Bars | None
    label: str

    def tick(self, what: str) -> Tick | None:
        return self.bars(f"{what} · {self.label}") if self.bars is not None else None


def render_ahead(
    targets: Sequence[Target], ex: ExecutionOptions, bars: Bars | None = None
) -> AheadReport | None:
    """Rehearse the audio targets' episodes and render every missing clip (module docstring).

    None when nothing is to be done here (no audio workflow target, or a Ray backend).
    """
    audio = _audio_targets(targets)
    if not audio or ex.backend != "local":
        return None
    start = time.perf_counter()
    label = ", ".join(dict.fromkeys(t.config.condition.name for t in audio))
    step = _Step(_Pool(ex.workers), ex.workers, bars, label)
    try:
        by_bank: dict[Path, list[ClipRequest]] = {}
        episodes = rehearsed = 0
        for target in audio:
            root = SpeechBank(_root(target.config.speech_cache)).root
            rehearsals = plan_rehearsals(target)
            clips, ran = _predict(rehearsals, RehearsalCache(root / "rehearsals"), step)
            by_bank.setdefault(root, []).extend(clips)
            episodes, rehearsed = episodes + len(rehearsals), rehearsed + ran
        needed = rendered = 0
        failures: list[PrerenderFailure] = []
        for root, clips in by_bank.items():
            bank = SpeechBank(root)
            missing = bank.missing(clips)
            needed += len({_ident(bank, c) for c in clips})
            failures += _render(bank, missing, step)
            rendered += len(missing)
    finally:
        step.pool.close()
    for failure in failures:
        _LOG.warning("render ahead: %s (%s): %s", failure.text, failure.voice, failure.reason)
    seconds = time.perf_counter() - start
    return AheadReport(
        episodes, rehearsed, needed, rendered - len(failures), tuple(failures), seconds
    )


def _root(speech_cache: str | None) -> Path | None:
    return Path(speech_cache) if speech_cache else None


def _ident(bank: SpeechBank, clip: ClipRequest) -> str:
    try:
        return bank.key(clip.text, clip.voice, clip.settings)
    except ValueError:
        return f"unrenderable:{clip}"


def _predict(
    rehearsals: list[Rehearsal], cache: RehearsalCache, step: _Step
) -> tuple[list[ClipRequest], int]:
    """Every clip the rehearsals predict (cached ones read, the rest rehearsed now)."""
    keys = [cache.key(r) for r in rehearsals]
    found = [cache.get(k) for k in keys]
    todo = [i for i, clips in enumerate(found) if clips is None]
    if todo:
        tick = step.tick("rehearsals")
        todo_rehearsals = [rehearsals[i] for i in todo]
        if step.workers > 1:
            results = step.pool.map(rehearse, todo_rehearsals, tick)
        else:  # here: the episodes that follow run here too, on warm caches
            results = []
            for done, r in enumerate(todo_rehearsals, start=1):
                results.append(rehearse(r))
                if tick is not None:
                    tick(done, len(todo), _OK)
        for i, clips in zip(todo, results, strict=True):
            if isinstance(clips, Exception):  # a rehearsal's process died: predict nothing
                _LOG.warning("rehearsal of %s failed: %s", rehearsals[i].item.id, clips)
                continue
            cache.put(keys[i], clips)
            found[i] = clips
    out = [clip for clips in found for clip in clips or []]
    return list(dict.fromkeys(out)), len(todo)


def _render(bank: SpeechBank, missing: list[ClipRequest], step: _Step) -> list[PrerenderFailure]:
    """Render the missing clips: light engines here, the others in the pool, an engine at a
    time in fresh processes (each holds one TTS model), longest first."""
    if not missing:
        return []
    tick = step.tick("speech")
    light = [c for c in missing if c.voice.partition(":")[0] in LIGHT_ENGINES]
    heavy = sorted(
        (c for c in missing if c.voice.partition(":")[0] not in LIGHT_ENGINES),
        key=lambda c: -len(c.text),
    )
    failures: list[PrerenderFailure] = []
    for done, clip in enumerate(light, start=1):
        reason = render_clip(str(bank.root), clip)
        if reason is not None:
            failures.append(PrerenderFailure(clip.text, clip.voice, reason))
        if tick is not None:
            tick(done, len(missing), _ERROR if reason else _OK)

    by_engine: dict[str, list[ClipRequest]] = {}
    for clip in heavy:
        by_engine.setdefault(clip.voice.partition(":")[0], []).append(clip)
    done = len(light)
    for engine, clips in sorted(by_engine.items()):
        step.pool.recycle()  # one TTS model per process (module docstring)

        def ticked(n: int, _total: int, outcome: Any, before: int = done) -> None:
            if tick is not None:
                tick(before + n, len(missing), outcome)

        reasons = step.pool.map(_render_in_worker, [(str(bank.root), c) for c in clips], ticked)
        failures += [
            PrerenderFailure(c.text, c.voice, r if isinstance(r, str) else f"worker failed: {r!r}")
            for c, r in zip(clips, reasons, strict=True)
            if r is not None
        ]
        done += len(clips)
        _LOG.debug("render ahead: %d %s clips", len(clips), engine)
    return failures


_BANKS: dict[str, SpeechBank] = {}


def render_clip(root: str, clip: ClipRequest) -> str | None:
    """Make sure `clip` is in the bank at `root`; None, or why it could not be rendered."""
    if root not in _BANKS:
        _BANKS[root] = SpeechBank(Path(root), memory_items=0)
    try:
        _BANKS[root].clip(clip.text, clip.voice, clip.settings)
    except Exception as exc:  # reported, never raised: the episode tries again
        return f"{type(exc).__name__}: {exc}"
    return None


def _render_in_worker(args: tuple[str, ClipRequest]) -> str | None:
    return render_clip(*args)
