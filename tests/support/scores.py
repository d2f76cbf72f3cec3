"""A run's scores and summary as the item family the test ran (a run holds one family).

`RunResult.scores` is typed for either family; these narrow it, failing the test
with what was found when the run holds the other family.
"""

from __future__ import annotations

from collections.abc import Iterable

from duplexbench.scoring._actions.result import ActionScore
from duplexbench.scoring._episode import EpisodeScore
from duplexbench.scoring.summary_models import RunSummary, WorkflowRunSummary


def workflow_scores(scores: Iterable[EpisodeScore | ActionScore]) -> list[EpisodeScore]:
    """The scores of a workflow run."""
    out: list[EpisodeScore] = []
    for score in scores:
        assert isinstance(score, EpisodeScore), f"not a workflow score: {score!r}"
        out.append(score)
    return out


def action_scores(scores: Iterable[EpisodeScore | ActionScore]) -> list[ActionScore]:
    """The scores of an action run."""
    out: list[ActionScore] = []
    for score in scores:
        assert isinstance(score, ActionScore), f"not an action score: {score!r}"
        out.append(score)
    return out


def workflow_summary(summary: RunSummary) -> WorkflowRunSummary:
    """The summary of a workflow run."""
    assert isinstance(summary, WorkflowRunSummary), f"not a workflow run: {summary!r}"
    return summary
