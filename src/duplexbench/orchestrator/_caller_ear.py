"""The harness's ear on a human caller's channel: utterances cut by voice activity and
read by ASR in a worker thread, so the media clock never waits on a transcription.

An utterance starts when the caller's channel turns to speech (`StreamingVad`) and
ends after `end_ms` of quiet; its samples, with `pad_ms` of context on both sides,
go to the ASR engine. A transcription that fails is a harness fault: it is raised
on the loop's thread the next time finished utterances are taken.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from duplexbench.audio import SAMPLE_RATE, Int16Array, StreamingVad, samples_for_ms
from duplexbench.speech import get_asr

T = TypeVar("T")


@dataclass(frozen=True)
class HeardUtterance:
    """One utterance of the caller: media times of its speech and what ASR read."""

    start_ms: int
    end_ms: int
    text: str


class CallerEar:
    """Cuts the caller's channel into utterances and transcribes each one."""

    def __init__(
        self,
        asr: str,
        frame_ms: int,
        end_ms: int = 700,
        pad_ms: int = 200,
        *,
        threaded: bool = True,
    ) -> None:
        """`threaded`: False reads each utterance on the caller's thread, at once (on a
        virtual clock the trace is then the same every run)."""
        self.asr, self.frame_ms, self.end_ms, self.pad_ms = asr, frame_ms, end_ms, pad_ms
        self.vad = StreamingVad(sample_rate=SAMPLE_RATE, hangover_ms=end_ms)
        self._pool: Executor = (
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="caller-asr")
            if threaded
            else _Inline()
        )
        self._frames: list[Int16Array] = []
        """The caller's channel since the current utterance's context began."""
        self._start: int | None = None
        self._pending: list[tuple[int, int, Future[str]]] = []

    @property
    def speaking(self) -> bool:
        """An utterance is open (speech, or a pause shorter than `end_ms`)."""
        return self._start is not None

    @property
    def busy(self) -> bool:
        """Words the harness has not read yet: an open utterance or one being transcribed."""
        return self.speaking or bool(self._pending)

    def push(self, frame: Int16Array, t: int) -> None:
        """The caller's frame that starts at media time `t`."""
        was = self.vad.speaking
        now = self.vad.push(frame)
        self._frames.append(frame)
        if now and not was:
            self._start = max(0, t + self.frame_ms - self.vad.speech_ms)
        elif was and not now and self._start is not None:
            self._submit(self._start, t + self.frame_ms - self.vad.silence_ms)
        if self._start is None:
            keep = max(1, self.pad_ms // self.frame_ms + 2)
            self._frames = self._frames[-keep:]

    def _submit(self, start: int, end: int) -> None:
        samples = np.concatenate(self._frames) if self._frames else np.zeros(0, np.int16)
        tail = samples_for_ms(max(0, self.vad.silence_ms - self.pad_ms))
        clip = samples[: len(samples) - tail] if tail else samples
        self._pending.append((start, end, self._pool.submit(self._read, clip)))
        self._start, self._frames = None, []

    def _read(self, samples: Int16Array) -> str:
        return get_asr(self.asr).transcribe(samples).text.strip()

    def take(self) -> list[HeardUtterance]:
        """Utterances whose transcription is done, in order (a failed one raises)."""
        done: list[HeardUtterance] = []
        while self._pending and self._pending[0][2].done():
            start, end, future = self._pending.pop(0)
            done.append(HeardUtterance(start, end, future.result()))
        return done

    def close(self, t: int) -> list[HeardUtterance]:
        """End of the call: read what is still open and wait for every transcription."""
        if self._start is not None:
            self._submit(self._start, t)
        out = [HeardUtterance(s, e, f.result()) for s, e, f in self._pending]
        self._pending = []
        self._pool.shutdown(wait=True)
        return out


class _Inline(Executor):
    """Runs each job at once on the submitting thread."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:  # kept for `take`, as a worker thread's would be
            future.set_exception(exc)
        return future
