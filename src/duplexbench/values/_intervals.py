"""Intervals of numbers, clock times, dates or datetimes: "2pm to 4pm", [8, 10],
{"start": "2026-03-05", "end": "2026-03-07"}, "between 9 and 5"."""

from __future__ import annotations

import datetime
import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from duplexbench.values._dates import parse_clock, parse_date
from duplexbench.values._numbers import format_number, parse_number


def _normalize(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


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
    text = _normalize(value)
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
    text = _INTERVAL_PREFIX.sub("", _normalize(text))
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
