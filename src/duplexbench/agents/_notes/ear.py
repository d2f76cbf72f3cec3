"""One caller value under listening (`Ear`): its readings, the values they give, the
best of them and when one is ready to be read back. `ears.py` holds the ears of an
episode and decides the repairs; the rules are in its docstring."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from duplexbench.agents._notes.alphabet import clarity
from duplexbench.agents._notes.kinds import SPELLED_EARS, Target
from duplexbench.agents._notes.reading import canonical, well_formed

How = Literal["plain", "spelled", "phonetic", "digits", "repeat"]
Repair = Literal["ask", "spelled", "phonetic", "digits", "repeat"]
MAX_REPAIRS = 5
"""Repairs asked per value before the listener goes on with its best reading."""
MAX_FIXES = 2
"""Corrections the caller makes per slot (`users/_readback.py`): past them its "yes" to
a read-back no longer tells a right value from a wrong one."""
MAX_PROPOSALS = 2
"""Times the same value is read back when the caller neither confirms nor corrects it."""
SPELLED_HOW = ("spelled", "phonetic", "digits")
SHORT = 0.85
"""A spelling shorter than this share of the shortest plain reading lost words."""
AGREED_EARS = (*SPELLED_EARS, "text", "address", "list")
"""Ears whose values, in audio, are read back before they are relied on: names, codes
and emails (spelled), and words no shape can check (free text, addresses, lists), which
the ASR gets wrong as readily ("clared cash")."""
_NUMERIC = ("number", "integer", "phone")
_PHONE_DIGITS = 10
READ_BACK_DIGITS = 4
"""A number with this many digits or more is read back even when the ASR was sure
(workflows-v2 clean: whisper tiny.en wrote "$139,950." for "139915 dollars.",
its least sure segment at -0.58)."""


@dataclass(frozen=True)
class Reading:
    how: How
    text: str
    value: Any
    sure: bool
    whole: bool = True
    """A spelling that lost nothing whisper lets us see: no letter's mark left out ("Nancy
    with Ocean"), not much shorter than the plain words heard."""

    @property
    def audio(self) -> str:
        """What was heard, as one piece of evidence: the same words heard again are
        the same audio, misheard the same way."""
        return re.sub(r"[^a-z0-9]", "", self.text.casefold())

    @property
    def careful(self) -> bool:
        return self.how in SPELLED_HOW


@dataclass(frozen=True)
class Candidate:
    key: str
    value: Any
    support: float
    """Different readings that gave it (a plain reading of a spelled field: a little)."""
    spelled: bool
    whole: bool = True


