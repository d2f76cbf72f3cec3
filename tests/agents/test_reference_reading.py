"""The reference DM reads dictated values: fillers and hedges, spelled identifiers,
reference numbers, and a number from the right knowledge table."""

from __future__ import annotations

import pytest

from duplexbench.agents._notes.knowledge import value_from_results
from duplexbench.agents._notes.schema import FieldInfo
from duplexbench.agents._notes.understand import clean, spelled_identifier
from duplexbench.agents._reference.records import record_id, record_values


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("Sorry, what was that? Oh, PM-7529-HQ.", "PM-7529-HQ"),
        ("Let me see, Granite Peak Legal.", "Granite Peak Legal"),
        ("Okay, so that would be 175 Elm Court, if I remember correctly.", "175 Elm Court"),
        ("Um, 42, I believe.", "42"),
        ("It's, uh, sorry, vacant.", "vacant"),
        ("Quickly: commercial.", "commercial"),
        ("Harbor Drive, I mean, yes, Harbor Drive.", "Harbor Drive"),
        ("Probably complaint.", "complaint"),
        ("Client onsite.", "Client onsite"),
    ],
)
def test_clean_keeps_only_the_value(said: str, value: str) -> None:
    assert clean(said) == value


@pytest.mark.parametrize(
    ("heard", "example", "value"),
    [
        ("CC330", "Cost center, e.g. CC-100", "CC-330"),
        ("C M dash 9667 dash GP", "Claim, e.g. CM-1234-AB", "CM-9667-GP"),
        ("pn-mw 5 7 4 2", "Policy, e.g. PN-AB1234", "PN-MW5742"),
        ("eg-7838-UA", "Engagement, e.g. EG-4821-KQ", "EG-7838-UA"),
        ("CC 3300", "e.g. CC-100", "CC3300"),  # does not line up: as heard
    ],
)
def test_spelled_identifiers_take_the_example_shape(heard: str, example: str, value: str) -> None:
    assert spelled_identifier(heard, example) == value


def test_no_example_no_identifier() -> None:
    assert spelled_identifier("Amara Raman", "Inspector's full name") is None


def test_reference_numbers() -> None:
    assert record_id("J D 7 6 7 4.") == "JD7674"
    assert record_id("Sorry, what was that? Oh, J.D. 7674.") == "JD7674"
    assert record_id("jd-7674") == "JD7674"
    assert record_id("I don't have it") is None
    found = {"ok": True, "result": {"record": {"id": "JD7674", "occupancy_status": "vacant"}}}
    assert record_values(found) == {"occupancy_status": "vacant"}
    assert record_values({"ok": False, "error": {"code": "unknown_record"}}) == {}


def test_knowledge_number_comes_from_the_top_document() -> None:
    results = [
        {"text": "Remedy deadlines, by hazard level. low: 27 days; severe: 32 days."},
        {"text": "Fees. commercial complaint: 581 dollars; severe commercial: 99 dollars."},
    ]
    info = FieldInfo("remedy_period", "number", "Remedy period in days", ())
    assert value_from_results(info, results, ["complaint", "commercial", "severe"]) == 32.0
