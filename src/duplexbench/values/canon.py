"""Canonical forms of dictated values: text, phones, addresses, sets and lists, intervals.

Each function takes any JSON value and never raises; where a value cannot be read as
the asked-for type the function returns None.
"""

from __future__ import annotations

import datetime
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from duplexbench.values.dates import parse_clock, parse_date
from duplexbench.values.numbers import format_number, int_prefix, ordinal_suffix, parse_number

_QUOTES = "\"'“”‘’«»`"
_TRAILING_PUNCT = ".!?,"
_SPLIT = re.compile(r"\s*(?:[,;\n&]|\band\b)\s*", re.IGNORECASE)
_BULLET = re.compile(r"^(?:[-*•]|[0-9]{1,3}[.)])\s+")
_WORD = re.compile(r"[0-9]+|[^\W\d_]+")

ADDRESS_ABBREVIATIONS: dict[str, str] = {
    "street": "st",
    "avenue": "ave",
    "road": "rd",
    "boulevard": "blvd",
    "drive": "dr",
    "lane": "ln",
    "court": "ct",
    "place": "pl",
    "square": "sq",
    "highway": "hwy",
    "parkway": "pkwy",
    "terrace": "ter",
    "circle": "cir",
    "suite": "ste",
    "apartment": "apt",
    "building": "bldg",
    "floor": "fl",
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "northeast": "ne",
    "northwest": "nw",
    "southeast": "se",
    "southwest": "sw",
    "mount": "mt",
}


# --- plain text ---------------------------------------------------------------------------


