"""parse_number: digits, units, hedges and spelled numbers."""

from __future__ import annotations

import pytest

from duplexbench.values._numbers import (
    format_number,
    int_prefix,
    ordinal_suffix,
    parse_number,
    words_to_int,
)
from duplexbench.words import ORDINAL_WORDS, SCALE_WORDS, TEEN_WORDS, TENS_WORDS, UNIT_WORDS


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (200, 200.0),
        (8.5, 8.5),
        ("200", 200.0),
        ("1,200", 1200.0),
        ("1,234,567.89", 1234567.89),
        ("$200", 200.0),
        ("200 dollars", 200.0),
        ("8 years", 8.0),
        ("15%", 15.0),
        ("-3.5", -3.5),
        (".5", 0.5),
        ("5k", 5000.0),
        ("$1.2K", 1200.0),
        ("1.5 million", 1_500_000.0),
        ("eight", 8.0),
        ("zero", 0.0),
        ("twenty-six", 26.0),
        ("two hundred forty", 240.0),
        ("one thousand two hundred and fifty", 1250.0),
        ("twelve hundred", 1200.0),
        ("eight point five", 8.5),
        ("three point one four", 3.14),
        ("a hundred", 100.0),
        ("a thousand dollars", 1000.0),
        ("one million two hundred thousand and five", 1_200_005.0),
        ("around eight years", 8.0),
        ("about 200", 200.0),
        ("roughly 1,200 dollars", 1200.0),
        ("minus five", -5.0),
        ("negative 2", -2.0),
        ("200 (two hundred)", 200.0),
    ],
)
def test_parses(text: object, expected: float) -> None:
    assert parse_number(text) == pytest.approx(expected)


@pytest.mark.parametrize(
    "text",
    [
        None,
        True,
        False,
        [1],
        {"a": 1},
        "",
        "none",
        "8 or 9",
        "between 8 and 10",
        "1,20",
        "2:30",
        "one thousand two thousand",
        "thousand",
        float("nan"),
        float("inf"),
        10**400,
        "1" * 400,
    ],
)
def test_rejects(text: object) -> None:
    assert parse_number(text) is None


def test_several_spelled_words_of_one_number_parse() -> None:
    assert parse_number("nine hundred ninety nine thousand") == 999_000


def test_words_to_int() -> None:
    assert words_to_int(["twenty", "six"]) == 26
    assert words_to_int(["twenty", "twenty"]) is None
    assert words_to_int(["fifth"]) is None
    assert words_to_int(["fifth"], allow_ordinal=True) == 5
    assert words_to_int(["twenty", "fifth"], allow_ordinal=True) == 25
    assert words_to_int(["fifth", "two"], allow_ordinal=True) is None
    assert words_to_int([]) is None


def test_int_prefix_stops_at_the_longest_number() -> None:
    assert int_prefix(["five", "five", "five"], 0) == (5, 1, False)
    assert int_prefix(["one", "hundred", "and", "five", "x"], 0) == (105, 4, False)
    assert int_prefix(["one", "hundred", "and"], 0) == (100, 2, False)
    assert int_prefix(["twenty", "first", "street"], 0, allow_ordinal=True) == (21, 2, True)
    assert int_prefix(["a", "hundred"], 0, allow_article=False) is None
    assert int_prefix(["oak"], 0) is None


def test_format_number_and_ordinal_suffix() -> None:
    assert format_number(200.0) == "200"
    assert format_number(-0.0) == "0"
    assert format_number(8.5) == "8.5"
    assert [ordinal_suffix(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "st",
        "nd",
        "rd",
        "th",
        "th",
        "th",
        "th",
        "st",
        "nd",
        "st",
    ]


def test_every_shared_number_word_is_read() -> None:
    """The spelled-number parser reads the one table of `duplexbench.words`."""
    for word, value in {**UNIT_WORDS, **TEEN_WORDS, **TENS_WORDS}.items():
        assert words_to_int([word]) == value
    for word, value in SCALE_WORDS.items():
        assert words_to_int(["one", word]) == value
    for ordinal, cardinal in ORDINAL_WORDS.items():
        lead = ["one"] if cardinal in ("hundred", *SCALE_WORDS) else []
        expected = words_to_int([*lead, cardinal])
        assert expected is not None
        assert words_to_int([*lead, ordinal], allow_ordinal=True) == expected
    assert words_to_int(["zero"]) == 0
    assert parse_number("one point oh five") == 1.05  # "oh" is this module's own digit
