"""The campaign layer's data: what a run is asked to do and what its episodes carry.

Data only (frozen dataclasses and type aliases; no behaviour beyond checks of
their own values), so every module of the package can import it: the families,
the engine, the runner and pre-rendering all speak these types, and none of
them has to import another to name one.

- `RunOptions` (one suite x agent x condition, as `duplexbench run` asks) and
  `ExecutionOptions` (backend, workers, retries, limits, resume);
- `Target`: one run directory being run (its spec, items, job config, judge and
  the scores so far);
- `JobConfig`, `EpisodeJob`, `JobResult`: one episode as a self-contained job
  for a worker process or a Ray task (`_jobs.py`), and what comes back;
- `RunResult`: what a finished run returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from duplexbench.campaign._conditions import DEFAULT, Condition
from duplexbench.campaign._spec import CampaignSpec, JudgeConfig
from duplexbench.items import ActionItem, WorkflowItem
from duplexbench.orchestrator import DEFAULT_STALL_S
from duplexbench.scoring import ActionJudge, ActionScore, EpisodeScore, FieldJudge, RunSummary
from duplexbench.trace import ErrorKind
from duplexbench.users import DeciderConfig, ObserverConfig

FamilyName = Literal["workflow", "action"]
Item = WorkflowItem | ActionItem
Score = EpisodeScore | ActionScore
Judge = FieldJudge | ActionJudge
Runs = Mapping[str, tuple[RunSummary, Sequence[Score]]]
"""Condition name -> (its run's summary, its episode scores)."""


@dataclass(frozen=True)
class ExecutionOptions:
    backend: str = "local"
    workers: int = 1
    ray_address: str | None = None
    retries: int = 0
    backoff_s: float = 1.0
    limits: dict[str, int] = field(default_factory=dict)
    resume: bool = False
    """Continue a run directory made with the same settings (skip complete episodes)."""
    stall_s: float | None = DEFAULT_STALL_S
    """An episode with no progress for this many wall seconds ends as an error (None: never)."""


@dataclass(frozen=True)
class RunOptions:
    suite: str
    agent: str = "oracle"
    condition: Condition = DEFAULT
    """Resolved where it is given (`parse_conditions`); its name is what files record."""
    repeats: int = 3
    seed: int = 0
    items: tuple[str, ...] = ()
    limit: int | None = None
    out: Path | None = None
    overwrite: bool = False
    judge: JudgeConfig | None = None
    frame_ms: int = 20
    speech_cache: Path | None = None
    prices: Path | None = None
    realtime_speed: float = 1.0
    user_model: DeciderConfig | None = None
    """Optional LLM decision model of the user (cache default: RUN_DIR/user-decisions.jsonl)."""
    noise_dir: Path | None = None
    voice_fallback: bool = False
    """A persona whose TTS engine is missing speaks with its fallback voice (else the run
    stops before its first episode, naming the package)."""
    """Recordings (`<kind>/*.wav`) instead of procedural noise and bursts."""
    execution: ExecutionOptions = field(default_factory=ExecutionOptions)
    """Backend, workers, retries, limits, resume."""
    observer: ObserverConfig = field(default_factory=ObserverConfig)
    """The simulated user's act observer (an LLM layer's cache defaults to
    RUN_DIR/observer-cache.jsonl)."""


@dataclass(frozen=True)
class RunResult:
    run_dir: Path
    summary: RunSummary
    scores: list[Score]
    """Workflow runs: `EpisodeScore`s; action runs: `ActionScore`s."""
    judge: FieldJudge | None
    """The field judge of a workflow run (for its statistics)."""
    family: FamilyName = "workflow"


@dataclass(frozen=True)
class JobConfig:
    """What every episode of one run directory shares."""

    family: Literal["workflow", "action"]
    suite: str
    agent: str
    """The agent spec as given (options included)."""
    agent_label: str
    """The spec as recorded in traces (`redact_spec`: no secrets)."""
    condition: Condition
    """The run's condition, resolved once: workers never look it up again."""
    seed: int = 0
    frame_ms: int = 20
    speech_cache: str | None = None
    realtime_speed: float = 1.0
    decider: DeciderConfig | None = None
    noise_dir: str | None = None
    voice_fallback: bool = False
    stall_s: float | None = DEFAULT_STALL_S
    """Wall seconds without progress before the episode is stopped as an error (None: never)."""
    observer: ObserverConfig = field(default_factory=ObserverConfig)
    """The simulated user's act observer (workflow items)."""


@dataclass(frozen=True)
class EpisodeJob:
    config: JobConfig
    item: dict[str, Any]
    """The item snapshot (as in RUN_DIR/items/<id>.json)."""
    item_checksum: str
    repetition: int
    rel: str
    """Episode folder relative to the run directory."""
    attempt: int = 0

    @property
    def item_id(self) -> str:
        return str(self.item["id"])


@dataclass(frozen=True)
class JobResult:
    rel: str
    files: dict[str, bytes]
    """events.jsonl, audio.wav, ... (empty when the episode could not run at all)."""
    error: str | None
    seconds: float
    error_kind: ErrorKind | None = None
    """With an error: `agent` (scored as a failed episode, never retried) or `harness`
    (retried; a fault outside the episode loop is the harness's)."""

    @property
    def status(self) -> str:
        return "ok" if self.error is None else "error"

    @property
    def retryable(self) -> bool:
        """Only a harness error is retried: a retry must never choose between outcomes."""
        return self.error is not None and self.error_kind != "agent"


@dataclass
class Target:
    """One run directory and what its episodes need."""

    run_dir: Path
    spec: CampaignSpec
    items: dict[str, WorkflowItem] | dict[str, ActionItem]
    config: JobConfig
    judge: FieldJudge | ActionJudge | None = None
    scores: dict[str, Score] = field(default_factory=dict)
    """Finished episodes by relative folder."""

    def ordered_scores(self) -> list[tuple[str, Score]]:
        return [(rel, self.scores[rel]) for _, _, rel in self.spec.episodes() if rel in self.scores]
