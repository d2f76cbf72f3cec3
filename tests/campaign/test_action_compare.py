"""Action conditions compared: S is the scorecard's S (deterministic), never the judge's."""

from __future__ import annotations

from typing import Any

from duplexbench.campaign._action_compare import action_comparison
from duplexbench.scoring._actions.result import ActionScore


def _score(item: str, heuristic: bool, judge: bool | None) -> ActionScore:
    return ActionScore(
        item_id=item,
        repetition=0,
        status="ok",
        condition="wait.continuous_speech",
        action="wait",
        scenario="meeting",
        immediate=True,
        follow_through=heuristic if judge is None else judge,
        follow_through_source="heuristic" if judge is None else "judge",
        heuristic_follow_through=heuristic,
        judge_follow_through=judge,
    )


def test_follow_through_is_compared_on_the_deterministic_verdict() -> None:
    """Under `noise` the judge disagrees with the heuristic on every item; the comparison
    must show the heuristic's S (as the scorecard's headline S), not the judge's."""
    items = [f"i{n}" for n in range(6)]
    clean = [_score(i, heuristic=True, judge=None) for i in items]
    noise = [_score(i, heuristic=True, judge=False) for i in items]
    runs: Any = {"clean": (None, clean), "noise": (None, noise)}
    block = action_comparison(runs, ["clean", "noise"], seed=0)
    follow = block["actions"]["wait"]["follow_through"]
    assert follow["conditions"]["noise"]["mean"] == 1.0
    assert follow["retention"][0]["ratio"] == 1.0
