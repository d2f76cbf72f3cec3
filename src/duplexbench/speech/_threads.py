"""How many CPU threads one process's speech engines (ASR, neural TTS) may use.

ASR (whisper) follows the cores: a campaign on ``W`` local workers gives each
worker ``max(1, cores // W)`` threads, so 2 workers on 2 cores use 2 cores,
not 4. The process pool calls ``use_worker_share(threads_per_worker(W))`` in
each worker, which sets :data:`SPEECH_THREADS_ENV` unless it already holds a
valid value; a Ray task gets its one CPU. Overrides, most specific first:

- ``DUPLEXBENCH_ASR_THREADS``: the ASR engine;
- ``DUPLEXBENCH_SPEECH_THREADS``: the ASR engine (the variable the pool sets);
- neither: every core this process may run on, at most :data:`MAX_DEFAULT`
  (one process alone on the machine; more threads than that do not pay for
  utterance-sized work).

TTS (piper, onnxruntime) runs on :data:`TTS_DEFAULT` thread whatever the
workers: its output depends on its thread count (1 vs 2 intra-op threads
changed 16 of 40 renders by one least significant bit), and speech-bank
clips are keyed by text, voice and engine, not threads, so a clip must sound
the same whoever renders it. whisper's transcripts do not depend on its
thread count (100 bank clips, 1, 2 and 4 threads: the same text and word
times); ``benchmarks/speech_threads.py`` measures both.
``DUPLEXBENCH_TTS_THREADS`` overrides it, at the cost of clips that differ
from other machines' by that bit.

A value that is not a positive integer is ignored (the next rule applies).

Native thread pools (OpenMP, OpenBLAS, MKL) size themselves from
``OMP_NUM_THREADS`` / ``OPENBLAS_NUM_THREADS`` / ``MKL_NUM_THREADS`` once, when
the library loads, which in a spawned worker is before any initializer runs;
left alone they start one thread per core, and their idle threads spin: two
reference episodes in one process (whisper on one thread) used 37.0 s of CPU
for 30.5 s of wall time, 30.5 s with the three set to 1, the wall time
unchanged. Two such workers on
two cores steal from each other. So the local pools start their workers inside
:func:`worker_environment`, which sets each variable the user has not set to
the worker's share.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal

__all__ = [
    "ASR_THREADS_ENV",
    "MAX_DEFAULT",
    "NATIVE_THREAD_VARS",
    "SPEECH_THREADS_ENV",
    "TTS_DEFAULT",
    "TTS_THREADS_ENV",
    "cores",
    "speech_threads",
    "threads_per_worker",
    "use_worker_share",
    "worker_environment",
]

SPEECH_THREADS_ENV = "DUPLEXBENCH_SPEECH_THREADS"
ASR_THREADS_ENV = "DUPLEXBENCH_ASR_THREADS"
TTS_THREADS_ENV = "DUPLEXBENCH_TTS_THREADS"
MAX_DEFAULT = 8
TTS_DEFAULT = 1
NATIVE_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def _positive(value: str | None) -> int | None:
    if value is None or not value.strip().isdigit():
        return None
    number = int(value.strip())
    return number if number >= 1 else None


def cores() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def threads_per_worker(workers: int) -> int:
    """``max(1, cores // workers)`` (at most :data:`MAX_DEFAULT`): one worker's share."""
    return min(MAX_DEFAULT, max(1, cores() // max(1, workers)))


def speech_threads(kind: Literal["asr", "tts"]) -> int:
    """Threads for this process's engine of ``kind`` (module docstring)."""
    if kind == "tts":
        return _positive(os.environ.get(TTS_THREADS_ENV)) or TTS_DEFAULT
    for name in (ASR_THREADS_ENV, SPEECH_THREADS_ENV):
        value = _positive(os.environ.get(name))
        if value is not None:
            return value
    return min(MAX_DEFAULT, cores())


def use_worker_share(share: int) -> int:
    """In a worker process: the ASR engine defaults to ``share`` threads (at least 1).

    Sets :data:`SPEECH_THREADS_ENV` unless the user set it to a valid value, which
    is kept (``DUPLEXBENCH_ASR_THREADS`` still wins over both). Returns the value
    now in :data:`SPEECH_THREADS_ENV`.
    """
    explicit = _positive(os.environ.get(SPEECH_THREADS_ENV))
    if explicit is not None:
        return explicit
    os.environ[SPEECH_THREADS_ENV] = str(max(1, share))
    return max(1, share)


@contextmanager
def worker_environment(share: int) -> Iterator[None]:
    """Processes started inside the block inherit :data:`NATIVE_THREAD_VARS` set to
    ``share`` (at least 1), except those the user set; this process's environment is
    put back afterwards (module docstring)."""
    added = [name for name in NATIVE_THREAD_VARS if name not in os.environ]
    for name in added:
        os.environ[name] = str(max(1, share))
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)