def is_empty(value: object) -> bool:
    """True for None, "", a whitespace-only string, and an empty list or dict."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, list | dict | tuple):
        return len(value) == 0
    return False


def normalize_text(text: str) -> str:
    """Unicode NFKC, stripped, internal whitespace collapsed to one space."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def value_to_text(value: object) -> str:
    """A JSON value as normalized text: numbers without a trailing ".0", lists as JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        try:
            return str(value)
        except ValueError:  # more digits than int->str conversion allows
            return "<huge int>"
    if isinstance(value, float):
        return format_number(value)
    if isinstance(value, str):
        return normalize_text(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_json_item(item) for item in value) + "]"
    if isinstance(value, dict):
        items = sorted((str(k), _json_item(v)) for k, v in value.items())
        return "{" + ", ".join(f"{_json_item(k)}: {v}" for k, v in items) + "}"
    return normalize_text(str(value))


def _json_item(value: object) -> str:
    if isinstance(value, str):
        return '"' + normalize_text(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
    if value is None:
        return "null"
    return value_to_text(value)


def casefold_text(value: object) -> str:
    """Normalized, casefolded text without surrounding quotes or trailing . ! ? ,"""
    text = value_to_text(value).casefold()
    previous = None
    while text != previous:
        previous = text
        text = text.strip().strip(_QUOTES).rstrip(_TRAILING_PUNCT)
    return normalize_text(text)


def loose_text(value: object) -> str:
    """Casefolded text with every punctuation mark turned into a space."""
    return normalize_text(re.sub(r"[^\w\s]|_", " ", casefold_text(value)))


def enum_text(value: object) -> str:
    """Casefolded label with spaces, underscores and hyphens unified: "in_person" -> "in person"."""
    return normalize_text(re.sub(r"[\s_\-]+", " ", value_to_text(value).casefold()))


# --- phones and addresses -----------------------------------------------------------------


def _number_run(tokens: Sequence[str], i: int) -> tuple[str, int] | None:
    """Spoken number words from ``tokens[i]`` on, concatenated as digits ("one twenty" -> "120")."""
    pieces: list[str] = []
    while i < len(tokens):
        if pieces and tokens[i] in ("oh", "o"):
            pieces.append("0")
            i += 1
            continue
        parsed = int_prefix(tokens, i, allow_ordinal=True, allow_article=False)
        if parsed is None:
            break
        value, i, ordinal = parsed
        pieces.append(f"{value}{ordinal_suffix(value)}" if ordinal else str(value))
        if ordinal:
            break
    return ("".join(pieces), i) if pieces else None


def phone_digits(value: object) -> str:
    """The digits of a phone number, spoken digits included; a leading US "1" is dropped.

    "five five five, one two three" -> "555123"; "oh" is 0, "double five" is 55, "triple
    two" is 222. An 11-digit number starting with 1 loses the 1, so "+1 555 123 4567"
    and "555-123-4567" agree.
    """
    tokens = _WORD.findall(value_to_text(value).casefold())
    digits: list[str] = []
    repeat, i = 1, 0
    while i < len(tokens):
        token = tokens[i]
        if token in ("double", "triple"):
            repeat, i = (2 if token == "double" else 3), i + 1
            continue
        if token.isascii() and token.isdigit():
            chunk, i = token, i + 1
        elif token in ("oh", "o"):
            chunk, i = "0", i + 1
        elif (run := _number_run(tokens, i)) is not None and run[0].isdigit():
            chunk, i = run
        else:
            repeat, i = 1, i + 1
            continue
        digits.append(chunk[0] * repeat + chunk[1:])
        repeat = 1
    result = "".join(digits)
    return result[1:] if len(result) == 11 and result.startswith("1") else result


def address_text(value: object) -> str:
    """Lowercase address with punctuation dropped, spoken numbers as digits, short suffixes.

    "Twelve Oak Street, Apartment #4" -> "12 oak st apt 4"; "Fifth Avenue" -> "5th ave".
    """
    text = re.sub(r"[^\w]|_", " ", value_to_text(value).casefold())
    tokens = text.split()
    out: list[str] = []
    i = 0
    while i < len(tokens):
        run = _number_run(tokens, i)
        if run is not None:
            out.append(run[0])
            i = run[1]
            continue
        out.append(ADDRESS_ABBREVIATIONS.get(tokens[i], tokens[i]))
        i += 1
    return " ".join(out)


# --- sets and lists -----------------------------------------------------------------------


def split_items(value: object) -> list[str] | None:
    """The elements of a list-like value, in order, as normalized text.

    A list gives its elements; a string is split on commas, semicolons, newlines, "&"
    and the word "and" (leading bullets such as "- " or "1. " are dropped). Blank
    elements are dropped. Dicts and other values give None.
    """
    if isinstance(value, list | tuple):
        raw = [value_to_text(item) for item in value]
    elif isinstance(value, str):
        raw = _SPLIT.split(unicodedata.normalize("NFKC", value))
    elif isinstance(value, bool | int | float):
        raw = [value_to_text(value)]
    else:
        return None
    items = [normalize_text(_BULLET.sub("", item.strip())) for item in raw]
    return [item for item in items if item]


def item_key(item: str, item_grader: str) -> str:
    """How set/list elements are compared: "exact" or (default) "casefold_exact"."""
    return normalize_text(item) if item_grader == "exact" else casefold_text(item)


def canonical_items(value: object, item_grader: str) -> list[str] | None:
    """Canonical elements in order (duplicates kept), or None when not list-like."""
    items = split_items(value)
    if items is None:
        return None
    keys = [item_key(item, item_grader) for item in items]
    return [key for key in keys if key]


# --- intervals ----------------------------------------------------------------------------

EndpointKind = Literal["number", "clock", "date", "datetime"]
_INTERVAL_SEPARATORS = (
    re.compile(r"\s+(?:to|until|till|til|through|thru)\s+", re.IGNORECASE),
    re.compile(r"\s*[–—]\s*"),
    re.compile(r"\s+-\s+"),
    re.compile(r"\s+and\s+", re.IGNORECASE),
    re.compile(r"-"),
)
_INTERVAL_PREFIX = re.compile(r"^(?:from|between)\s+", re.IGNORECASE)
_ISO_DATETIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{1,2}:[0-9]{2}")
_HAS_MERIDIEM = re.compile(r"[0-9\s]([ap])\.?\s*m\.?$", re.IGNORECASE)
_EPOCH = datetime.datetime(1970, 1, 1)
_MAX_INTERVAL_CHARS = 200
"""Longer strings are not read as intervals (splitting them is quadratic)."""


@dataclass(frozen=True)
class Interval:
    """A closed interval on one scale: numbers, minutes after midnight, or epoch minutes."""

    kind: EndpointKind
    start: float
    end: float

    @property
    def scale(self) -> str:
        """Intervals on the same scale can be compared (dates and datetimes share one)."""
        return "timeline" if self.kind in ("date", "datetime") else self.kind

    def describe(self) -> str:
        """Stable text such as "14:00-15:30", "2026-03-05/2026-03-07" or "8-10"."""
        return f"{_format_endpoint(self.kind, self.start)}/{_format_endpoint(self.kind, self.end)}"


def _format_endpoint(kind: EndpointKind, value: float) -> str:
    if kind == "clock":
        return f"{int(value) // 60:02d}:{int(value) % 60:02d}"
    if kind in ("date", "datetime"):
        moment = _EPOCH + datetime.timedelta(minutes=value)
        return moment.date().isoformat() if kind == "date" else moment.isoformat(timespec="minutes")
    return format_number(value)


def _datetime_minutes(text: str) -> float | None:
    if not _ISO_DATETIME.match(text):
        return None
    try:
        moment = datetime.datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.UTC).replace(tzinfo=None)
    return (moment - _EPOCH).total_seconds() / 60


def parse_endpoint(value: object) -> tuple[EndpointKind, float] | None:
    """One interval endpoint: a number, a clock time, an ISO datetime, or a date."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = parse_number(value)
        return ("number", number) if number is not None else None
    if not isinstance(value, str):
        return None
    text = normalize_text(value)
    clock = parse_clock(text)
    if clock is not None:
        return "clock", float(clock)
    moment = _datetime_minutes(text)
    if moment is not None:
        return "datetime", moment
    date = parse_date(text)
    if date is not None:
        return "date", float((date - _EPOCH.date()).days * 1440)
    number = parse_number(text)
    return ("number", number) if number is not None else None


