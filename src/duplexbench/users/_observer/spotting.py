"""Spotting values in what the agent says: the caller recognises their own values.

A person hears "so that's Summit Learning, with Fatima as your contact" and
knows two of their details were read back, whatever words surround them.
:class:`ValueSpotter` does that for the caller's facts (every version of every
slot), robust to how values are written or dictated: letters and digits
spelled out ("T X dash 2 8 9 5"), thousands separators, emails read as "at"
and "dot", dates as "March 17th" or "3/17", partial names ("Fatima").

It also tells whether a sentence states *some* value of a slot's kind (a
date, a number, one of its choices, an email, ...) even when it is not the
caller's: that is what separates a confirmation ("so the start date is March
3rd?", a value to check) from a check without a value ("is the start date
right?").
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from duplexbench.items import Fact
from duplexbench.users._observer.cues import normalize, word_list, word_set
from duplexbench.users._observer.slots import Slot
from duplexbench.values import int_prefix

MONTHS = word_list(
    """
    january february march april may june july august september october november december
    """
)
_MONTH_ABBR = {m[:3]: i + 1 for i, m in enumerate(MONTHS)} | {"sept": 9}
_ORDINALS = word_list(
    """
    first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth
    thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth
    """
)
_NUMBER = re.compile(r"(?<![\w.])\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\w])")
_SPELLED = {"dash": "", "hyphen": "", "dot": "", "at": "", "underscore": "", "slash": ""}
_STOP = word_set(
    """
    a an the is are was were be to of for and or on in at as it its it's that this so
    your you my our their his her we i me right correct ok okay yes please just still
    currently now then there here have has had got get with by from do does did
    """
)
MIN_COLLAPSED = 5
"""Shortest letters-and-digits needle matched inside a collapsed sentence."""
HELD_CACHE = 2000
"""Sentences whose spotted values a spotter remembers (the oldest go first)."""
MIN_NUMBER = 100
"""Smaller whole numbers are heard as the caller's value only with their unit ("3 percent"):
alone they are everywhere (a spelled code, "the 2 of them")."""


def _distinctive(phrase: str) -> bool:
    """A needle worth matching: two words or more, or three characters that are not a
    small number."""
    if " " in phrase:
        return True
    return len(phrase) >= 3 and not (phrase.isdigit() and int(phrase) < MIN_NUMBER)


def collapse(text: str) -> str:
    """Letters and digits only, spelled separators dropped ("T X dash 2 8" -> "tx28")."""
    words = normalize(text).split()
    return "".join(_SPELLED.get(w, w) for w in words).replace("'", "")


def numbers_in(text: str) -> list[float]:
    """Numbers written with digits ("809,070", "$79", "4.5") or spelled ("seven",
    "twelve", "two hundred and five")."""
    out = []
    for match in _NUMBER.finditer(text):
        whole = match.group(1).replace(",", "")
        frac = match.group(2)
        out.append(float(f"{whole}.{frac}") if frac else float(whole))
    words = normalize(text).split()
    i = 0
    while i < len(words):
        parsed = int_prefix(words, i) if words[i] not in ("a", "an", "and") else None
        if parsed is None:
            i += 1
            continue
        out.append(float(parsed[0]))
        i = max(parsed[1], i + 1)
    return out


def dates_in(text: str) -> list[tuple[int | None, int, int]]:
    """(year or None, month, day) of the dates in a text: "March 17th, 2026", "17 March",
    "the 17th of March", "3/17/2026", "2026-03-17"."""
    out: list[tuple[int | None, int, int]] = []
    for m in re.finditer(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", text):
        out.append((int(m.group(1)), int(m.group(2)), int(m.group(3))))
    for m in re.finditer(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b", text):
        year = int(m.group(3)) if m.group(3) else None
        if year is not None and year < 100:
            year += 2000
        out.append((year, int(m.group(1)), int(m.group(2))))
    words = normalize(text).split()
    for i, word in enumerate(words):
        month = _month(word)
        if month is None:
            continue
        after = _day(words[i + 1 : i + 3])
        before = _day(words[max(0, i - 3) : i][::-1])
        day = after if after is not None else before
        if day is None:
            continue
        year = next((int(w) for w in words[i + 1 : i + 5] if re.fullmatch(r"(19|20)\d\d", w)), None)
        out.append((year, month, day))
    return out


def _month(word: str) -> int | None:
    if word in MONTHS:
        return MONTHS.index(word) + 1
    return _MONTH_ABBR.get(word.rstrip("."))


def _day(words: list[str]) -> int | None:
    for word in words:
        if word in ("the", "of", "on"):
            continue
        digits = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)?", word)
        if digits:
            day = int(digits.group(1))
            return day if 1 <= day <= 31 else None
        if word in _ORDINALS:
            return _ORDINALS.index(word) + 1
        return None
    return None


@dataclass(frozen=True)
class _Needles:
    fact: str
    slot: str
    phrases: tuple[str, ...]
    """Normalized word sequences, matched as whole words."""
    collapsed: tuple[str, ...]
    """Letters-and-digits forms, matched inside the collapsed sentence."""
    number: float | None
    date: tuple[int, int, int] | None


def _fact_needles(slot: Slot, fact: Fact) -> _Needles:
    value = fact.value
    texts = [fact.spoken, *(value if isinstance(value, list) else [value])]
    phrases: list[str] = []
    collapsed: list[str] = []
    for text in texts:
        if text is None or isinstance(text, bool | dict):
            continue
        norm = normalize(str(text)).strip()
        if not norm:
            continue
        phrases.append(norm)
        flat = collapse(str(text))
        coded = any(c.isdigit() for c in flat) or "@" in str(text) or slot.kind in ("email", "id")
        if coded and len(flat) >= MIN_COLLAPSED:
            collapsed.append(flat)
    if slot.kind in ("person", "company") and isinstance(value, str):
        words = [w for w in normalize(value).split() if w not in _STOP and len(w) > 2]
        phrases += words  # a first name or surname alone is the caller's value too
    phrases = [p for p in phrases if _distinctive(p)]
    number = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value) if abs(value) >= MIN_NUMBER or not float(value).is_integer() else None
    date = None
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        parsed = datetime.date.fromisoformat(value)
        date = (parsed.year, parsed.month, parsed.day)
    return _Needles(
        fact.id,
        slot.id,
        tuple(dict.fromkeys(phrases)),
        tuple(dict.fromkeys(collapsed)),
        number,
        date,
    )


class ValueSpotter:
    """Which of the caller's values a sentence states, and whether it states any value of
    a slot's kind."""

    def __init__(self, slots: tuple[Slot, ...]) -> None:
        self.slots = {s.id: s for s in slots}
        self._needles = [_fact_needles(s, f) for s in slots for f in s.facts]
        names = {normalize(n).strip() for s in slots for n in s.names}
        self._names = sorted((n for n in names if n), key=len, reverse=True)
        self._held: dict[str, dict[str, str]] = {}

    def _unnamed(self, norm: str) -> str:
        """The sentence with slot names blanked: "paperless billing" names a slot, it does
        not state the value "paperless"."""
        for name in self._names:
            if f" {name} " in norm:
                norm = norm.replace(f" {name} ", " # ")
        return norm

    def held(self, text: str) -> dict[str, str]:
        """Slot -> the caller's fact version whose value the text states (the latest
        version wins when several are stated). Remembered per text: a turn's earlier
        sentences are asked again for every later one (read-backs span sentences)."""
        known = self._held.get(text)
        if known is None:
            known = self._spot(text)
            if len(self._held) >= HELD_CACHE:
                del self._held[next(iter(self._held))]
            self._held[text] = known
        return dict(known)

    def _spot(self, text: str) -> dict[str, str]:
        norm = self._unnamed(normalize(text))
        flat = collapse(text)
        numbers = numbers_in(text)
        dates = dates_in(text)
        found: dict[str, str] = {}
        for needles in self._needles:
            if _states(needles, norm, flat, numbers, dates):
                found[needles.slot] = needles.fact
        return found

    def states_kind(self, text: str, slot: Slot) -> bool:
        """Whether the text states some value a slot of this kind could hold: one of its
        options, a date, a number, a code, an email, a time (names and free text are
        recognised only when they are the caller's, by `held`)."""
        norm = normalize(text)
        if slot.choices and any(f" {normalize(c).strip()} " in norm for c in slot.choices):
            return True
        kind = slot.kind
        if kind == "date":
            return bool(dates_in(text)) or bool(
                re.search(r"\b(next|this) (week|month|\w+day)\b", norm)
            )
        if kind in ("count", "money", "percent", "number"):
            return bool(numbers_in(text)) or bool(
                re.search(r"\b(hundred|thousand|million)\b", norm)
            )
        if kind in ("phone", "id"):
            return len(re.sub(r"\D", "", collapse(text))) >= 3
        if kind == "email":
            return "@" in text or " dot " in norm or (" at " in norm and " com " in norm)
        if kind == "time":
            return bool(re.search(r"\b(\d{1,2}(:\d\d)?|noon|midnight)( ?[ap] ?m)?\b", norm))
        return False  # a name or free text that is not the caller's: not told apart here


