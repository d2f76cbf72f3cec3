"""The false matches and misses found by comparing duplexbench's graders with the
APEX-Voice reference graders (issue 16): each case has its own test."""

from __future__ import annotations

import pytest

from duplexbench.items._grading import GraderSpec
from duplexbench.values._graders import grade, values_match
from duplexbench.values._numbers import parse_number


def spec(name: str, **options: object) -> GraderSpec:
    return GraderSpec.model_validate({"name": name, "options": options})


NUMERIC = spec("numeric_tolerance")
TEXT_GRADERS = ("exact", "casefold_exact", "semantic")

# --- false matches: fraction words -------------------------------------------------------


def test_one_and_a_half_is_not_one() -> None:
    assert not values_match(NUMERIC, "one and a half", 1)
    assert values_match(NUMERIC, "one and a half", 1.5)
    assert values_match(NUMERIC, "1 and a half hours", 1.5)


def test_half_a_million_is_not_a_million() -> None:
    assert not values_match(NUMERIC, "half a million", 1_000_000)
    assert values_match(NUMERIC, "half a million", 500_000)
    assert values_match(NUMERIC, "one and a half million", 1_500_000)
    assert values_match(NUMERIC, "a million and a half", 1_500_000)


def test_three_quarters_is_not_three() -> None:
    assert not values_match(NUMERIC, "three quarters", 3)
    assert values_match(NUMERIC, "three quarters", 0.75)
    assert values_match(NUMERIC, "3 quarters", 0.75)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a half", 0.5),
        ("one half", 0.5),
        ("a third", 1 / 3),
        ("two thirds", 2 / 3),
        ("a quarter million", 250_000),
        ("three quarters of a million", 750_000),
        ("about two and a half years", 2.5),
        ("minus one and a half", -1.5),
        ("an eighth", 0.125),
        ("one second", 1.0),  # "second" is never a denominator
        ("two hundred and a half", 200.5),
    ],
)
def test_fraction_phrases_read_as_their_value(text: str, expected: float) -> None:
    assert parse_number(text) == pytest.approx(expected)


@pytest.mark.parametrize("text", ["the first quarter", "half past two", "quarters", "halves"])
def test_a_fraction_word_outside_a_fraction_phrase_is_not_a_number(text: str) -> None:
    assert parse_number(text) is None


# --- false matches: semantic keeps signs, percent and decimal points ----------------------


def test_semantic_keeps_the_sign() -> None:
    semantic = spec("semantic")
    assert not values_match(semantic, "-5 degrees", "5 degrees")
    assert not values_match(semantic, "minus 5", "-5")  # words are not signs; the judge decides
    assert values_match(semantic, "\u22125 degrees", "-5 Degrees.")


def test_semantic_keeps_percent() -> None:
    semantic = spec("semantic")
    assert not values_match(semantic, "5% discount", "5 discount")
    assert values_match(semantic, "5 % discount", "5% Discount")


def test_semantic_keeps_decimal_points_and_symbols() -> None:
    semantic = spec("semantic")
    assert not values_match(semantic, "5.5 hours", "5 5 hours")
    assert not values_match(semantic, "$5", "€5")
    assert not values_match(semantic, "<5 years", "5 years")
    # Other punctuation still does not count.
    assert values_match(semantic, "Follow-up call, Monday.", "follow up call monday")


# --- false matches: "and" in set values ----------------------------------------------------


def test_rock_and_roll_is_not_rock_comma_roll() -> None:
    assert not values_match(spec("set_exact"), "rock, roll", "Rock and Roll")
    assert not values_match(spec("set_exact"), "rock, roll", ["Rock and Roll"])
    assert values_match(spec("set_exact"), "rock and roll", ["Rock and Roll"])


def test_and_splits_where_the_gold_elements_allow() -> None:
    assert values_match(spec("set_exact"), "Rock and Roll", ["rock", "roll"])
    gold = ["Research and Development", "Sales"]
    assert values_match(spec("set_exact"), "research and development and sales", gold)
    assert values_match(spec("ordered_list"), "research and development, and sales", gold)
    assert grade(spec("set_f1"), "research and development and marketing", gold) == 0.5


