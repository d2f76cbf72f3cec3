"""What a caller's words state: normalised words, lexicon phrases and the caller's values.

`CallerReader` (`_caller_acts.py`) reads an ASR transcript, which may have no
punctuation or capitals and may spell anything out. So the transcript is
normalised once (lower case; apostrophes dropped, so "don't" and "dont" are
one word; other punctuation a word break; thousands separators dropped), and:

- a phrase is found on whole words only (" no " is not in " know ");
- dates are read around each month name with `values.parse_date` /
  `parse_month_day`, the longest reading winning ("the twenty fifth of March"
  is the 25th, not the 5th); their words are no numbers;
- numbers are read in runs of number words and numerals with
  `values.parse_number`, the longest reading first ("two hundred and forty"
  is 240, never 200 and 40); a run of single digits is one number ("one zero
  four two" is 1042), and a spelled pair also reads as hundreds, as people
  say prices ("two forty" is 240, "twelve fifty" 1250);
- text values (names, codes, IDs) are compared letters and digits only, across
  word breaks, with spelled numbers as digits: "E one zero four two", "e 1042"
  and "E1042" agree, as do "client on site" and "client onsite".

A fact is stated when its value (a number, a date, else its text; a list:
every element) or its `say` form is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from duplexbench.items import Fact
from duplexbench.values import int_prefix, parse_date, parse_month_day, parse_number
from duplexbench.words import SCALE_WORDS, TEEN_WORDS, TENS_WORDS, UNIT_WORDS

MONTHS = frozenset(
    {"january", "february", "march", "april", "may", "june", "july", "august", "september"}
    | {"sept", "october", "november", "december"}
)
_SINGLE_DIGITS = {"zero": "0", "oh": "0", **{word: str(n) for word, n in UNIT_WORDS.items()}}
"""Words said as one digit in a run of digits ("one zero four two"): the shared units
(`duplexbench.words`), "zero" and "oh"."""
_NUMBER_WORDS = frozenset(
    {*_SINGLE_DIGITS, *TEEN_WORDS, *TENS_WORDS, "hundred", *SCALE_WORDS} - {"trillion"}
)
"""Words a spelled number is made of: the shared number words but "trillion" (a run of
number words ends at it, as at any other word)."""
_CONNECTORS = frozenset({"and", "a", "point"})
"""Words inside a spelled number that never start or end one."""
_NUMERAL = re.compile(r"\d+(?:\.\d+)?")
_TOKEN = re.compile(r"\d+(?:[./:-]\d+)*(?:st|nd|rd|th)?|[^\W\d_]+")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
MAX_NUMBER_WORDS = 12
"""The longest spelled number read (bounds the work on long utterances)."""
_DATE_BEFORE, _DATE_AFTER = 4, 8
"""Words read before and after a month name for its date ("on the twenty fifth of")."""

Date = tuple[int | None, int, int]
"""(year or None, month, day)."""


def words(text: str) -> list[str]:
    """The normalised words of a text."""
    low = text.casefold().replace("’", "'").replace("‘", "'").replace("'", "")
    return _TOKEN.findall(_THOUSANDS.sub("", low))


def phrases(spec: str) -> tuple[str, ...]:
    """A `|`-separated lexicon, each phrase normalised like a transcript, longest first."""
    found = {" ".join(words(p)) for p in spec.split("|")}
    return tuple(sorted((p for p in found if p), key=len, reverse=True))


def _date_of(text: str) -> Date | None:
    date = parse_date(text)
    if date is not None:
        return date.year, date.month, date.day
    month_day = parse_month_day(text)
    return None if month_day is None else (None, *month_day)


def _dates(tokens: list[str]) -> tuple[list[Date], set[int]]:
    """The dates said, and the positions of their words."""
    found: list[Date] = []
    used: set[int] = set()
    for i, token in enumerate(tokens):
        if token in MONTHS:
            best: tuple[int, int, Date] | None = None
            for start in range(max(0, i - _DATE_BEFORE), i + 1):
                for end in range(i + 1, min(len(tokens), i + _DATE_AFTER + 1) + 1):
                    longer = best is None or end - start > best[1] - best[0]
                    if longer and (date := _date_of(" ".join(tokens[start:end]))) is not None:
                        best = (start, end, date)
            if best is not None:
                found.append(best[2])
                used.update(range(best[0], best[1]))
        elif ("/" in token or "-" in token) and (date := _date_of(token)) is not None:
            found.append(date)
            used.add(i)
    return found, used


def _numberish(tokens: list[str], i: int) -> bool:
    token = tokens[i]
    if token == "oh":  # a zero only between other digits ("two oh one"), else a sigh
        return 0 < i < len(tokens) - 1 and {tokens[i - 1], tokens[i + 1]} <= _NUMBER_WORDS
    return token in _NUMBER_WORDS or token in _CONNECTORS or bool(_NUMERAL.fullmatch(token))


def _single_digit(token: str) -> bool:
    return token in _SINGLE_DIGITS or (len(token) == 1 and token.isdigit())


def _longest(run: list[str], k: int) -> tuple[int, float] | None:
    """The longest number reading from `run[k]` on: (its end, its value)."""
    if run[k] in _CONNECTORS:
        return None
    for end in range(min(len(run), k + MAX_NUMBER_WORDS), k, -1):
        value = None if run[end - 1] in _CONNECTORS else parse_number(" ".join(run[k:end]))
        if value is not None:
            return end, value
    return None


def _read_run(run: list[str]) -> set[float]:
    """The numbers a run of number words and numerals states."""
    if len(run) >= 2 and all(_single_digit(t) for t in run):
        return {float("".join(_SINGLE_DIGITS.get(t, t) for t in run))}
    pieces: list[tuple[float, bool]] = []
    k = 0
    while k < len(run):
        longest = _longest(run, k)
        if longest is None:
            k += 1
            continue
        end, value = longest
        pieces.append((value, all(t in _NUMBER_WORDS for t in run[k:end])))
        k = end
    found = {value for value, _ in pieces}
    for (high, spelled), (low, spelled_too) in pairwise(pieces):
        if spelled and spelled_too and 1 <= high < 100 and 10 <= low < 100 and high.is_integer():
            found.add(high * 100 + low)  # "two forty": 240
    return found


def _numbers(tokens: list[str], skip: set[int]) -> frozenset[float]:
    found: set[float] = set()
    run: list[str] = []
    for i in range(len(tokens) + 1):
        if i < len(tokens) and i not in skip and _numberish(tokens, i):
            run.append(tokens[i])
            continue
        found |= _read_run(run)
        run = []
    return frozenset(found)


def _as_digits(tokens: list[str]) -> list[str]:
    """Spelled numbers as numerals: "e one zero four two" -> e 1 0 4 2, "ten forty" -> 10 40."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if tokens[i] in ("oh", "o") and out and out[-1].isdigit():
            out.append("0")
            i += 1
            continue
        parsed = int_prefix(tokens, i, allow_article=False)
        if parsed is None:
            out.append(tokens[i])
            i += 1
        else:
            out.append(str(parsed[0]))
            i = parsed[1]
    return out


