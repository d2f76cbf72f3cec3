"""The onnxruntime session piper's voice runs on: threads and memory, never samples.

onnxruntime's defaults keep a CPU arena that only grows and a memory pattern
that pre-allocates for the largest shape seen, so a process keeps the peak
of its longest sentence for good. Here the pattern is off and the arena is
shrunk after every run (about 12% more CPU per clip), so the process gives
the memory back after each clip. Measured on one core, 40 `suite build`
texts of workflows-mini up to 477 characters
(``taskset -c 0 .venv/bin/python benchmarks/piper_memory.py``): peak RSS
594 -> 527 MiB, RSS when done 594 -> 260 MiB, CPU 46.9 -> 52.7 s, samples
identical. The peak still grows with the longest sentence a clip holds
(piper runs one sentence at a time, and a read-back of every field in one
sentence is long). Only the intra-op thread count changes
samples (by one least significant bit here and there), so the caller fixes
it (``speech_threads("tts")``, 1 by default).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["SHRINK", "keep_arena", "piper_session", "piper_session_options"]


SHRINK = [True]
"""Whether sessions loaded from now on in this process shrink their arena after each
run (about 10% more CPU per clip). A short-lived process that only renders (the
render-ahead pool) turns it off with :func:`keep_arena`: its memory leaves with it."""


def keep_arena() -> None:
    """Sessions loaded from now on in this process keep their arena between runs."""
    SHRINK[0] = False


def piper_session_options(threads: int) -> tuple[Any, Any]:
    """(SessionOptions, RunOptions): ``threads`` intra-op threads, one inter-op thread,
    no memory pattern, the CPU arena shrunk after each run (unless :func:`keep_arena`)."""
    import onnxruntime  # noqa: PLC0415 - optional dependency (piper's runtime)

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.enable_mem_pattern = False
    if threads > 1:  # idle pool threads sleep instead of spinning (no effect on samples)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    run = onnxruntime.RunOptions()
    if SHRINK[0]:
        run.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")
    return options, run


class _Session:
    """An onnxruntime session whose every run uses the given RunOptions (piper calls
    ``session.run(names, feeds)`` and has no way to pass them)."""

    def __init__(self, session: Any, run_options: Any) -> None:
        self._session, self._run_options = session, run_options

    def run(self, output_names: Any, input_feed: Any) -> Any:
        return self._session.run(output_names, input_feed, run_options=self._run_options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


def piper_session(model: Path, options: Any, run_options: Any) -> Any:
    """A CPU session of the ONNX model at ``model`` with these options."""
    import onnxruntime  # noqa: PLC0415 - optional dependency

    session = onnxruntime.InferenceSession(
        str(model), sess_options=options, providers=["CPUExecutionProvider"]
    )
    return _Session(session, run_options)
