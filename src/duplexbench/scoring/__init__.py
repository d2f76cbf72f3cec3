"""Scoring: a pure function of (item, trace, judge cache) -> episode scores and summaries."""

from duplexbench.scoring._actions.judge import PROMPT_VERSION as ACTION_PROMPT_VERSION
from duplexbench.scoring._actions.judge import (
    ActionCacheEntry,
    ActionJudge,
    ActionJudgeCache,
    OpenAIChatActionJudge,
)
from duplexbench.scoring._actions.result import (
    ActionScore,
    action_agent_error_score,
    action_error_score,
    deterministic_verdict,
    score_observation,
)
from duplexbench.scoring._actions.summary import TIMING, action_block
from duplexbench.scoring._actions.trace import observe
from duplexbench.scoring._attribution import CAUSES, attribution_block
from duplexbench.scoring._compare import PERMUTATIONS, compare_conditions
from duplexbench.scoring._episode import (
    GATES,
    Afa,
    EpisodeScore,
    error_score,
    score_episode,
    tampered_score,
)
from duplexbench.scoring._errors import all_errored, episode_error, errors_block
from duplexbench.scoring._fields import field_correct
from duplexbench.scoring._floor_control import (
    FloorScore,
    correction_block,
    floor_block,
    timing_block,
)
from duplexbench.scoring._header import TRACE_PROBLEMS, header_problem
from duplexbench.scoring._interaction.metrics import RULES, Rules
from duplexbench.scoring._interaction.record import TimelineRecord, pooled_panel, timeline_record
from duplexbench.scoring._interaction.tau2 import experiment_metrics, simulation_files
from duplexbench.scoring._judge import (
    PROMPT_VERSION,
    CacheEntry,
    FieldJudge,
    JudgeCache,
    OpenAIChatJudge,
)
from duplexbench.scoring._outcomes import item_runs, per_task_afa, per_task_success
from duplexbench.scoring._reliability import RESAMPLES, ItemRuns, Reliability, reliability
from duplexbench.scoring._repairs import RepairScore, repair_block, repair_score
from duplexbench.scoring._replay_check import TAMPERED, is_tampered
from duplexbench.scoring._summary import build_summary
from duplexbench.scoring._unsupported import exemption, provenance_block
from duplexbench.scoring._usage import Price, price_for
from duplexbench.scoring._version import SCORER_VERSION
from duplexbench.scoring.summary_models import (
    ActionRates,
    ActionRunSummary,
    Attribution,
    RunSummary,
    UnsupportedValues,
    WorkflowRunSummary,
    parse_summary,
    summary_data,
)

__all__ = [
    "ACTION_PROMPT_VERSION",
    "CAUSES",
    "GATES",
    "PERMUTATIONS",
    "PROMPT_VERSION",
    "RESAMPLES",
    "RULES",
    "SCORER_VERSION",
    "TAMPERED",
    "TIMING",
    "TRACE_PROBLEMS",
    "ActionCacheEntry",
    "ActionJudge",
    "ActionJudgeCache",
    "ActionRates",
    "ActionRunSummary",
    "ActionScore",
    "Afa",
    "Attribution",
    "CacheEntry",
    "EpisodeScore",
    "FieldJudge",
    "FloorScore",
    "ItemRuns",
    "JudgeCache",
    "OpenAIChatActionJudge",
    "OpenAIChatJudge",
    "Price",
    "Reliability",
    "RepairScore",
    "Rules",
    "RunSummary",
    "TimelineRecord",
    "UnsupportedValues",
    "WorkflowRunSummary",
    "action_agent_error_score",
    "action_block",
    "action_error_score",
    "all_errored",
    "attribution_block",
    "build_summary",
    "compare_conditions",
    "correction_block",
    "deterministic_verdict",
    "episode_error",
    "error_score",
    "errors_block",
    "exemption",
    "experiment_metrics",
    "field_correct",
    "floor_block",
    "header_problem",
    "is_tampered",
    "item_runs",
    "observe",
    "parse_summary",
    "per_task_afa",
    "per_task_success",
    "pooled_panel",
    "price_for",
    "provenance_block",
    "reliability",
    "repair_block",
    "repair_score",
    "score_episode",
    "score_observation",
    "simulation_files",
    "summary_data",
    "tampered_score",
    "timeline_record",
    "timing_block",
]
