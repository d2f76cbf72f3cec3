"""Action tables of the report (DuplexAct runs), computed from one run's typed index rows.

The numbers come from `scoring/_actions/summary.py`'s `action_block` over the
index's `ActionRow`s (an `ActionOutcome`, as a score is), so they equal the run's summary `actions`
block: I = immediate successes / applicable trials, S = deterministic
follow-throughs (rule or heuristic) / immediate successes with a verdict
(`n_s`), the judge's S beside it when a judge ran, timing as median (q1, q3, n).
"""

from __future__ import annotations

from typing import Any

from duplexbench.campaign import ActionRow
from duplexbench.report._load import RunData
from duplexbench.scoring import TIMING, action_block

MAX_FAILURES = 500
"""Failed action episodes listed with their reasons (per report)."""


def rows(run: RunData) -> list[ActionRow]:
    return [e for e in run.episodes if isinstance(e, ActionRow)]


def _timing(action: str, block: dict[str, Any]) -> dict[str, Any] | None:
    key = TIMING.get(action)
    if key is None or key not in block:
        return None
    return {"metric": key, **block[key]}


def action_tables(run: RunData) -> dict[str, Any]:
    """The run's actions block and its rows for the report's tables."""
    scores = rows(run)
    block = action_block(scores)
    ident = run.ident()
    keep = ("immediate", "n", "n_na", "subsequent", "n_s", "follow_through_failure")
    judge = ("subsequent_judge", "n_s_judge", "follow_through_failure_judge")
    per_action = [
        {
            **ident,
            "action": action,
            **{k: b.get(k) for k in keep + judge if k in b},
            "errors": b.get("errors", 0),
            "timing": _timing(action, b),
        }
        for action, b in block["per_action"].items()
    ]
    per_condition = [
        {
            **ident,
            "action": name.split(".")[0],
            "action_condition": name,
            **{k: b.get(k) for k in keep + judge if k in b},
            "errors": b.get("errors", 0),
        }
        for name, b in block["per_condition"].items()
    ]
    by_scenario = [
        {**ident, "scenario": scenario, "action": action, **b}
        for scenario, actions in block["by_scenario"].items()
        for action, b in actions.items()
    ]
    return {
        "block": block,
        "per_action": per_action,
        "per_condition": per_condition,
        "follow_through_failures": _follow_failures(run, scores),
        "by_scenario": by_scenario,
        "failures": _failures(run, scores),
    }


def _follow_failures(run: RunData, scores: list[ActionRow]) -> list[dict[str, Any]]:
    """Per action x condition: immediate successes whose follow-through failed."""
    counts: dict[str, dict[str, Any]] = {}
    for s in scores:
        if s.status != "ok" or not s.immediate:
            continue
        row = counts.setdefault(
            s.action_condition,
            {
                **run.ident(),
                "action": s.action,
                "action_condition": s.action_condition,
                "failures": 0,
                "n_s": 0,
                "judge_failures": 0,
                "n_s_judge": 0,
            },
        )
        det = s.deterministic_follow_through
        if det is not None:
            row["n_s"] += 1
            row["failures"] += not det
        if s.judge_follow_through is not None:
            row["n_s_judge"] += 1
            row["judge_failures"] += not s.judge_follow_through
    return [counts[c] for c in sorted(counts)]


def _failures(run: RunData, scores: list[ActionRow]) -> list[dict[str, Any]]:
    """Episodes that failed immediate execution or follow-through, with the reason."""
    out = []
    for s in scores:
        if s.status != "ok":
            continue
        if s.immediate is False:
            stage, reason = "immediate", s.immediate_reason
        elif s.immediate and s.deterministic_follow_through is False:
            stage, reason = "follow-through", s.follow_through_reason
        else:
            continue
        out.append(
            {
                **run.ident(),
                "item_id": s.item_id,
                "repetition": s.repetition,
                "action": s.action,
                "action_condition": s.action_condition,
                "scenario": s.scenario,
                "stage": stage,
                "reason": reason,
                "path": s.path,
            }
        )
    return out
