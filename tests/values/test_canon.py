"""Canonical text, phones, addresses, item splitting and intervals."""

from __future__ import annotations

import pytest

from duplexbench.values._canon import (
    Interval,
    address_text,
    as_boolean,
    canonical_items,
    casefold_text,
    enum_text,
    is_empty,
    loose_text,
    normalize_text,
    parse_interval,
    phone_digits,
    split_items,
    value_to_text,
)


@pytest.mark.parametrize("value", [None, "", "   ", "\n\t", [], {}])
def test_empty(value: object) -> None:
    assert is_empty(value)


@pytest.mark.parametrize("value", [0, 0.0, False, "x", [""], {"a": None}])
def test_not_empty(value: object) -> None:
    assert not is_empty(value)


def test_text_normalization() -> None:
    assert normalize_text("  ﬁle\u00a0 name \n x ") == "file name x"
    assert value_to_text(200.0) == "200"
    assert value_to_text(200) == "200"
    assert value_to_text(2.5) == "2.5"
    assert value_to_text(True) == "true"
    assert value_to_text([1.0, "a", {"b": None}]) == '[1, "a", {"b": null}]'
    assert value_to_text({"b": 1, "a": 2}) == value_to_text({"a": 2, "b": 1.0})


def test_casefold_and_loose_text() -> None:
    assert casefold_text(' "Hello   World!" ') == "hello world"
    assert casefold_text("'Done.'") == "done"
    assert casefold_text("Straße") == "strasse"
    assert casefold_text("a, b") == "a, b"
    assert loose_text("Follow-up: call back.") == "follow up call back"


@pytest.mark.parametrize(
    ("text", "loose"),
    [
        ("-5 degrees", "-5 degrees"),
        ("\u22125", "-5"),
        ("(+5)", "+5"),
        ("a-5", "a 5"),  # a hyphen after a word is no sign
        ("5% discount", "5 % discount"),
        ("5.5 hours.", "5.5 hours"),
        ("v1.2.3", "v1.2.3"),
        ("$5 < €6", "$ 5 < € 6"),
        ("R&D / sales", "r d sales"),
    ],
)
def test_loose_text_keeps_what_changes_a_meaning(text: str, loose: str) -> None:
    assert loose_text(text) == loose


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (True, True),
        ("TRUE", True),
        ("Yes.", True),
        ("'y'", True),
        (False, False),
        ("false", False),
        ("No!", False),
        ("n", False),
        ("maybe", None),
        (1, None),
        (None, None),
        ("yes please", None),
    ],
)
def test_as_boolean(value: object, expected: bool | None) -> None:
    assert as_boolean(value) is expected


def test_enum_text() -> None:
    assert enum_text("in_person") == enum_text("In person") == enum_text("in-person")
    assert enum_text(" IN  PERSON ") == "in person"


@pytest.mark.parametrize(
    "spoken",
    [
        "555-123-4567",
        "(555) 123 4567",
        "+1 555 123 4567",
        "1-555-123-4567",
        "five five five, one two three, four five six seven",
        "double five five, one two three, four five six seven",
        "five fifty five one two three forty five sixty seven",
        5551234567,
    ],
)
def test_phone_digits(spoken: object) -> None:
    assert phone_digits(spoken) == "5551234567"


def test_phone_spoken_zero_and_triple() -> None:
    assert phone_digits("oh one two") == "012"
    assert phone_digits("triple two, zero") == "2220"
    assert phone_digits("double 5") == "55"
    assert phone_digits("no number") == ""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Twelve Oak Street, Apartment #4", "12 oak st apt 4"),
        ("12 Oak St. Apt 4", "12 oak st apt 4"),
        ("Fifth Avenue", "5th ave"),
        ("twenty-first street", "21st st"),
        ("one twenty three North Main Street, Suite 200", "123 n main st ste 200"),
        ("one oh one Main Road", "101 main rd"),
        ("one hundred and five Sunset Boulevard", "105 sunset blvd"),
        ("4 Mount Pleasant Parkway, Floor 3", "4 mt pleasant pkwy fl 3"),
        ("Building A, Southwest Circle", "bldg a sw cir"),
    ],
)
def test_address_text(text: str, expected: str) -> None:
    assert address_text(text) == expected


