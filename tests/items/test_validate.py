"""Item cross-checks: an empty gold value is refused (it could never pass)."""

from __future__ import annotations

from typing import Any

import pytest

from duplexbench.items._errors import ItemError
from duplexbench.items._load import parse_item
from duplexbench.items._validate import EMPTY_GOLD
from support.fixtures import fixture_data


def problems_of(data: Any) -> list[str]:
    with pytest.raises(ItemError) as info:
        parse_item(data, "item.yaml")
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize("empty", ["", "   ", [], {}])
def test_an_empty_gold_is_refused(empty: object) -> None:
    data = fixture_data("benefits-enrollment")
    data["artifacts"][0]["fields"][7]["gold"] = empty  # dependents
    assert problems_of(data) == [f"item.yaml: artifacts[0].fields[7].gold: {EMPTY_GOLD}"]


def test_an_empty_gold_is_refused_on_an_optional_field_too() -> None:
    data = fixture_data("benefits-enrollment")
    data["artifacts"][0]["fields"][0].update(required=False, gold="")
    assert problems_of(data) == [f"item.yaml: artifacts[0].fields[0].gold: {EMPTY_GOLD}"]


def test_null_gold_on_an_optional_field_is_no_gold() -> None:
    data = fixture_data("benefits-enrollment")
    data["artifacts"][0]["fields"][0].update(required=False, gold=None)
    item = parse_item(data, "item.yaml")
    assert not item.artifacts[0].fields[0].graded


@pytest.mark.parametrize("empty", ["", [], None])
def test_an_empty_field_equals_value_is_refused(empty: object) -> None:
    data = fixture_data("benefits-enrollment")
    data["gold"]["critical"].append(
        {
            "id": "named",
            "kind": "field_equals",
            "artifact": data["artifacts"][0]["id"],
            "field": "employee_name",
            "value": empty,
        }
    )
    index = len(data["gold"]["critical"]) - 1
    assert problems_of(data) == [f"item.yaml: gold.critical[{index}]: {EMPTY_GOLD}"]
