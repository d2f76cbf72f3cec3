"""Episode errors as the scorer reads them: the agent's count as failures (docs/metrics.md).

An episode that ended with reason `error` says whose fault it was in
`episode.end.error_kind` (`orchestrator/_blame.py` decides):

- `agent` (it raised, disconnected after the session started, sent a
  malformed turn or event, flooded or stalled): scored like any other
  episode, over the Workbench state as it stood when the episode ended, with
  one more Process Validity check that fails (`no agent error`), so WS = 0.
  The score keeps the reason in `agent_error`; summaries count these.
- `harness` (TTS, ASR, storage, the simulated user or its observer, a judge,
  a connection that never opened): status `error`, left out of every rate;
  the campaign retried it first, and a run with any left is incomplete.

A trace written before trace version 6 has no `error_kind`; its errors are
read as the agent's: an agent must not be able to hide a failure by crashing,
so an error of unknown cause counts against the agent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from duplexbench.trace import EpisodeEnd, ErrorKind, HarnessError, TraceEvent

NO_AGENT_ERROR = "no agent error"
"""The name of the Process Validity check an agent error fails."""


@dataclass(frozen=True)
class EpisodeError:
    kind: ErrorKind
    message: str


def episode_error(events: Sequence[TraceEvent]) -> EpisodeError | None:
    """The error an episode ended with (None: it ended normally)."""
    end = next((e for e in reversed(events) if isinstance(e, EpisodeEnd)), None)
    if end is None or end.data.reason != "error":
        return None
    logged = next((e.data.message for e in events if isinstance(e, HarnessError)), None)
    message = logged or end.data.detail or "error"
    return EpisodeError(end.data.error_kind or "agent", message)


class _Scored(Protocol):
    @property
    def status(self) -> str: ...
    @property
    def error(self) -> str | None: ...
    @property
    def agent_error(self) -> str | None: ...


def errors_block(scores: Sequence[_Scored]) -> dict[str, Any]:
    """The summary's error keys: `errors` / `error_reasons` (harness errors, left out of
    the rates), `agent_errors` / `agent_error_reasons` (scored as failures) and `complete`
    (False while any harness error is left: the rates cover fewer episodes than planned)."""
    left_out = [s for s in scores if s.status == "error"]
    agent = [s for s in scores if s.status != "error" and s.agent_error is not None]
    return {
        "errors": len(left_out),
        "error_reasons": sorted({s.error or "" for s in left_out}),
        "agent_errors": len(agent),
        "agent_error_reasons": sorted({s.agent_error or "" for s in agent}),
        "complete": not left_out,
    }


def all_errored(episodes: int, errors: int, agent_errors: int) -> bool:
    """Every episode of a run ended in an error (agent or harness): nothing was measured."""
    return episodes > 0 and errors + agent_errors >= episodes
