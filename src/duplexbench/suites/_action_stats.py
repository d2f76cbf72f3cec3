"""Composition of an action suite: per condition, action, scenario, source, voice."""

from __future__ import annotations

from collections import Counter
from typing import Any

from duplexbench.items import ACTIONS, CONDITION_IDS, SCENARIOS, ActionItem

MIN_PER_CONDITION = 25
"""actions-v1 promises at least this many items per condition."""


def action_stats(items: list[ActionItem]) -> dict[str, Any]:
    """`items`, `conditions` (every condition id -> count, zeros included), `actions`,
    `scenarios`, `sources`, `voices`, `topics`, `settings`, and the conditions under
    :data:`MIN_PER_CONDITION`."""
    conditions = dict.fromkeys(CONDITION_IDS, 0) | Counter(i.condition for i in items)
    actions = dict.fromkeys(ACTIONS, 0) | Counter(i.action for i in items)
    scenarios = dict.fromkeys(SCENARIOS, 0) | Counter(i.scenario for i in items)
    per_scenario = {
        c: dict(Counter(i.scenario for i in items if i.condition == c)) for c in CONDITION_IDS
    }
    voices = Counter(s.voice for i in items for s in i.segments)
    return {
        "items": len(items),
        "conditions": conditions,
        "actions": actions,
        "scenarios": scenarios,
        "conditions_by_scenario": per_scenario,
        "sources": dict(Counter(i.source for i in items)),
        "voices": dict(sorted(voices.items())),
        "topics": dict(sorted(Counter(f"{i.scenario}/{i.topic}" for i in items).items())),
        "settings": dict(sorted(Counter(i.setting for i in items if i.setting).items())),
        "under_minimum": [c for c, n in conditions.items() if n < MIN_PER_CONDITION],
        "minimum": MIN_PER_CONDITION,
    }
