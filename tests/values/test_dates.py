"""parse_date, parse_month_day and parse_clock: written and spoken forms."""

from __future__ import annotations

import datetime

import pytest

from duplexbench.values._dates import (
    YEAR_PIVOT,
    expand_year,
    parse_clock,
    parse_date,
    parse_month_day,
)

MARCH_5 = datetime.date(2026, 3, 5)


@pytest.mark.parametrize(
    "text",
    [
        "2026-03-05",
        "2026/03/05",
        "2026-3-5",
        "2026-03-05T10:00:00Z",
        "3/5/2026",
        "03/05/2026",
        "3-5-2026",
        "3/5/26",
        "March 5, 2026",
        "march 5 2026",
        "5 March 2026",
        "Mar 5th 2026",
        "Mar. 5, 2026",
        "2026-Mar-05",
        "the fifth of March, 2026",
        "5th of March 2026",
        "Thursday, March 5, 2026",
        "Thu 5 Mar 2026",
        "March fifth twenty twenty-six",
        "march the fifth two thousand twenty six",
        "March fifth, two thousand and twenty-six",
        "twenty twenty six march fifth",
        "March five twenty twenty six",
        "March 5, 26",
    ],
)
def test_march_fifth(text: str) -> None:
    assert parse_date(text) == MARCH_5


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("march the twenty fifth two thousand twenty six", datetime.date(2026, 3, 25)),
        ("December thirty-first, 1999", datetime.date(1999, 12, 31)),
        ("march fifth nineteen ninety nine", datetime.date(1999, 3, 5)),
        ("may the fourth nineteen oh five", datetime.date(1905, 5, 4)),
        ("Sept 3rd, 2026", datetime.date(2026, 9, 3)),
        ("the first of january twenty twenty", datetime.date(2020, 1, 1)),
    ],
)
def test_other_dates(text: str, expected: datetime.date) -> None:
    assert parse_date(text) == expected


def test_day_first() -> None:
    assert parse_date("5/3/2026", day_first=True) == MARCH_5
    assert parse_date("5/3/2026") == datetime.date(2026, 5, 3)
    # Month names are never ambiguous.
    assert parse_date("5 March 2026", day_first=True) == MARCH_5
    assert parse_date("2026-03-05", day_first=True) == MARCH_5


@pytest.mark.parametrize(
    "text",
    [
        None,
        20260305,
        ["2026-03-05"],
        "",
        "March 5",
        "March 2026",
        "13/25/2026",
        "2026-02-30",
        "February thirtieth 2026",
        "next Tuesday",
        "March April 5 2026",
        "March 5 123456789",
    ],
)
def test_rejects(text: object) -> None:
    assert parse_date(text) is None


def test_date_objects_pass_through() -> None:
    assert parse_date(MARCH_5) == MARCH_5
    assert parse_date(datetime.datetime(2026, 3, 5, 14, 0)) == MARCH_5


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("14:00", 840),
        ("14:30:15", 870),
        ("0:30", 30),
        ("24:00", 1440),
        ("2pm", 840),
        ("2 PM", 840),
        ("2:30 p.m.", 870),
        ("9 a.m.", 540),
        ("12am", 0),
        ("12pm", 720),
        ("11:59pm", 1439),
        ("noon", 720),
        ("midnight", 0),
        ("14h30", 870),
        ("14h", 840),
        ("two pm", 840),
        ("two thirty pm", 870),
        ("two oh five p.m.", 845),
    ],
)
def test_clock(text: str, minutes: int) -> None:
    assert parse_clock(text) == minutes


@pytest.mark.parametrize("text", ["14", "25:00", "13pm", "0am", "14:60", "pm", "ham", 14, None])
def test_clock_rejects(text: object) -> None:
    assert parse_clock(text) is None


@pytest.mark.parametrize(
    ("two_digits", "year"), [(0, 2000), (26, 2026), (68, 2068), (69, 1969), (99, 1999)]
)
def test_two_digit_years_pivot_at_69(two_digits: int, year: int) -> None:
    assert YEAR_PIVOT == 69
    assert expand_year(two_digits) == year
    assert parse_date(f"3/5/{two_digits:02d}") == datetime.date(year, 3, 5)


def test_spoken_two_digit_year_follows_the_pivot() -> None:
    assert parse_date("March 5, '99") == datetime.date(1999, 3, 5)


@pytest.mark.parametrize("text", ["20260305", "20260305T1430", "20260305t143000z"])
def test_compact_iso(text: str) -> None:
    assert parse_date(text) == MARCH_5


@pytest.mark.parametrize("text", ["20261305", "20260230", "2026035", "202603051"])
def test_compact_iso_rejects_impossible_dates(text: str) -> None:
    assert parse_date(text) is None


@pytest.mark.parametrize(
    "text",
    ["May 5", "may 5th", "5 May", "the fifth of May", "Tuesday, May 5", "--05-05", "5/5"],
)
def test_month_day(text: str) -> None:
    assert parse_date(text) is None  # no year: not a calendar date
    assert parse_month_day(text) == (5, 5)


def test_month_day_day_first_and_leap_day() -> None:
    assert parse_month_day("3/5") == (3, 5)
    assert parse_month_day("3/5", day_first=True) == (5, 3)
    assert parse_month_day("Feb 29") == (2, 29)


@pytest.mark.parametrize("text", ["Feb 30", "May", "May 5, 2026", "13/5", 5, None, "5"])
def test_month_day_rejects(text: object) -> None:
    assert parse_month_day(text) is None
