"""Scoring interaction-action episodes (DuplexAct): rules, heuristics, judge, summaries."""

from duplexbench.scoring._actions.backchannel import backchannel_function
from duplexbench.scoring._actions.fdb import fdb_metrics
from duplexbench.scoring._actions.heuristics import heuristic_follow_through
from duplexbench.scoring._actions.judge import (
    PROMPT_VERSION,
    ActionJudge,
    ActionJudgeCache,
    OpenAIChatActionJudge,
)
from duplexbench.scoring._actions.observation import (
    ActionObservation,
    AgentSegment,
    CueInfo,
    PlayedSegment,
)
from duplexbench.scoring._actions.result import ActionScore, action_error_score, score_observation
from duplexbench.scoring._actions.rules import Verdict, immediate, stop_follow_through
from duplexbench.scoring._actions.summary import action_block

__all__ = [
    "PROMPT_VERSION",
    "ActionJudge",
    "ActionJudgeCache",
    "ActionObservation",
    "ActionScore",
    "AgentSegment",
    "CueInfo",
    "OpenAIChatActionJudge",
    "PlayedSegment",
    "Verdict",
    "action_block",
    "action_error_score",
    "backchannel_function",
    "fdb_metrics",
    "heuristic_follow_through",
    "immediate",
    "score_observation",
    "stop_follow_through",
]
