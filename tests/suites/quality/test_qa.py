"""Solvability checks behind `suite validate`."""

from __future__ import annotations

from typing import Any

from duplexbench.items._load import parse_item
from duplexbench.suites._quality.qa import solvability_problems
from support.fixtures import fixture_item


def patched(name: str, patch: Any) -> Any:
    data = fixture_item(name).model_dump(mode="json", exclude_none=True)
    patch(data)
    return parse_item(data, name)


def test_fixtures_are_sound() -> None:
    assert solvability_problems(fixture_item("order-revocation")) == []


def test_a_wrong_reference_is_reported() -> None:
    def wrong(data: dict[str, Any]) -> None:
        data["reference"]["turns"][1]["tool_calls"][0]["arguments"]["fields"]["quantity"] = 11
        data["reference"]["turns"][5]["tool_calls"][0]["arguments"]["fields"]["quantity"] = 13

    [(path, message)] = solvability_problems(patched("order-revocation", wrong))
    assert path == "reference" and "does not pass" in message and "AV" in message


def test_an_out_of_step_reference_is_reported() -> None:
    def shuffle(data: dict[str, Any]) -> None:
        data["reference"]["turns"][1]["expect"] = "answer:cost_center"

    [(path, message)] = solvability_problems(patched("order-revocation", shuffle))
    assert path == "reference" and "expects user plan 'answer:cost_center'" in message


def test_gold_that_holds_for_an_idle_agent_is_reported() -> None:
    def vacuous(data: dict[str, Any]) -> None:
        data["gold"]["terminal"] = [
            {"kind": "lifecycle_at_least", "artifact": "meeting", "state": "empty"}
        ]
        data["artifacts"][0]["min_lifecycle"] = "empty"
        for fld in data["artifacts"][0]["fields"]:
            fld["required"] = False
            fld["gold"] = None
            fld.pop("evidence", None)

    problems = solvability_problems(patched("meeting-scheduling", vacuous))
    assert ("gold", "an agent that does nothing passes; the gold checks nothing") in problems