# --- misses: booleans ----------------------------------------------------------------------


@pytest.mark.parametrize("name", [*TEXT_GRADERS, "enum"])
@pytest.mark.parametrize("said", [True, "True", "true", "TRUE", "yes", "Yes.", "y"])
def test_boolean_gold_true_matches_every_spelling(name: str, said: object) -> None:
    grader = spec(name, values=["true", "false"]) if name == "enum" else spec(name)
    assert values_match(grader, said, True)


@pytest.mark.parametrize("said", [False, "false", "no", "maybe", "1", 1])
def test_boolean_gold_true_rejects_false_and_non_booleans(said: object) -> None:
    assert not values_match(spec("casefold_exact"), said, True)


def test_a_boolean_prediction_matches_a_gold_that_spells_one() -> None:
    assert values_match(spec("exact"), True, "yes")
    assert not values_match(spec("exact"), False, "yes")
    assert not values_match(spec("exact"), True, "approved")  # not a boolean: compared as text


# --- misses: a numeric gold written as a JSON float ----------------------------------------


@pytest.mark.parametrize("name", TEXT_GRADERS)
@pytest.mark.parametrize("said", ["4654.0", "4654", " 4654.00 "])
def test_json_float_gold_matches_its_string_forms(name: str, said: str) -> None:
    assert values_match(spec(name), said, 4654.0)


@pytest.mark.parametrize("name", TEXT_GRADERS)
def test_json_float_gold_still_rejects_other_numbers(name: str) -> None:
    assert not values_match(spec(name), "4654.5", 4654.0)
    assert not values_match(spec(name), "4,654", 4654.0)  # not a plain numeral: as text
    assert values_match(spec(name), "4654.5", 4654.5)
    assert values_match(spec(name), 4654.0, "4654.0")


def test_two_strings_are_still_text() -> None:
    assert not values_match(spec("exact"), "200.0", "200")


def test_numbers_too_large_to_read_are_not_equal_numerals() -> None:
    assert not values_match(spec("exact"), "5" * 401, 10**400)


# --- misses: dates and times ---------------------------------------------------------------


def test_yearless_dates_compare_month_and_day() -> None:
    date = spec("date")
    assert values_match(date, "may 5th", "May 5")
    assert values_match(date, "the fifth of May", "May 5")
    assert values_match(date, "May 5, 2026", "May 5")  # a year in the prediction is fine
    assert not values_match(date, "May 6", "May 5")
    assert not values_match(date, "May 5", "2026-05-05")  # a dated gold needs the year
    assert values_match(spec("date", day_first=True), "5/3", "5 March")


@pytest.mark.parametrize("said", ["14:30", "2:30 PM", "2:30pm", "2:30 p.m.", "two thirty pm"])
def test_single_times_canonicalize(said: str) -> None:
    assert values_match(spec("date"), said, "14:30")
    assert values_match(spec("date"), said, "2:30 PM")


def test_a_different_time_is_not_the_same() -> None:
    assert not values_match(spec("date"), "2:30 AM", "14:30")
    assert not values_match(spec("date"), "14:35", "2:30pm")


def test_two_digit_years_follow_the_posix_pivot() -> None:
    date = spec("date")
    assert values_match(date, "3/5/99", "1999-03-05")
    assert not values_match(date, "3/5/99", "2099-03-05")
    assert values_match(date, "3/5/26", "2026-03-05")
    assert values_match(date, "3/5/68", "2068-03-05")
    assert values_match(date, "3/5/69", "1969-03-05")


def test_compact_iso_dates_parse() -> None:
    assert values_match(spec("date"), "20260305", "2026-03-05")
    assert values_match(spec("date"), "March 5, 2026", "20260305")
    assert not values_match(spec("date"), "20260306", "2026-03-05")
