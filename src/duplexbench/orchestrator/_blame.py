"""Whose fault an episode's error is: the agent's or the harness's (docs/metrics.md, "Errors").

An agent must not be able to hide a failure by crashing, so an episode that
ends in an error is the agent's unless the fault is provably the harness's:

- **agent**: anything raised inside the agent's own calls (`start`, `respond`,
  `step`, a streaming agent's `connect`/`send_audio`/`send_tool_result`/
  `poll`), which covers its exceptions, a disconnect after the session
  started and a stall inside its code (the watchdog's `Stalled` is raised
  where the thread is blocked); and every `AgentError` the harness raises
  about the agent's output (a malformed turn or event, an audio flood).
- **harness**: everything else: TTS, ASR, the simulated user and its
  observer, the Workbench, storage, a stall outside the agent's code, and a
  connection that never opened (`ConnectionNotOpened`: nothing of the
  episode reached the agent). The speech engines are the harness's wherever
  they fail: the speech kit a local agent synthesizes with (`harness_code`)
  and any `TTSError` / `ASRError` / `SpeechUnavailable` (the built-in
  cascades hear through the harness's ASR engines).

Harness errors are retried and left out of the rates; agent errors score as
failed episodes. In-process agents are trusted code (docs/security.md): one
could provoke a harness fault on purpose, which is why a run with harness
errors left is marked incomplete everywhere it is shown.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from duplexbench.agents import AgentError, ConnectionNotOpened
from duplexbench.orchestrator._watchdog import FAULTS
from duplexbench.speech import ASRError, SpeechUnavailable, TTSError
from duplexbench.trace import ErrorKind

_MARK = "_duplexbench_error_kind"

HARNESS_FAULTS = (ConnectionNotOpened, TTSError, ASRError, SpeechUnavailable)
"""Faults that are the harness's even when they surface inside the agent's call."""


def _mark(exc: BaseException, kind: ErrorKind) -> None:
    if getattr(exc, _MARK, None) is None:  # the innermost boundary decides
        with contextlib.suppress(AttributeError):  # a type with __slots__: left unmarked
            setattr(exc, _MARK, kind)


@contextlib.contextmanager
def agent_code() -> Iterator[None]:
    """Faults raised inside are the agent's (unless a harness boundary inside marked them)."""
    try:
        yield
    except FAULTS as exc:
        _mark(exc, "harness" if isinstance(exc, HARNESS_FAULTS) else "agent")
        raise


@contextlib.contextmanager
def harness_code() -> Iterator[None]:
    """Faults raised inside are the harness's, even when an agent called it (the speech kit)."""
    try:
        yield
    except FAULTS as exc:
        _mark(exc, "harness")
        raise


def error_kind(exc: BaseException) -> ErrorKind:
    """Whose fault `exc` is (module docstring)."""
    marked = getattr(exc, _MARK, None)
    if marked in ("agent", "harness"):
        return "agent" if marked == "agent" else "harness"
    return "agent" if isinstance(exc, AgentError) else "harness"