def _key(text: str) -> str:
    """A value's letters and digits, spelled numbers as numerals."""
    return "".join(_as_digits(words(text)))


def _texts(fact: Fact) -> list[list[str]]:
    """The written forms of a fact, each a list of parts that must all be said."""
    forms = [[fact.say]] if fact.say else []
    value = fact.value
    if isinstance(value, str):
        forms.append([value])
    elif isinstance(value, list):
        forms.append([str(v) for v in value])
    return forms


def _same_day(said: Date, fact: Date) -> bool:
    """The same day; a year said or held on one side only does not matter."""
    return said[1:] == fact[1:] and (None in (said[0], fact[0]) or said[0] == fact[0])


@dataclass(frozen=True)
class Spoken:
    """One utterance, normalised: its words, and the dates, numbers and text it states."""

    text: str
    """The words, space-joined and padded with a space each side."""
    dates: tuple[Date, ...]
    numbers: frozenset[float]
    digits: tuple[str, ...]
    """The words with spelled numbers as numerals (for text values)."""

    def has(self, lexicon: tuple[str, ...], unless: tuple[str, ...] = ()) -> bool:
        """Whether a phrase of the lexicon is said, `unless` phrases left out first."""
        text = self.text
        for phrase in unless:
            text = text.replace(f" {phrase} ", " # ")
        return any(f" {phrase} " in text for phrase in lexicon)

    def only(self, lexicon: tuple[str, ...]) -> bool:
        """Whether the utterance is made of lexicon phrases and nothing else."""
        text = self.text
        for phrase in lexicon:
            while f" {phrase} " in text:
                text = text.replace(f" {phrase} ", " ")
        return bool(self.text.strip()) and not text.strip()

    def ends_with(self, lexicon: tuple[str, ...]) -> bool:
        return any(self.text.endswith(f" {phrase} ") for phrase in lexicon)

    def _has_key(self, key: str) -> bool:
        """Whether consecutive words, run together, spell `key`."""
        for i in range(len(self.digits)):
            joined = ""
            for word in self.digits[i:]:
                joined += word
                if len(joined) >= len(key):
                    if joined == key:
                        return True
                    break
        return False

    def states(self, fact: Fact) -> bool:
        """Whether the utterance states the fact's value (or its spoken form)."""
        value = fact.value
        if isinstance(value, bool):
            value = None  # a yes/no fact is said only in its `say` form
        if isinstance(value, int | float) and any(abs(n - value) < 1e-6 for n in self.numbers):
            return True
        date = _date_of(value) if isinstance(value, str) else None
        if date is not None and any(_same_day(said, date) for said in self.dates):
            return True
        return any(
            all(len(k := _key(part)) >= 2 and self._has_key(k) for part in form)
            for form in _texts(fact)
        )


def hear(transcript: str) -> Spoken:
    """The normalised reading of one utterance."""
    tokens = words(transcript)
    dates, used = _dates(tokens)
    return Spoken(
        f" {' '.join(tokens)} ",
        tuple(dates),
        _numbers(tokens, used),
        tuple(_as_digits(tokens)),
    )