def _make_interval(start: object, end: object) -> Interval | None:
    first, last = parse_endpoint(start), parse_endpoint(end)
    if isinstance(start, str) and isinstance(end, str) and first and last:
        meridiem = _HAS_MERIDIEM.search(end.strip())
        if first[0] == "number" and last[0] == "clock" and meridiem:
            first = parse_endpoint(f"{start} {meridiem[1]}m")
    if first is None or last is None or first[0] != last[0]:
        return None
    kind, low, high = first[0], first[1], last[1]
    if kind == "clock" and high == 0 and low > 0:
        high = 1440.0  # "10pm to midnight"
    if high < low or not (math.isfinite(low) and math.isfinite(high)):
        return None
    return Interval(kind, low, high)


def _interval_from_text(text: str) -> Interval | None:
    text = _INTERVAL_PREFIX.sub("", normalize_text(text))
    if len(text) > _MAX_INTERVAL_CHARS:
        return None
    for separator in _INTERVAL_SEPARATORS:
        for match in separator.finditer(text):
            left, right = text[: match.start()], text[match.end() :]
            if left.strip() and right.strip():
                interval = _make_interval(left, right)
                if interval is not None:
                    return interval
    return None


def parse_interval(value: object) -> Interval | None:
    """An interval from [start, end], {"start": .., "end": ..} or "A - B" / "A to B" / "from A
    until B"; None when it does not parse, the endpoints differ in kind, or end < start."""
    if isinstance(value, list | tuple):
        return _make_interval(value[0], value[1]) if len(value) == 2 else None
    if isinstance(value, dict):
        for start_key, end_key in (("start", "end"), ("from", "to")):
            if start_key in value and end_key in value:
                return _make_interval(value[start_key], value[end_key])
        return None
    if isinstance(value, str):
        return _interval_from_text(value)
    return None
