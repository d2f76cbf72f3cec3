"""Comparing action runs across conditions: I and S per action, paired per task.

For each action, each item's immediate-execution rate I (over its valid,
applicable repetitions) and follow-through rate S (over its immediate
successes; the deterministic verdict, rule or heuristic, as the summary's
headline S) under each condition are compared with the same tests as
workflows (`scoring/_compare.py`): retention from one condition to the next in
the order given and paired permutation tests between every pair, Holm-
Bonferroni across the pairs, on the items that have a value under every
condition. An action with no such item says why in `not_compared`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from duplexbench.campaign._model import Runs
from duplexbench.scoring import PERMUTATIONS, ActionScore, compare_conditions

Rate = Callable[[ActionScore], bool | None]


def _immediate(s: ActionScore) -> bool | None:
    return s.immediate


def _follow_through(s: ActionScore) -> bool | None:
    """S as the scorecard's headline S: the rule's or the heuristic's verdict, never the
    judge's (a judge run would otherwise compare one S and show another)."""
    return s.deterministic_follow_through if s.immediate else None


def per_task_rate(scores: Sequence[ActionScore], rate: Rate) -> dict[str, float]:
    """Each item's rate over its valid repetitions where `rate` applies (None: left out)."""
    outcomes: dict[str, list[int]] = defaultdict(list)
    for s in scores:
        value = rate(s) if s.status == "ok" else None
        if value is not None:
            outcomes[s.item_id].append(int(value))
    return {item: sum(v) / len(v) for item, v in outcomes.items()}


def _compare(per_task: dict[str, dict[str, float]], order: Sequence[str], seed: int) -> Any:
    try:
        return compare_conditions(per_task, order, PERMUTATIONS, seed)
    except ValueError as exc:  # no item with a value under every condition
        return {"not_compared": str(exc)}


def action_comparison(runs: Runs, order: Sequence[str], seed: int) -> dict[str, Any]:
    """The comparison block (module docstring)."""
    scores = {name: [s for s in runs[name][1] if isinstance(s, ActionScore)] for name in order}
    actions = sorted({s.action for name in order for s in scores[name]})
    block: dict[str, Any] = {"order": list(order), "metric": "immediate_and_follow_through"}
    per_action: dict[str, Any] = {}
    for action in actions:
        of = {name: [s for s in scores[name] if s.action == action] for name in order}
        per_action[action] = {
            "immediate": _compare(
                {n: per_task_rate(of[n], _immediate) for n in order}, order, seed
            ),
            "follow_through": _compare(
                {n: per_task_rate(of[n], _follow_through) for n in order}, order, seed
            ),
        }
    block["actions"] = per_action
    return block