_PHONE = re.compile(r"\b\d{3}[\s.-]\d{3}[\s.-]\d{4}\b|\b\d{7,}\b|\(\d{3}\)\s*\d{3}")
_EMAIL = re.compile(r"@|\b(at) \S+ (dot) (com|org|net|co)\b")
_MONEY_SHAPE = re.compile(r"\$\s?\d|\b\d[\d,.]*\s*(dollars|bucks|usd|k)\b")
_PERCENT_SHAPE = re.compile(r"\b\d[\d.]*\s*(percent|%)|%")
_ID_SHAPE = re.compile(
    r"\b(?=[a-z-]*\d)(?=[\d-]*[a-z])[a-z\d][a-z\d-]{3,}\b|\b[a-z] [a-z] (dash )?\d"
)
_TIME_SHAPE = re.compile(r"\b\d{1,2}(:\d\d)?\s?(am|pm|a m|p m)\b|\b(noon|midnight)\b")


def shapes_in(text: str) -> set[str]:
    """Value kinds whose shape appears in a text (a phone number, a date, an amount of
    money, a code with letters and digits, ...), whatever slot they belong to."""
    low = text.casefold()
    norm = normalize(text)
    found = set()
    if _PHONE.search(low):
        found.add("phone")
    if _EMAIL.search(low) or _EMAIL.search(norm):
        found.add("email")
    if dates_in(text):
        found.add("date")
    if _MONEY_SHAPE.search(low):
        found.add("money")
    if _PERCENT_SHAPE.search(low):
        found.add("percent")
    if _ID_SHAPE.search(norm) or _ID_SHAPE.search(low):
        found.add("id")
    if _TIME_SHAPE.search(low):
        found.add("time")
    if numbers_in(text) and not found & {"phone", "date", "money", "percent", "id"}:
        found |= {"count", "number"}
    return found


def _states(
    needles: _Needles,
    norm: str,
    flat: str,
    numbers: list[float],
    dates: list[tuple[int | None, int, int]],
) -> bool:
    if any(f" {p} " in norm for p in needles.phrases):
        return True
    if any(c in flat for c in needles.collapsed):
        return True
    if needles.number is not None and any(abs(n - needles.number) < 1e-6 for n in numbers):
        return True
    if needles.date is not None:
        year, month, day = needles.date
        return any(m == month and d == day and y in (None, year) for y, m, d in dates)
    return False
