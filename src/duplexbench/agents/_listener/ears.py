"""Careful listening: each caller value heard, its readings, and the repairs it needs.

Every value the caller gives (a fact of an answer, a correction, an event, the
opening) gets an `Ear` with one reading per time it was heard: `plain` (as said),
`spelled` / `phonetic` (after "could you spell ...?"), `digits` (after "one digit at
a time") or `repeat`. A value is settled when

- two readings agree (letters and digits, case-folded), or
- one reading is well formed and sure, and the field does not need spelling: on the
  text channel every field; in audio every field but names, codes and emails, which
  are always spelled until two readings agree (whisper mishears them more than
  anything else: docs/agents.md), and "sure" means the ASR's confidence is not low
  (`LOW_LOGPROB`, `HIGH_NO_SPEECH`);
- or its repairs reached `MAX_REPAIRS`: then the best reading stands (of the
  well-formed ones, the one closest to all the others: `Ear.ranked`).

A record id that finds no record is rejected: the next best reading is tried, else
the value is listened to again.

Otherwise the next repair is, by the field's ear: a spelling, then phonetic words
(names, codes, emails, choices, free text); the digits one at a time (numbers,
phones); a repetition (dates, lists, intervals, addresses).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from duplexbench.agents._listener.alphabet import consensus, is_phonetic, similarity
from duplexbench.agents._listener.fields import SPELLED_EARS, Target
from duplexbench.agents._listener.reading import (
    canonical,
    from_spelling,
    read_plain,
    read_spelling,
    spelling_form,
    well_formed,
)
from duplexbench.speech import Transcript

How = Literal["plain", "spelled", "phonetic", "digits", "repeat"]
Repair = Literal["ask", "spelled", "phonetic", "digits", "repeat"]
MAX_REPAIRS = 3
"""Repairs asked per value before the listener goes on with its best reading."""
SPELLED_HOW = ("spelled", "phonetic", "digits")
AGREED_EARS = (*SPELLED_EARS, "text", "address", "list")
"""Ears whose values, in audio, are settled only on a full spelling or two readings that
agree: names, codes and emails (spelled), and words no shape can check (free text,
addresses, lists), which the ASR gets wrong as readily ("clared cash")."""
_SHAPED = re.compile(r"e\.g\.\s*[A-Z]")
_NEAR = 0.75
_VOTED = 0.9
"""How close the letter-by-letter vote must stay to the reading it is built on."""
"""How close the plain words must be to a spelling to stay among a name's readings."""
LOW_LOGPROB = -0.8
"""A transcript whose least sure segment has a lower mean token log-probability is
not trusted. Whisper calls -1.0 low; the short answers of workflows-mini that whisper
tiny.en got wrong in clean audio mostly scored between -1.0 and -0.8, the right ones
above (a false alarm costs one repair turn)."""
HIGH_NO_SPEECH = 0.6
"""A transcript with a segment more likely than this to hold no speech is not trusted
(whisper's threshold)."""
LADDERS: dict[str, tuple[Repair, ...]] = {
    "name": ("spelled", "repeat", "phonetic"),
    "names": ("spelled", "repeat", "phonetic"),
    "code": ("spelled", "digits", "phonetic"),
    "email": ("spelled", "repeat", "phonetic"),
    "enum": ("spelled", "repeat", "phonetic"),
    "text": ("repeat", "spelled", "phonetic"),
    "address": ("repeat", "spelled", "phonetic"),
    "list": ("repeat", "repeat", "spelled"),
    "number": ("digits", "repeat", "digits"),
    "integer": ("digits", "repeat", "digits"),
    "phone": ("digits", "repeat", "digits"),
}
"""The repairs asked, in order, by ear; the others are said again. Each asks for other
words than the one before: a caller asked the same way says the same words, and the
same audio is misheard the same way."""


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


