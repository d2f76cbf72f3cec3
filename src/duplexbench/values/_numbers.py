"""Numbers written with digits or spoken aloud.

:func:`parse_number` reads one amount out of a dictated value ("$1,200", "around eight
years", "one thousand two hundred and fifty", "5k"). :func:`int_prefix` and
:func:`words_to_int` parse spelled integers and are shared with dates, phones and
addresses.

The number words (units, teens, tens, scales, ordinals) are the one table of
:mod:`duplexbench.words`, shared with the speech and user layers; "zero", "oh" as a
digit and the fraction words are this module's own.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence

from duplexbench.words import (
    ORDINAL_WORDS,
    SCALE_WORDS,
    TEEN_WORDS,
    TENS_WORDS,
    UNIT_WORDS,
)

DIGIT_WORDS: dict[str, int] = {"zero": 0, "oh": 0, **UNIT_WORDS}
"""Words read as single digits after "point" (and in phone numbers)."""
DENOMINATORS: dict[str, int] = {
    "half": 2,
    "third": 3,
    "quarter": 4,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}
"""Singular fraction denominators: "a third", "one quarter" (never "second")."""
PLURAL_DENOMINATORS: dict[str, int] = {
    "halves": 2,
    "thirds": 3,
    "quarters": 4,
    "fourths": 4,
    "fifths": 5,
    "sixths": 6,
    "sevenths": 7,
    "eighths": 8,
    "ninths": 9,
    "tenths": 10,
}
FRACTION_WORDS = frozenset({"half", "quarter", *PLURAL_DENOMINATORS})
"""Words that only ever name a fraction; outside a fraction phrase the value has no number."""

_NEGATORS = frozenset({"minus", "negative"})
_INT_START = frozenset({*UNIT_WORDS, *TEEN_WORDS, *TENS_WORDS, "zero", "a"})
_NUMBER_START = frozenset({*UNIT_WORDS, *TEEN_WORDS, *TENS_WORDS, "zero", "point"})
_MAX_NUMBER_WORDS = 40
"""No spelled number is longer than this; bounds the work on long texts."""
_NUM_TOKEN = re.compile(
    r"(?P<num>(?<![\w.])-?(?:[0-9]{1,3}(?:,[0-9]{3})+(?![0-9])|[0-9]+)(?:\.[0-9]+)?"
    r"|(?<![\w.])-?\.[0-9]+)(?P<k>k(?![^\W\d_]))?"
    r"|(?P<word>[^\W\d_]+)"
)
_NOT_A_WORD = "\x00"


def ordinal_suffix(value: int) -> str:
    """The English ordinal suffix of ``value``: 1 -> "st", 12 -> "th", 23 -> "rd"."""
    if value % 100 in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")


def format_number(value: float) -> str:
    """Render a number without a trailing ".0" when it is integral (200.0 -> "200")."""
    if math.isfinite(value) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def _below_100(words: Sequence[str], i: int) -> tuple[int, int] | None:
    if i >= len(words):
        return None
    word = words[i]
    if word in TENS_WORDS:
        value = TENS_WORDS[word]
        if i + 1 < len(words) and words[i + 1] in UNIT_WORDS:
            return value + UNIT_WORDS[words[i + 1]], i + 2
        return value, i + 1
    if word in TEEN_WORDS:
        return TEEN_WORDS[word], i + 1
    if word in UNIT_WORDS:
        return UNIT_WORDS[word], i + 1
    return None


def _group(words: Sequence[str], i: int, allow_article: bool) -> tuple[int, int] | None:
    """A number below 10,000 written as "[N hundred [and] ]M" (or "a hundred")."""
    n = len(words)
    if (
        allow_article
        and i + 1 < n
        and words[i] == "a"
        and words[i + 1] in {"hundred", *SCALE_WORDS}
    ):
        base: tuple[int, int] | None = (1, i + 1)
    else:
        base = _below_100(words, i)
    if base is None:
        return None
    value, j = base
    if j < n and words[j] == "hundred":
        value, j = value * 100, j + 1
        skip_and = 1 if j + 1 < n and words[j] == "and" else 0
        rest = _below_100(words, j + skip_and)
        if rest is not None:
            value, j = value + rest[0], rest[1]
    return value, j


def _int_prefix_plain(words: Sequence[str], i: int, allow_article: bool) -> tuple[int, int] | None:
    if i < len(words) and words[i] == "zero":
        return 0, i + 1
    total, last_scale, start = 0, math.inf, i
    while (group := _group(words, i, allow_article)) is not None:
        value, j = group
        scale = SCALE_WORDS.get(words[j]) if j < len(words) else None
        if scale is None or scale >= last_scale:
            total, i = total + value, j
            break
        total, last_scale, i = total + value * scale, scale, j + 1
        if i + 1 < len(words) and words[i] == "and" and _group(words, i + 1, False) is not None:
            i += 1
    return (total, i) if i > start else None


def int_prefix(
    words: Sequence[str], start: int, *, allow_ordinal: bool = False, allow_article: bool = True
) -> tuple[int, int, bool] | None:
    """Parse the longest spelled integer starting at ``words[start]``.

    Returns ``(value, end, is_ordinal)`` or None. An ordinal word ("fifth",
    "twenty first") may only end the number, and only when ``allow_ordinal``.
    ``allow_article`` lets "a" stand for one before "hundred"/"thousand".
    """
    if start >= len(words) or not (words[start] in _INT_START or words[start] in ORDINAL_WORDS):
        return None
    window = list(words[start : start + _MAX_NUMBER_WORDS])
    for k, word in enumerate(window):
        if word in ORDINAL_WORDS:
            window = window[: k + 1] if allow_ordinal else window[:k]
            if allow_ordinal:
                window[k] = ORDINAL_WORDS[word]
            break
    parsed = _int_prefix_plain(window, 0, allow_article)
    if parsed is None:
        return None
    value, end = parsed[0], start + parsed[1]
    return value, end, words[end - 1] in ORDINAL_WORDS


def words_to_int(words: Sequence[str], *, allow_ordinal: bool = False) -> int | None:
    """The integer spelled by all of ``words`` ("twenty", "six"), or None."""
    if not words:
        return None
    parsed = int_prefix(words, 0, allow_ordinal=allow_ordinal)
    if parsed is None or parsed[1] != len(words):
        return None
    return parsed[0]


def _spelled_number(words: Sequence[str], i: int) -> tuple[float, int] | None:
    """A spelled number with an optional "point" fraction: "eight point five"."""
    value: float = 0.0
    parsed = int_prefix(words, i) if words[i] != "point" else None
    if parsed is not None:
        value, i = float(parsed[0]), parsed[1]
    elif words[i] != "point":
        return None
    if i + 1 < len(words) and words[i] == "point" and words[i + 1] in DIGIT_WORDS:
        j = i + 1
        digits = ""
        while j < len(words) and words[j] in DIGIT_WORDS:
            digits += str(DIGIT_WORDS[words[j]])
            j += 1
        return value + float("0." + digits), j
    return (value, i) if parsed is not None else None


def _tokens(text: str) -> tuple[list[str], list[float | None]]:
    """Words (numbers replaced by a placeholder) and the parallel digit values."""
    words: list[str] = []
    numbers: list[float | None] = []
    for match in _NUM_TOKEN.finditer(text):
        if match.group("word") is not None:
            words.append(match.group("word"))
            numbers.append(None)
            continue
        value = float(match.group("num").replace(",", ""))
        if match.group("k"):
            value *= 1000
        words.append(_NOT_A_WORD)
        numbers.append(value)
    return words, numbers


def _scale_at(words: Sequence[str], i: int) -> int:
    """The multiplier of a scale word ("hundred", "thousand", ...) at ``words[i]``, else 0."""
    if i >= len(words):
        return 0
    return SCALE_WORDS.get(words[i], 100 if words[i] == "hundred" else 0)


def _fraction_at(words: Sequence[str], i: int) -> tuple[float, int] | None:
    """A proper fraction from ``words[i]`` on: "half", "a third", "three quarters"."""
    n = len(words)
    if i < n and words[i] == "half":
        return 0.5, i + 1
    if i + 1 < n and words[i] in ("a", "an", "one") and words[i + 1] in DENOMINATORS:
        return 1 / DENOMINATORS[words[i + 1]], i + 2
    numerator = _below_100(words, i)
    if numerator is not None and numerator[1] < n and words[numerator[1]] in PLURAL_DENOMINATORS:
        return numerator[0] / PLURAL_DENOMINATORS[words[numerator[1]]], numerator[1] + 1
    return None


def _scaled_fraction(words: Sequence[str], value: float, i: int) -> tuple[float, int]:
    """A fraction times a following scale: "half a million", "three quarters of a million"."""
    for skip in ((), ("a",), ("an",), ("of", "a")):
        j = i + len(skip)
        if tuple(words[i:j]) == skip and (scale := _scale_at(words, j)):
            return value * scale, j + 1
    return value, i


def _fraction_tail(words: Sequence[str], value: float, i: int) -> tuple[float, int]:
    """``value`` (an integer ending before ``words[i]``) with a fraction that follows it:
    "three quarters" (3 / 4), "one third", "two and a half", "a million and a half"."""
    n = len(words)
    if not value.is_integer():
        return value, i
    unit = SCALE_WORDS.get(words[i - 1], 1) if i > 0 else 1
    if i < n and unit == 1:
        if words[i] in PLURAL_DENOMINATORS and value >= 2:
            return _scaled_fraction(words, value / PLURAL_DENOMINATORS[words[i]], i + 1)
        if words[i] in DENOMINATORS and value == 1:
            return _scaled_fraction(words, value / DENOMINATORS[words[i]], i + 1)
    if i + 1 < n and words[i] == "and" and (fraction := _fraction_at(words, i + 1)) is not None:
        if unit > 1:
            return value + fraction[0] * unit, fraction[1]
        return _scaled_fraction(words, value + fraction[0], fraction[1])
    return value, i


def _amount(
    words: Sequence[str], digits: Sequence[float | None], i: int
) -> tuple[float, int] | None:
    """One amount starting at ``words[i]`` (digits, spelled, or a fraction phrase), or None."""
    digit = digits[i]
    if digit is not None:
        value, i = digit, i + 1
        if scale := _scale_at(words, i):
            value, i = value * scale, i + 1
        return _fraction_tail(words, value, i)
    fraction = _fraction_at(words, i) if words[i] in ("half", "a", "an") else None
    if fraction is not None:
        return _scaled_fraction(words, *fraction)
    if words[i] in _NUMBER_START or words[i] == "a":
        spelled = _spelled_number(words, i)
        if spelled is not None:
            return _fraction_tail(words, *spelled)
    return None


def _numbers_in(text: str) -> list[float] | None:
    """Every amount mentioned in ``text``; None when a scale or fraction word dangles
    (outside a number: "three quarters" is 0.75, but "the first quarter" has no number)."""
    words, digits = _tokens(text)
    found: list[float] = []
    negate = False
    i = 0
    while i < len(words):
        word = words[i]
        if word in _NEGATORS:
            negate, i = True, i + 1
            continue
        amount = _amount(words, digits, i)
        if amount is None:
            if word in SCALE_WORDS or word == "hundred" or word in FRACTION_WORDS:
                return None
            negate, i = False, i + 1
            continue
        value, i = amount
        found.append(-value if negate else value)
        negate = False
    return found


def parse_number(text: object) -> float | None:
    """The single number in a value, or None.

    Accepts ints and floats (not booleans) and strings with digits ("1,200", "-3.5",
    "$200", "15%", "5k"), units and hedges ("around 8 years"), and spelled numbers
    ("twelve hundred", "eight point five", "a hundred"). A string that mentions
    several different numbers does not parse.
    """
    if isinstance(text, bool):
        return None
    if isinstance(text, int | float):
        try:
            value = float(text)
        except OverflowError:
            return None
        return value if math.isfinite(value) else None
    if not isinstance(text, str):
        return None
    normalized = unicodedata.normalize("NFKC", text).casefold().replace("\u2212", "-")
    found = _numbers_in(normalized)
    if not found or len(set(found)) != 1:
        return None
    return found[0] if math.isfinite(found[0]) else None