@dataclass
class Ear:
    """One caller value (a fact version) under listening."""

    fact: str
    target: Target
    slot: str = ""
    readings: list[Reading] = field(default_factory=list)
    asked: list[Repair] = field(default_factory=list)
    settled: bool = False
    value: Any = None
    rejected: set[str] = field(default_factory=set)
    """Values proved wrong (no record has that id, the caller corrected it)."""
    checked: bool = False
    """The caller confirmed the value read back to it, or a record was found by it."""
    proposed: list[str] = field(default_factory=list)
    """The values read back to the caller (canonical), in order."""
    doubtful: bool = False
    """A value of a shaped field (a number, a date) that did not settle at once: it is
    read back before it is relied on, as names are."""

    @property
    def repairs(self) -> int:
        """Repairs asked (asking again for a value never found is none)."""
        return len([a for a in self.asked if a != "ask"])

    def _key(self, value: Any) -> str:
        return canonical(self.target, value)

    @property
    def long_number(self) -> bool:
        """A number or phone of `READ_BACK_DIGITS` digits or more heard once, and sure:
        read back at once rather than trusted."""
        if self.target.ear not in _NUMERIC or len(self.readings) != 1:
            return False
        only = self.readings[0]
        digits = sum(c.isdigit() for c in str(only.value or ""))
        return only.sure and digits >= READ_BACK_DIGITS

    def _weight(self, reading: Reading) -> float:
        """How much one reading counts for its value: a spelling or the digits one each;
        plain words of a name, a code or an email little (whisper mishears them), of a
        number less than its digits, of anything else one if the ASR was sure."""
        ear = self.target.ear
        if reading.careful:
            return 1.0
        if ear in SPELLED_EARS:
            return 0.5 if ear == "code" else 0.25
        if ear in _NUMERIC:
            return 0.75 if reading.sure else 0.5
        return 1.0 if reading.sure else 0.75

    def _usable(self) -> list[tuple[int, Reading, str]]:
        """(index, reading, key) of the well-formed readings not proved wrong."""
        out = []
        for i, reading in enumerate(self.readings):
            if reading.value is None or not well_formed(self.target, reading.value):
                continue
            key = self._key(reading.value)
            if key not in self.rejected:
                out.append((i, reading, key))
        return out

    def ranked(self) -> list[Candidate]:
        """Distinct values heard, well formed and not proved wrong, best first (module
        docstring)."""
        seen: set[tuple[str, str]] = set()
        support: dict[str, float] = {}
        best: dict[str, tuple[bool, bool, float, int, Any]] = {}
        """key -> (careful, whole, clarity, index, value) of its best reading."""
        for i, reading, key in self._usable():
            if (key, reading.audio) not in seen:
                seen.add((key, reading.audio))
                support[key] = support.get(key, 0.0) + self._weight(reading)
            clear = clarity(reading.text) if reading.careful else 0.0
            rank = (reading.careful, reading.whole, clear, i)
            held = best.get(key)
            if held is None or rank > held[:4]:
                best[key] = (*rank, reading.value)
        composite = self._composite() or self._reconciled()
        if composite is not None:  # items most spellings agree on: as sure as they are
            support[composite.key] = max(support.get(composite.key, 0.0), composite.support)
            held = best.get(composite.key)
            best[composite.key] = (True, True, 1.0, len(self.readings), composite.value)
            if held is not None:  # the same words as one reading: that reading's form
                best[composite.key] = (True, True, 1.0, held[3], held[4])
        out = [Candidate(k, self._form(k, b[4]), support[k], b[0], b[1]) for k, b in best.items()]
        out.sort(key=lambda c: (c.support, c.whole, *best[c.key][:4]), reverse=True)
        return out

    def _composite(self) -> Candidate | None:
        """A list heard several times, each time with a slip in another item: each item
        as most readings of different audio have it (an item somebody said; `_vote`).
        Names count only spellings; a list of words every reading, a corrected one too
        (its other items are still evidence). Its support is the least any of its items
        has; None unless two readings of the same length were heard and every item has
        two."""
        if self.target.ear not in ("names", "list"):
            return None
        spelled_only = self.target.ear == "names"
        heard: dict[str, _Row] = {}
        for reading in sorted(self.readings, key=lambda r: not r.careful):
            value = reading.value
            if not isinstance(value, list) or (spelled_only and not reading.careful):
                continue
            if well_formed(self.target, value):
                items = [self._key(v) for v in value]
                heard.setdefault(reading.audio, (items, value, reading.careful))
        if len(heard) < 2:
            return None
        sizes = [len(row[0]) for row in heard.values()]
        size = max(set(sizes), key=sizes.count)
        rows = [row for row in heard.values() if len(row[0]) == size]
        picked, least = [], float(len(rows))
        for place in range(size):
            item, support = _vote(rows, place)
            picked.append(item)
            least = min(least, support)
        key = self._key(picked)
        if key in self.rejected or least < 2:
            return None
        return Candidate(key, picked, least, True)

    def _reconciled(self) -> Candidate | None:
        """A phone heard with a digit too many or too few ("555-9777-9040", "5, 5, 5, 5,
        dash, ...", "555-977-940" for 555-977-9040): the ten digits that most readings of
        different audio explain (one digit dropped from eleven, or nine found in order
        in them), if one does best and two readings at least explain it."""
        if self.target.ear != "phone":
            return None
        heard: dict[str, str] = {}
        for reading in self.readings:
            digits = re.sub(r"\D", "", str(reading.value or reading.text))
            if digits:
                heard.setdefault(reading.audio, digits)
        counts: dict[str, int] = {}
        for digits in heard.values():
            if len(digits) == _PHONE_DIGITS + 1:
                for option in {digits[:i] + digits[i + 1 :] for i in range(len(digits))}:
                    counts[option] = counts.get(option, 0) + 1
            elif len(digits) == _PHONE_DIGITS:
                counts[digits] = counts.get(digits, 0) + 1
        for digits in heard.values():
            if len(digits) == _PHONE_DIGITS - 1:
                for option in counts:
                    counts[option] += _within(digits, option)
        most = max(counts.values(), default=0)
        top = [option for option, count in counts.items() if count == most]
        if most < 2 or len(top) != 1:
            return None
        value = f"{top[0][:3]}-{top[0][3:6]}-{top[0][6:]}"
        key = self._key(value)
        return None if key in self.rejected else Candidate(key, value, float(most), True)

    def _form(self, key: str, value: Any) -> Any:
        """A plain reading's form of the same words when there is one (its capitals: a
        spelling comes in capitals), not one that only has the same letters ("in voice"
        for "invoice")."""
        for reading in self.readings:
            plain = reading.value
            if (
                reading.how == "plain"
                and plain is not None
                and _words(plain) == _words(value)
                and well_formed(self.target, plain)
            ):
                return plain
        return value

    def best(self) -> Any:
        """The best value heard: the best candidate, else any reading at all."""
        ranked = self.ranked()
        if ranked:
            return ranked[0].value
        for reading in reversed(self.readings):
            if reading.value is not None and self._key(reading.value) not in self.rejected:
                return reading.value
        return None

    def agreed(self) -> Candidate | None:
        """The best value if two different readings gave it."""
        ranked = self.ranked()
        return ranked[0] if ranked and ranked[0].support >= 2 else None

    def proposal(self) -> Candidate | None:
        """The value to read back now, if one is ready: the best candidate; for a name, a
        code or an email a whole spelling of it, and for other words a spelling once the
        plain words were corrected (whisper mishears them again the same way), until
        the repairs ran out; a number, a date, a choice once it was heard again; never
        one read back twice already."""
        careful = self.target.ear in SPELLED_EARS or (
            bool(self.rejected) and self.target.ear in AGREED_EARS
        )
        if self.target.ear not in AGREED_EARS and self.repairs == 0 and not self.long_number:
            return None  # an unsure number, date, choice: heard again first
        for candidate in self.ranked():
            if self.proposed.count(candidate.key) >= MAX_PROPOSALS:
                continue
            if (
                self.repairs < MAX_REPAIRS
                and careful
                and not (candidate.spelled and candidate.whole)
            ):
                return None  # spell it (again) first
            return candidate
        return None