@dataclass
class Ear:
    """One caller value (a fact version) under listening."""

    fact: str
    target: Target
    readings: list[Reading] = field(default_factory=list)
    asked: list[Repair] = field(default_factory=list)
    settled: bool = False
    value: Any = None
    rejected: set[str] = field(default_factory=set)
    """Values proved wrong (no record has that id, the caller corrected it)."""
    checked: bool = False
    """The caller confirmed the value read back to it, or a record was found by it."""

    @property
    def repairs(self) -> int:
        """Repairs asked (asking again for a value never found is none)."""
        return len([a for a in self.asked if a != "ask"])

    def _key(self, reading: Reading) -> str:
        return canonical(self.target, reading.value)

    def candidates(self) -> list[Reading]:
        """Readings with a value not proved wrong, well-formed ones if there are any."""
        read = [
            r for r in self.readings if r.value is not None and self._key(r) not in self.rejected
        ]
        good = [r for r in read if well_formed(self.target, r.value)]
        return good or read

    def ranked(self) -> list[Any]:
        """Distinct candidate values, best first: what most readings agree on letter by
        letter (`reading.consensus`, from three readings on), then the reading closest to
        all the others (one misheard letter is outvoted), spelled ones before plain ones,
        later before earlier."""
        pool = self._trusted(self.candidates())
        keys = [self._key(r) for r in pool]

        def rank(i: int) -> tuple[float, bool, int]:
            close = sum(similarity(keys[i], k) for j, k in enumerate(keys) if j != i)
            return (close, pool[i].how != "plain", i)

        out: dict[str, Any] = {}
        voted = self._voted(pool)
        if voted is not None:
            out[canonical(self.target, voted)] = voted
        for i in sorted(range(len(pool)), key=rank, reverse=True):
            out.setdefault(keys[i], self._form(keys[i], pool[i].value))
        return list(out.values())

    def _trusted(self, pool: list[Reading]) -> list[Reading]:
        """For a spelled field, its spellings (the plain words only if there are none, or
        close to one), without a spelling of letters that another holds in order plus
        some (the ASR drops words of a spelling more often than it adds any; not for
        codes, whose digits it does repeat); for a number, its digit by digit readings."""
        spelled = [r for r in pool if r.how in SPELLED_HOW]
        if self.target.ear in ("number", "integer", "phone") and spelled:
            digits = {self._key(r) for r in spelled}  # digit by digit beats "$809,70"
            return [r for r in pool if r.how in SPELLED_HOW or self._key(r) in digits]
        if self.target.ear not in SPELLED_EARS or not spelled:
            return pool
        if self.target.ear == "code":
            return spelled
        keys = [self._key(r) for r in spelled]
        whole = [
            r
            for r, key in zip(spelled, keys, strict=True)
            if not any(len(o) > len(key) and _holds_in_order(o, key) for o in keys)
        ]
        near = [  # the plain words, when they are close to a spelling
            r
            for r in pool
            if r.how == "plain" and any(similarity(self._key(r), k) >= _NEAR for k in keys)
        ]
        return near + whole

    def _voted(self, pool: list[Reading]) -> Any:
        """The letter-by-letter consensus of the readings, as a value of the field. Equal
        readings vote once: the caller asked again says the same words, which the ASR
        mishears the same way, so they are no second opinion."""
        forms = [spelling_form(self.target, r.value) for r in pool]
        if not all(isinstance(f, str) for f in forms):
            return None
        distinct = list(dict.fromkeys(str(f) for f in forms))
        if len(distinct) < 3:
            return None
        said = consensus(distinct)
        spine = max(distinct, key=lambda r: sum(similarity(r, o) for o in distinct))
        if abs(len(said) - len(spine)) > 1 or similarity(said, spine) < _VOTED:
            return None  # the readings disagree too much to vote letter by letter
        voted = from_spelling(self.target, said)
        return voted if well_formed(self.target, voted) else None

    def _form(self, key: str, value: Any) -> Any:
        """A plain reading's form of the same value when there is one (its capitals)."""
        for reading in self.readings:
            if reading.how == "plain" and reading.value is not None and self._key(reading) == key:
                return reading.value if well_formed(self.target, reading.value) else value
        return value

    def best(self) -> Any:
        ranked = self.ranked()
        return ranked[0] if ranked else None

    def complete_spelling(self) -> Any:
        """The latest sure spelling that lost no letter: as long as the plain words heard
        (less one), or shaped like the field's example (a whisper spelling drops the
        words it misses, so a short one is incomplete; two plain hearings of a rare name
        agree on the same mistake, so they do not outweigh it)."""
        plain = [r for r in self.readings if r.how in ("plain", "repeat") and r.value is not None]
        longest = max((len(self._key(r)) for r in plain), default=0)
        for reading in reversed(self.candidates()):
            if reading.how not in SPELLED_HOW or not reading.sure:
                continue
            if self.target.ear == "code" and _SHAPED.search(self.target.info.description):
                return reading.value  # candidates are well formed: the example's shape
            if len(self._key(reading)) >= longest - 1:
                return self._form(self._key(reading), reading.value)
        return None

    def agreed(self) -> Any:
        """A value two readings agree on, or None."""
        seen: dict[str, Reading] = {}
        for reading in self.candidates():
            key = self._key(reading)
            if key in seen:
                return self._form(key, reading.value)
            seen[key] = reading
        return None


