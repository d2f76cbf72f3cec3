"""What both workflow sides of the audio frame loop share, the simulated caller's
(`_audio_loop.py`) and a person's (`_human_loop.py`): the agent's cancellations,
usage and hang-up applied, tool results handed back, faults logged with whose
they are."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from duplexbench.agents import ToolResultMessage, UsageDelta
from duplexbench.orchestrator._blame import error_kind
from duplexbench.orchestrator._episode import EpisodeCore
from duplexbench.orchestrator._hearing import Hearing
from duplexbench.trace import AgentUsageData, ErrorKind


class AudioSide(EpisodeCore):
    """A workflow episode on the audio channel; subclasses set the attributes below."""

    hearing: Hearing
    results: list[ToolResultMessage]
    hung_up: bool
    error_kind: ErrorKind | None
    """Whose fault the episode's error is (`orchestrator/_blame.py`); None: no error."""

    @property
    def now(self) -> int:
        """Media time (ms) of the next frame."""
        raise NotImplementedError

    def take_results(self) -> Sequence[ToolResultMessage]:
        results, self.results = self.results, []
        return results

    def log_error(self, message: str, where: str) -> None:
        self.emit_error(self.now, message, where)

    def failed(self, exc: BaseException) -> str:
        """Log the fault that ends the episode and note whose it is; its message."""
        self.error_kind = error_kind(exc)
        error = f"{type(exc).__name__}: {exc}"
        self.emit_error(self.now, error, "episode")
        return error

    def on_cancel(self, t: int, dropped_samples: int, unheard: str) -> None:
        self.hearing.cut(t, dropped_samples, unheard, cancelled=True)

    def on_usage(self, t: int, usage: UsageDelta) -> None:
        self.recorder.emit(t, AgentUsageData(**dataclasses.asdict(usage)))

    def on_end_call(self) -> None:
        self.hung_up = True
