"""Scoring one action episode: immediate execution, then follow-through.

Follow-through is evaluated only when immediate execution succeeded. Stop's
follow-through is a rule; the other seven actions always get the offline
heuristic verdict and, when a judge answers, the judge verdict too. The
headline `follow_through` is the judge's when there is one, else the
heuristic's (or the rule's); summaries never mix the two sources.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from duplexbench.items import Action, ActionItem, Scenario
from duplexbench.scoring._actions.fdb import FdbMetrics, fdb_metrics
from duplexbench.scoring._actions.heuristics import heuristic_follow_through
from duplexbench.scoring._actions.judge import ActionJudge, build_question
from duplexbench.scoring._actions.observation import ActionObservation
from duplexbench.scoring._actions.rules import MissingAnnotation, immediate, stop_follow_through
from duplexbench.scoring._interaction.record import TimelineRecord

FollowSource = Literal["rule", "heuristic", "judge"]


class ActionScore(BaseModel):
    """Saved as `result.json` in an action episode's folder."""

    model_config = ConfigDict(extra="forbid")
    item_id: str
    repetition: int
    status: Literal["ok", "error"]
    error: str | None = Field(None, description="A harness error: the episode is left out.")
    agent_error: str | None = Field(
        None, description="The agent's error that ended the episode: immediate execution failed."
    )
    condition: str
    action: Action
    scenario: Scenario
    immediate: bool | None = Field(None, description="None: not applicable (left out of I).")
    immediate_reason: str = ""
    follow_through: bool | None = None
    follow_through_source: FollowSource | None = None
    follow_through_reason: str = ""
    heuristic_follow_through: bool | None = None
    heuristic_reason: str = ""
    judge_follow_through: bool | None = None
    judge_source: Literal["endpoint", "cache"] | None = Field(
        None, description="The judge verdict was fetched in this run, or only read from the cache."
    )
    timing_ms: int | None = Field(
        None, description="Yield latency (stop), recovery latency, interruption timing, ..."
    )
    cue_forced: bool = False
    transcribed: bool = Field(False, description="Agent words came from ASR.")
    fdb: FdbMetrics = Field(default_factory=dict)
    interaction: TimelineRecord | None = Field(
        None, description="Speech timeline of the episode for the τ-Voice panel."
    )

    @property
    def deterministic_follow_through(self) -> bool | None:
        """The rule's (Stop) or the heuristic's verdict, never the judge's."""
        return deterministic_verdict(
            self.follow_through_source, self.follow_through, self.heuristic_follow_through
        )

    @property
    def action_condition(self) -> str:
        """The action condition (`condition`), named as in the run index."""
        return self.condition


def deterministic_verdict(
    source: str | None, follow_through: bool | None, heuristic: bool | None
) -> bool | None:
    """S without the judge: the rule's verdict where a rule decided, else the heuristic's."""
    return follow_through if source == "rule" else heuristic


def score_observation(
    obs: ActionObservation, repetition: int, judge: ActionJudge | None = None
) -> ActionScore:
    """Score one observed action episode (a bad item becomes an error score)."""
    item = obs.item
    try:
        first = immediate(obs)
        follow = _follow_through(obs, judge) if first.success is True else {}
    except MissingAnnotation as exc:
        return action_error_score(item, repetition, str(exc))
    return ActionScore(
        item_id=item.id,
        repetition=repetition,
        status="ok",
        condition=item.condition,
        action=item.action,
        scenario=item.scenario,
        immediate=first.success,
        immediate_reason=first.reason,
        timing_ms=first.timing_ms,
        cue_forced=obs.cue.forced if obs.cue is not None else False,
        transcribed=obs.transcribed,
        fdb=fdb_metrics(obs),
        **follow,
    )


def _follow_through(obs: ActionObservation, judge: ActionJudge | None) -> dict[str, Any]:
    if obs.item.action == "stop":
        rule = stop_follow_through(obs)
        return {
            "follow_through": rule.success,
            "follow_through_source": "rule",
            "follow_through_reason": rule.reason,
        }
    heuristic = heuristic_follow_through(obs)
    verdict = judge.verdict(obs) if judge is not None else None
    chosen = heuristic if verdict is None else verdict
    return {
        "follow_through": chosen.success,
        "follow_through_source": "heuristic" if verdict is None else "judge",
        "follow_through_reason": chosen.reason,
        "heuristic_follow_through": heuristic.success,
        "heuristic_reason": heuristic.reason,
        "judge_follow_through": None if verdict is None else verdict.success,
        "judge_source": None if verdict is None or judge is None else _source(judge, obs),
    }


def _source(judge: ActionJudge, obs: ActionObservation) -> Literal["endpoint", "cache"]:
    return "endpoint" if judge.fetched_here(build_question(obs)) else "cache"


def action_error_score(item: ActionItem, repetition: int, message: str) -> ActionScore:
    """An episode that could not run or be scored: counted, never as a failure."""
    return ActionScore(
        item_id=item.id,
        repetition=repetition,
        status="error",
        error=message,
        condition=item.condition,
        action=item.action,
        scenario=item.scenario,
    )


def action_agent_error_score(item: ActionItem, repetition: int, message: str) -> ActionScore:
    """An episode the agent ended with an error: a failed trial (immediate execution
    fails, so there is no follow-through), never left out (docs/metrics.md, "Errors")."""
    return ActionScore(
        item_id=item.id,
        repetition=repetition,
        status="ok",
        agent_error=message,
        condition=item.condition,
        action=item.action,
        scenario=item.scenario,
        immediate=False,
        immediate_reason=f"agent error: {message}",
    )
