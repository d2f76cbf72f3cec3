"""Calendar dates and clock times, written or spoken.

:func:`parse_date` turns "2026-03-05", "20260305", "3/5/26", "Thursday, March 5, 2026",
"the fifth of March, 2026" or "march the fifth two thousand twenty six" into a
:class:`datetime.date`. :func:`parse_month_day` reads a date without a year ("May 5",
"the fifth of May", "3/5") as (month, day). :func:`parse_clock` turns "14:00", "2:30
p.m.", "noon" or "14h30" into minutes after midnight.

Two-digit years follow the POSIX ``strptime`` ``%y`` pivot: 69-99 are 1969-1999 and
00-68 are 2000-2068 ("3/5/99" is 1999-03-05, "3/5/26" is 2026-03-05).
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections.abc import Sequence

from duplexbench.values._numbers import words_to_int

MONTHS: dict[str, int] = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sep": 9,
    "sept": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
_WEEKDAYS = frozenset(
    {"monday", "mon", "tuesday", "tue", "tues", "wednesday", "wed", "thursday", "thu"}
    | {"thur", "thurs", "friday", "fri", "saturday", "sat", "sunday", "sun"}
)
_FILLER = frozenset({"the", "of", "on", "in", "year", "day", "at"})
_ISO = re.compile(r"([0-9]{4})[-/.]([0-9]{1,2})[-/.]([0-9]{1,2})(?:[t\s].*)?")
_COMPACT_ISO = re.compile(r"([0-9]{4})([0-9]{2})([0-9]{2})(?:t[0-9]{2,6}z?)?")
_MONTH_DAY = re.compile(r"(?:--([0-9]{2})-([0-9]{2}))|([0-9]{1,2})/([0-9]{1,2})")
_NUMERIC = re.compile(r"([0-9]{1,2})[-/.]([0-9]{1,2})[-/.]([0-9]{4}|[0-9]{2})")
_TOKEN = re.compile(r"([0-9]+)(?:st|nd|rd|th)?(?![^\W\d_])|[^\W\d_]+")
_CLOCK = re.compile(r"([0-9]{1,2})(?:(?::|h)([0-9]{2})(?::[0-9]{2}(?:\.[0-9]+)?)?|(h))?")
_MERIDIEM = re.compile(r"^(.*?)(?:(?<=[0-9])|\s+)([ap])\.?\s*m\.?$")
_ZERO_WORDS = frozenset({"oh", "o", "zero"})
_MAX_DATE_TOKENS = 16
_MAX_CLOCK_CHARS = 40
YEAR_PIVOT = 69
"""Two-digit years below this are 20YY, the rest 19YY (POSIX ``strptime`` ``%y``)."""
_LEAP_YEAR = 2000


def expand_year(two_digits: int) -> int:
    """A two-digit year on the POSIX pivot: 99 -> 1999, 69 -> 1969, 68 -> 2068, 5 -> 2005."""
    return two_digits + (1900 if two_digits >= YEAR_PIVOT else 2000)


def _make_date(year: int, month: int, day: int) -> datetime.date | None:
    try:
        return datetime.date(year, month, day)
    except ValueError:
        return None


def _normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip()


def _day(tokens: Sequence[str]) -> int | None:
    if len(tokens) == 1 and tokens[0].isdigit():
        return int(tokens[0]) if len(tokens[0]) <= 2 else None
    value = words_to_int(tokens, allow_ordinal=True)
    return value if value is not None and 1 <= value <= 31 else None


def _spoken_year_pair(tokens: Sequence[str]) -> int | None:
    """Years read as two pairs: "twenty twenty six", "nineteen oh five", "nineteen hundred"."""
    for split in range(1, len(tokens)):
        high = words_to_int(tokens[:split])
        if high is None or not 10 <= high <= 99:
            continue
        rest = tokens[split:]
        if list(rest) == ["hundred"]:
            return high * 100
        if rest[0] in _ZERO_WORDS:
            low = words_to_int(rest[1:])
            if low is not None and 1 <= low <= 9:
                return high * 100 + low
            continue
        low = words_to_int(rest)
        if low is not None and 10 <= low <= 99:
            return high * 100 + low
    return None


def _year(tokens: Sequence[str]) -> int | None:
    if len(tokens) == 1 and tokens[0].isdigit():
        digits = tokens[0]
        if len(digits) == 4:
            return int(digits)
        return expand_year(int(digits)) if len(digits) == 2 else None
    value = words_to_int(tokens)
    if value is not None and 1000 <= value <= 9999:
        return value
    return _spoken_year_pair(tokens)


def _day_year_splits(tokens: Sequence[str], month: int) -> set[datetime.date]:
    """Dates from splitting ``tokens`` into a day followed by a year."""
    found: set[datetime.date] = set()
    for split in range(1, len(tokens)):
        day, year = _day(tokens[:split]), _year(tokens[split:])
        if day is not None and year is not None and (date := _make_date(year, month, day)):
            found.add(date)
    return found


def _date_tokens(text: str) -> tuple[list[str], int] | None:
    """Tokens without fillers and weekdays, and the position of the one month name."""
    tokens = [m.group(1) or m.group(0) for m in _TOKEN.finditer(text)]
    tokens = [t for t in tokens if t not in _FILLER and t not in _WEEKDAYS]
    positions = [i for i, token in enumerate(tokens) if token in MONTHS]
    if len(tokens) > _MAX_DATE_TOKENS or len(positions) != 1:
        return None
    return tokens, positions[0]


def _textual_date(text: str) -> datetime.date | None:
    found_tokens = _date_tokens(text)
    if found_tokens is None:
        return None
    tokens, position = found_tokens
    if any(len(t) > 4 and t.isdigit() for t in tokens):
        return None
    month = MONTHS[tokens[position]]
    before, after = tokens[:position], tokens[position + 1 :]
    found: set[datetime.date] = set()
    if before and after:
        for day_tokens, year_tokens in ((before, after), (after, before)):
            day, year = _day(day_tokens), _year(year_tokens)
            if day is not None and year is not None and (date := _make_date(year, month, day)):
                found.add(date)
    else:
        found = _day_year_splits(before or after, month)
    return found.pop() if len(found) == 1 else None


def parse_date(text: object, day_first: bool = False) -> datetime.date | None:
    """The calendar date written or spoken in ``text``, or None.

    Numeric forms: ISO "2026-03-05" / "2026/03/05" and compact ISO "20260305" (a
    trailing time is ignored), US "3/5/2026" and "3-5-26", or "5/3/2026" when
    ``day_first``. Two-digit years follow :data:`YEAR_PIVOT` ("99" is 1999, "26" is
    2026). Textual forms need one month name or abbreviation plus a day and a year in
    digits or words; weekdays and "the"/"of" are ignored. A date without a year is
    not a date here (see :func:`parse_month_day`).
    """
    if isinstance(text, datetime.datetime):
        return text.date()
    if isinstance(text, datetime.date):
        return text
    if not isinstance(text, str):
        return None
    normalized = _normalize(text)
    if match := _ISO.fullmatch(normalized) or _COMPACT_ISO.fullmatch(normalized):
        return _make_date(int(match[1]), int(match[2]), int(match[3]))
    if match := _NUMERIC.fullmatch(normalized):
        first, second, year = int(match[1]), int(match[2]), int(match[3])
        if len(match[3]) == 2:
            year = expand_year(year)
        month, day = (second, first) if day_first else (first, second)
        return _make_date(year, month, day)
    return _textual_date(normalized)


def parse_month_day(text: object, day_first: bool = False) -> tuple[int, int] | None:
    """(month, day) of a date written without a year, or None.

    Accepts "May 5", "may 5th", "5 May", "the fifth of May", "Tuesday, May 5", ISO
    "--05-05" and numeric "5/5" (month first, or day first when ``day_first``). A
    value with a year is not read here: use :func:`parse_date`.
    """
    if not isinstance(text, str):
        return None
    normalized = _normalize(text)
    if match := _MONTH_DAY.fullmatch(normalized):
        if match[1] is not None:
            month, day = int(match[1]), int(match[2])
        else:
            first, second = int(match[3]), int(match[4])
            month, day = (second, first) if day_first else (first, second)
    else:
        found = _date_tokens(normalized)
        if found is None:
            return None
        tokens, position = found
        rest = tokens[:position] + tokens[position + 1 :]
        parsed_day = _day(rest)
        if parsed_day is None:
            return None
        month, day = MONTHS[tokens[position]], parsed_day
    return (month, day) if _make_date(_LEAP_YEAR, month, day) is not None else None


def _spoken_clock(words: Sequence[str]) -> tuple[int, int] | None:
    """Hour and minutes from words such as "two", "two thirty", "two oh five"."""
    hour = words_to_int(words)
    if hour is not None:
        return hour, 0
    for split in range(1, len(words)):
        hour = words_to_int(words[:split])
        rest = list(words[split:])
        if rest[0] in _ZERO_WORDS and len(rest) == 2:
            minute = words_to_int(rest[1:])
            minute = minute if minute is not None and minute < 10 else None
        else:
            minute = words_to_int(rest)
        if hour is not None and minute is not None:
            return hour, minute
    return None


def _hour_minute(text: str) -> tuple[int, int, bool] | None:
    """(hour, minute, explicit) where explicit says the text had ":" or "h"."""
    if match := _CLOCK.fullmatch(text):
        explicit = match[2] is not None or match[3] is not None
        return int(match[1]), int(match[2] or 0), explicit
    words = text.replace("-", " ").split()
    if words and all(w.isalpha() for w in words) and (spoken := _spoken_clock(words)):
        return spoken[0], spoken[1], False
    return None


def parse_clock(text: object) -> int | None:
    """Minutes after midnight for a clock time, or None.

    Accepts "14:00", "14:30:15", "14h30", "14h", "2pm", "2:30 p.m.", "two thirty pm",
    "noon" and "midnight" (0). A bare number ("14") is not a clock time. "24:00" is
    1440.
    """
    if not isinstance(text, str):
        return None
    normalized = _normalize(text)
    if len(normalized) > _MAX_CLOCK_CHARS:
        return None
    if normalized in {"noon", "midday", "12 noon"}:
        return 720
    if normalized == "midnight":
        return 0
    meridiem: str | None = None
    if match := _MERIDIEM.match(normalized):
        normalized, meridiem = match[1].strip(), match[2]
    parsed = _hour_minute(normalized)
    if parsed is None:
        return None
    hour, minute, explicit = parsed
    if minute > 59:
        return None
    if meridiem is not None:
        if not 1 <= hour <= 12:
            return None
        return (hour % 12 + (12 if meridiem == "p" else 0)) * 60 + minute
    if not explicit or hour > 24 or (hour == 24 and minute):
        return None
    return hour * 60 + minute