def _holds_in_order(longer: str, shorter: str) -> bool:
    """Whether `shorter` is `longer` with some characters left out."""
    letters = iter(longer)
    return all(c in letters for c in shorter)


class Ears:
    """The listener's ears for one episode: a value per fact heard, and repairs."""

    def __init__(self, audio: bool, year: int = 2026) -> None:
        self.audio, self.year = audio, year
        self.ears: dict[str, Ear] = {}

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
    ) -> Ear:
        """Add one reading of `fact` from `text`; `named_only` (the opening, which may
        mention a value in passing): read it only where it is named, else ask for it."""
        ear = self.ears.get(fact)
        if ear is None or (how == "plain" and ear.settled):
            rejected = set() if ear is None else ear.rejected
            ear = self.ears[fact] = Ear(fact, target, rejected=rejected)  # told afresh
        if how in ("plain", "repeat"):
            value = read_plain(target, text, self.year, words, named_only)
            text = text if value is not None or not named_only else ""
        else:
            value = read_spelling(target, text, self.year)
            how = "phonetic" if how == "spelled" and is_phonetic(text) else how
        ear.readings.append(Reading(how, text, value, confident(transcript)))
        self._settle(ear)
        return ear

    def _settle(self, ear: Ear) -> None:
        last = ear.readings[-1]
        must_spell = self.audio and ear.target.ear in AGREED_EARS
        if must_spell:
            found = ear.complete_spelling()
            found = found if found is not None else ear.agreed()
        else:
            sure = last.value is not None and well_formed(ear.target, last.value) and last.sure
            found = ear.agreed() if ear.agreed() is not None or not sure else last.value
        if found is not None:
            ear.settled, ear.value = True, found
        elif ear.repairs >= MAX_REPAIRS:
            ear.settled, ear.value = True, ear.best()
        else:
            ear.value = ear.best()

    def give_up(self, fact: str) -> None:
        """The caller could not repair it ("I haven't given you that"): go on."""
        ear = self.ears.get(fact)
        if ear is not None and not ear.settled:
            ear.settled, ear.value = True, ear.best()

    def reject(self, fact: str) -> None:
        """The caller said the value read back was wrong: never settle on it again."""
        ear = self.ears.get(fact)
        if ear is not None and ear.value is not None:
            ear.rejected.add(canonical(ear.target, ear.value))

    def doubt(self, fact: str) -> Any:
        """The value proved wrong (no record has that id): the next best reading, if any
        (settled on it); else None, and the value is listened to again if repairs are
        left."""
        ear = self.ears.get(fact)
        if ear is None or ear.value is None:
            return None
        ear.rejected.add(canonical(ear.target, ear.value))
        ranked = ear.ranked()
        if ranked:
            ear.settled, ear.value = True, ranked[0]
            return ranked[0]
        ear.settled = ear.repairs >= MAX_REPAIRS
        ear.value = None
        return None

    def next_repair(self, fact: str) -> Repair | None:
        """The repair to ask for `fact` now (and count it), or None if it is settled."""
        ear = self.ears.get(fact)
        if ear is None or ear.settled:
            return None
        if ear.repairs >= MAX_REPAIRS:
            ear.settled, ear.value = True, ear.best()
            return None
        if not any(r.text for r in ear.readings) and "ask" not in ear.asked:
            ear.asked.append("ask")  # mentioned in passing, not found: ask for it
            return "ask"
        ladder = LADDERS.get(ear.target.ear, ("repeat", "repeat", "repeat"))
        repair: Repair = ladder[min(ear.repairs, len(ladder) - 1)]
        ear.asked.append(repair)
        return repair

    def to_check(self, fact: str) -> bool:
        """In audio, a value settled by the ears alone (a name, a code, an email, words no
        shape checks) is read back to the caller before the listener relies on it."""
        ear = self.ears.get(fact)
        return (
            self.audio
            and ear is not None
            and ear.settled
            and not ear.checked
            and ear.value is not None
            and ear.target.ear in AGREED_EARS
        )

    def unsettled(self) -> list[str]:
        return [f for f, ear in self.ears.items() if not ear.settled]

    def value(self, fact: str) -> Any:
        ear = self.ears.get(fact)
        return None if ear is None else ear.value

    def repairs(self, fact: str) -> int:
        ear = self.ears.get(fact)
        return 0 if ear is None else ear.repairs