def test_split_items() -> None:
    assert split_items("a, b, and c") == ["a", "b", "c"]
    assert split_items("a & b; c\nd") == ["a", "b", "c", "d"]
    assert split_items("- x\n- y\n1. z") == ["x", "y", "z"]
    assert split_items(["A ", 2.0, ""]) == ["A", "2"]
    assert split_items("a,,b") == ["a", "b"]
    assert split_items(5) == ["5"]
    assert split_items({"a": 1}) is None
    assert split_items(None) is None


def test_canonical_items() -> None:
    gold = ["apples", "pears"]
    assert canonical_items("Apples, apples. and PEARS!", "casefold_exact", gold=gold) == [
        "apples",
        "apples",
        "pears",
    ]
    assert canonical_items(["Apples", "apples"], "exact") == ["Apples", "apples"]
    assert canonical_items("a, b, and c", "casefold_exact") == ["a", "b", "c"]


def test_and_splits_only_where_the_gold_allows() -> None:
    # Without a gold (the gold itself, canonical text) "and" never splits.
    assert canonical_items("Rock and Roll", "casefold_exact") == ["rock and roll"]
    assert canonical_items("R&D, Sales", "casefold_exact") == ["r&d", "sales"]
    rock_roll = ["rock", "roll"]
    assert canonical_items("rock and roll", "casefold_exact", gold=rock_roll) == rock_roll
    whole = ["rock and roll"]
    assert canonical_items("Rock and Roll", "casefold_exact", gold=whole) == whole
    # Split everywhere except inside a gold element.
    gold = ["research and development", "sales"]
    said = "Research and Development and Sales"
    assert canonical_items(said, "casefold_exact", gold=gold) == gold
    assert canonical_items("x & y", "casefold_exact", gold=["z"]) == ["x", "y"]
    # A list's elements are never split.
    assert canonical_items(["rock and roll"], "casefold_exact", gold=rock_roll) == whole


@pytest.mark.parametrize(
    ("value", "kind", "start", "end"),
    [
        ([8, 10], "number", 8, 10),
        ({"start": "14:00", "end": "15:30"}, "clock", 840, 930),
        ({"from": 1, "to": 2}, "number", 1, 2),
        ("14:00 - 15:30", "clock", 840, 930),
        ("2pm to 4pm", "clock", 840, 960),
        ("2 to 4pm", "clock", 840, 960),
        ("2:30 p.m.–4 p.m.", "clock", 870, 960),
        ("from 9am until 5pm", "clock", 540, 1020),
        ("14h30–16h", "clock", 870, 960),
        ("noon to 1pm", "clock", 720, 780),
        ("10pm to midnight", "clock", 1320, 1440),
        ("8 to 10", "number", 8, 10),
        ("between 3 and 5", "number", 3, 5),
        ("2026-03-05 - 2026-03-07", "date", 29544480, 29547360),
        ("2026-03-05-2026-03-07", "date", 29544480, 29547360),
        ("March 5, 2026 to March 7, 2026", "date", 29544480, 29547360),
        ("2026-03-05T10:00 to 2026-03-05T12:00", "datetime", 29545080, 29545200),
        ("2026-03-05T10:00Z to 2026-03-05T13:00+01:00", "datetime", 29545080, 29545200),
    ],
)
def test_parse_interval(value: object, kind: str, start: float, end: float) -> None:
    interval = parse_interval(value)
    assert interval is not None
    assert (interval.kind, interval.start, interval.end) == (kind, start, end)


@pytest.mark.parametrize(
    "value",
    [
        [1],
        [1, 2, 3],
        [5, 3],
        "5 - 3",
        "9-5",
        ["14:00", 5],
        "14:00 to 2026-03-05",
        {"start": 1},
        "whenever",
        None,
        True,
        [True, False],
    ],
)
def test_parse_interval_rejects(value: object) -> None:
    assert parse_interval(value) is None


def test_interval_describe() -> None:
    clock = parse_interval("2pm to 3:30pm")
    assert clock == Interval("clock", 840, 930)
    assert clock.describe() == "14:00/15:30"
    numbers = parse_interval([8, 10.5])
    assert numbers is not None
    assert numbers.describe() == "8/10.5"
    dates = parse_interval("2026-03-05 to 2026-03-07")
    assert dates is not None
    assert dates.describe() == "2026-03-05/2026-03-07"
    assert dates.scale == "timeline"