_Row = tuple[list[str], list[Any], bool]
"""A list heard: its items' keys, its items, whether it was spelled."""


def _vote(rows: list[_Row], place: int) -> tuple[Any, float]:
    """The item at `place` most rows have, and how many. An item whose letters all come,
    in order, in the item of a row of the other kind (spelled or plain: "surve" spelled
    in "survey" heard, "sign contract" heard in "signed contract" spelled) counts for
    that one: a spelling loses letters and whisper drops word endings, neither adds
    them."""
    votes: dict[str, list[Any]] = {}
    kinds: dict[str, set[bool]] = {}
    for items, value, careful in rows:
        votes.setdefault(items[place], []).append(value[place])
        kinds.setdefault(items[place], set()).add(careful)

    def under(short: str, long: str) -> bool:
        return _within(short, long) and kinds[short] != kinds[long]

    support = {k: sum(len(votes[o]) for o in votes if o == k or under(o, k)) for k in votes}
    kept = [k for k in votes if not any(under(k, o) for o in votes)]
    key = max(kept, key=lambda k: support[k])
    return votes[key][0], float(support[key])


def _within(short: str, long: str) -> bool:
    """Whether `short`'s letters all come, in order, in the longer `long`."""
    if len(short) >= len(long):
        return False
    rest = iter(long)
    return all(char in rest for char in short)


def _words(value: Any) -> str:
    items = value if isinstance(value, list) else [value]
    return "|".join(" ".join(str(v).casefold().split()) for v in items)
