"""Careful listening: each caller value heard, its readings, the repairs it needs, and
when it is read back to the caller.

Every value the caller gives (a fact of an answer, a correction, an event, the
opening) gets an `Ear` with one reading per time it was heard: `plain` (as said),
`spelled` / `phonetic` (after "could you spell ...?"), `digits` (after "one digit at
a time") or `repeat`. Each reading is read alone (`agents/_notes/reading.py`): a value is always one
somebody said, never letters voted together from several readings.

On the text channel a well-formed reading settles the value. In audio:

- the caller's answer to a read-back is the truth about the value read back: "yes"
  settles it for good (it is never asked again), a correction rejects it for good.
  The caller corrects a slot at most `MAX_FIXES` times (docs/simulator.md); after that
  its "yes" says nothing, so no value is read back for confirmation any more;
- names, codes and emails (and words no shape checks: free text, addresses, lists)
  are spelled, and the best spelling is read back (`Ears.to_check`); whisper tiny.en
  mishears them more than anything else (docs/agents.md). Plain readings of them stand
  in only when no spelling was heard;
- any other value settles at once when it reads as its type and the ASR was sure
  (`LOW_LOGPROB`, `HIGH_NO_SPEECH`); else it is repaired, and settles when two
  readings of different audio agree, or is read back (a number's digit-by-digit
  reading first);
- with no read-back left, a value settles when two readings of different audio agree
  (the same words heard twice are one reading: the same audio is misheard the same
  way), or once its repairs reach `MAX_REPAIRS`, on its best reading.

The best reading (`Ear.ranked`): the value most different readings agree on,
spellings and digits before plain words, the clearest spelling (`alphabet.clarity`),
the later. A record id that finds no record is rejected: the next best reading is
tried, else the value is listened to again.

Repairs vary (`LADDERS`): a caller asked the same way says the same words, which the
ASR mishears the same way. A spelling, then in phonetic words or, for a code, one
character at a time, then a spelling again (its lead-in differs: new audio).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from duplexbench.agents._notes.alphabet import clarity, is_phonetic, looped, mark_lost
from duplexbench.agents._notes.kinds import SPELLED_EARS, Target
from duplexbench.agents._notes.reading import (
    ambiguous,
    canonical,
    read_plain,
    read_spelling,
    well_formed,
)
from duplexbench.speech import Transcript

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
LOW_LOGPROB = -0.8
"""A transcript whose least sure segment has a lower mean token log-probability is
not trusted. Whisper calls -1.0 low; the short answers of workflows-mini that whisper
tiny.en got wrong in clean audio mostly scored between -1.0 and -0.8, the right ones
above (a false alarm costs one repair turn)."""
HIGH_NO_SPEECH = 0.6
"""A transcript with a segment more likely than this to hold no speech is not trusted
(whisper's threshold)."""
LADDERS: dict[str, tuple[Repair, ...]] = {
    "name": ("spelled", "phonetic", "spelled", "digits", "repeat"),
    "names": ("spelled", "phonetic", "spelled", "repeat", "spelled"),
    "email": ("spelled", "phonetic", "spelled", "spelled", "phonetic"),
    "code": ("spelled", "digits", "phonetic", "spelled", "repeat"),
    "enum": ("spelled", "repeat", "phonetic", "spelled", "repeat"),
    "text": ("spelled", "phonetic", "spelled", "repeat", "spelled"),
    "address": ("spelled", "phonetic", "spelled", "repeat", "spelled"),
    "list": ("spelled", "phonetic", "spelled", "repeat", "spelled"),
    "number": ("digits", "repeat", "digits", "repeat", "digits"),
    "integer": ("digits", "repeat", "digits", "repeat", "digits"),
    "phone": ("digits", "spelled", "repeat", "digits", "spelled"),
}
"""The repairs asked, in order, by ear; the others are said again. Each asks for other
words than the one before (module docstring). Never "slow down": the caller would speak
slower for the rest of the call, and whisper tiny.en drops more words of a slow
spelling (workflows-mini: "Ocean. Frank. India." for "Sam, Ocean, Frank, India"). A
phone spelled is said a character at a time, not in groups: other audio than its digits
(workflows-v2 procurement-10: "5 5 5, 9 7 7, 9 0 4 0." heard as "555-9777-9040" every
time)."""
_DEFAULT_LADDER: tuple[Repair, ...] = ("repeat", "spelled", "repeat", "phonetic", "repeat")


def confident(transcript: Transcript | None) -> bool:
    """Whether the ASR was sure enough (text, or no confidence reported: yes)."""
    if transcript is None or not transcript.segments:
        return True
    low = transcript.min_logprob
    silent = transcript.max_no_speech_prob
    return not (
        (low is not None and low < LOW_LOGPROB) or (silent is not None and silent > HIGH_NO_SPEECH)
    )


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


_INITIAL_DOT = re.compile(r"^([a-z])\.[a-z]")


class Ears:
    """The listener's ears for one episode: a value per fact heard, and repairs."""

    def __init__(self, audio: bool, year: int = 2026) -> None:
        self.audio, self.year = audio, year
        self.ears: dict[str, Ear] = {}
        self.fixes: dict[str, int] = {}
        """Slot -> corrections the caller made to values read back or stated."""

    def hear(
        self,
        fact: str,
        target: Target,
        text: str,
        *,
        how: How,
        transcript: Transcript | None,
        words: list[str],
        named_only: bool = False,
        slot: str = "",
    ) -> Ear:
        """Add one reading of `fact` from `text`; `named_only` (the opening, which may
        mention a value in passing): read it only where it is named, else ask for it."""
        ear = self.ears.get(fact)
        if ear is None:
            ear = self.ears[fact] = Ear(fact, target, slot or fact)
        if ear.checked:
            return ear  # the caller confirmed it: nothing heard later changes it
        sure, whole = confident(transcript), True
        if how in ("plain", "repeat"):
            value = read_plain(target, text, self.year, words, named_only)
            text = text if value is not None or not named_only else ""
            sure = sure and not ambiguous(target, text)
        else:
            value = read_spelling(target, text, self.year)
            if how == "spelled" and is_phonetic(text):
                how = "phonetic"
            value = self._dotted(ear, value)
            whole = not mark_lost(text) and not self._short(ear, value)
        if looped(text):
            value = None  # whisper wrote the same words over and over
        ear.readings.append(Reading(how, text, value, sure, whole))
        if not ear.readings[-1].careful and ear.target.ear == "email":
            ear.readings = [  # an initial's dot heard after its spelling
                replace(r, value=self._dotted(ear, r.value)) if r.careful else r
                for r in ear.readings
            ]
        self._settle(ear)
        return ear

    @staticmethod
    def _short(ear: Ear, value: Any) -> bool:
        """A spelling of a name or an email much shorter than the plain words heard
        (whisper drops the words of a spelling it misses: "George.apple. David." for
        g.adeyemi)."""
        if value is None or ear.target.ear not in ("name", "email"):
            return False
        plain = [
            len(canonical(ear.target, r.value))
            for r in ear.readings
            if not r.careful and r.value is not None and well_formed(ear.target, r.value)
        ]
        return bool(plain) and len(canonical(ear.target, value)) < SHORT * min(plain)

    @staticmethod
    def _dotted(ear: Ear, value: Any) -> Any:
        """An email spelled with its dots elsewhere than after the initial the plain words
        had it after ("g.adamie at example.com", spelled "George. Apple. David. ..." or
        "Golf.Alpha.Delta"): whisper writes the spoken "dot" between two letters as a full
        stop, and its full stops between letters as dots."""
        if ear.target.ear != "email" or not isinstance(value, str) or "@" not in value:
            return value
        name, _, domain = value.partition("@")
        initials = {
            m.group(1)
            for r in ear.readings
            if not r.careful and isinstance(r.value, str)
            if (m := _INITIAL_DOT.match(r.value)) is not None
        }
        bare = name.replace(".", "")
        if len(bare) < 3 or bare[0] not in initials or name == f"{bare[0]}.{bare[1:]}":
            return value
        return f"{bare[0]}.{bare[1:]}@{domain}"

    def checks_left(self, ear: Ear) -> bool:
        """Whether the caller still tells a wrong value read back from a right one."""
        return self.audio and self.fixes.get(ear.slot, 0) < MAX_FIXES

    def _settle(self, ear: Ear) -> None:
        ear.value = ear.best()
        if ear.checked:
            ear.settled = True
            return
        last = ear.readings[-1]
        at_once = (
            last.value is not None
            and last.sure
            and well_formed(ear.target, last.value)
            and self._key(ear, last.value) not in ear.rejected
        )
        if not self.audio:  # the words themselves: a well-formed value is the value
            ear.settled = at_once or ear.repairs >= MAX_REPAIRS
            ear.value = last.value if at_once else ear.value
            return
        if ear.target.ear not in AGREED_EARS and not ear.doubtful:
            if at_once and len(ear.readings) == 1 and not ear.long_number:
                ear.settled, ear.value = True, last.value
                return
            ear.doubtful = True
        agreed = ear.agreed()
        if agreed is not None and not (self.checks_left(ear) and ear.target.ear in AGREED_EARS):
            ear.settled, ear.value = True, agreed.value
        else:
            ear.settled = ear.repairs >= MAX_REPAIRS and not self.to_check(ear.fact)

    @staticmethod
    def _key(ear: Ear, value: Any) -> str:
        return canonical(ear.target, value)

    def confirmed(self, fact: str) -> None:
        """The caller said "yes" to the value read back: it is right (while the caller
        still corrects wrong ones)."""
        ear = self.ears.get(fact)
        if ear is None or not ear.proposed:
            return
        if self.checks_left(ear) or not self.audio:
            key = ear.proposed[-1]
            value = next((c.value for c in ear.ranked() if c.key == key), ear.value)
            ear.checked, ear.settled, ear.value = True, True, value

    def give_up(self, fact: str) -> None:
        """The caller could not repair it ("I haven't given you that"): go on."""
        ear = self.ears.get(fact)
        if ear is not None and not ear.settled:
            ear.settled, ear.value = True, ear.best()

    def reject(self, fact: str) -> None:
        """The caller said the value stated was wrong: never settle on it again."""
        ear = self.ears.get(fact)
        if ear is None:
            return
        self.fixes[ear.slot] = self.fixes.get(ear.slot, 0) + 1
        if ear.value is not None:  # what was stated: the value read back, or written
            ear.rejected.add(self._key(ear, ear.value))
        ear.checked = ear.settled = False
        ear.doubtful = True
        ear.value = ear.best()

    def propose(self, fact: str) -> Any:
        """The value to read back for `fact` now (counted), or None."""
        ear = self.ears.get(fact)
        candidate = ear.proposal() if ear is not None else None
        if ear is None or candidate is None:
            return None
        ear.proposed.append(candidate.key)
        ear.value = candidate.value
        return candidate.value

    def doubt(self, fact: str) -> Any:
        """The value proved wrong (no record has that id): the next best reading, if any
        (settled on it); else None, and the value is listened to again if repairs are
        left."""
        ear = self.ears.get(fact)
        if ear is None or ear.value is None:
            return None
        ear.rejected.add(self._key(ear, ear.value))
        ear.checked = False
        ranked = ear.ranked()
        if ranked:
            ear.settled, ear.value = True, ranked[0].value
            return ranked[0].value
        ear.settled = ear.repairs >= MAX_REPAIRS
        ear.value = None
        return None

    def next_repair(self, fact: str) -> Repair | None:
        """The repair to ask for `fact` now (and count it), or None if it is settled or
        a value is ready to be read back."""
        ear = self.ears.get(fact)
        if ear is None or ear.settled or self.to_check(fact):
            return None
        if ear.repairs >= MAX_REPAIRS:
            ear.settled, ear.value = True, ear.best()
            return None
        if not any(r.text for r in ear.readings) and "ask" not in ear.asked:
            ear.asked.append("ask")  # mentioned in passing, not found: ask for it
            return "ask"
        ladder = LADDERS.get(ear.target.ear, _DEFAULT_LADDER)
        repair: Repair = ladder[min(ear.repairs, len(ladder) - 1)]
        ear.asked.append(repair)
        return repair

    def to_check(self, fact: str) -> bool:
        """Whether a value of `fact` is to be read back to the caller now: in audio, a
        spelled (or doubtful) value not yet confirmed, while the caller still corrects."""
        ear = self.ears.get(fact)
        if ear is None or ear.checked or not self.audio or not self.checks_left(ear):
            return False
        if ear.settled and ear.target.ear not in AGREED_EARS and not ear.doubtful:
            return False  # settled at once: sure and well formed
        if ear.target.ear not in AGREED_EARS and ear.agreed() is not None:
            return False  # two readings agree on a number, a date
        return ear.proposal() is not None

    def unsettled(self) -> list[str]:
        """Facts that need a repair now (not settled, nothing to read back)."""
        return [f for f, ear in self.ears.items() if not ear.settled and not self.to_check(f)]

    def value(self, fact: str) -> Any:
        ear = self.ears.get(fact)
        return None if ear is None else ear.value

    def repairs(self, fact: str) -> int:
        ear = self.ears.get(fact)
        return 0 if ear is None else ear.repairs


def repair_request(kind: Repair, words: str) -> str:
    """The words of a repair request for the field named `words`."""
    if kind == "spelled":
        return f"Could you spell the {words} for me?"
    if kind == "phonetic":
        return f"Could you spell the {words} using words, like A as in alpha?"
    if kind == "digits":
        return f"Could you read the {words} one digit at a time?"
    if kind == "ask":
        return f"What is the {words}?"
    return f"Sorry, could you repeat the {words}?"
