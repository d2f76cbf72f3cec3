"""Scoring: a pure function of (item, trace, judge cache) -> episode scores and summaries."""

from duplexbench.scoring.episode import GATES, EpisodeScore, error_score, score_episode
from duplexbench.scoring.judge import FieldJudge, JudgeCache, OpenAIChatJudge
from duplexbench.scoring.reliability import ItemRuns, Reliability, reliability
from duplexbench.scoring.summary import build_summary

__all__ = [
    "GATES",
    "EpisodeScore",
    "FieldJudge",
    "ItemRuns",
    "JudgeCache",
    "OpenAIChatJudge",
    "Reliability",
    "build_summary",
    "error_score",
    "reliability",
    "score_episode",
]
