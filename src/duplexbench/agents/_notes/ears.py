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
from dataclasses import replace
from typing import Any

from duplexbench.agents._notes.alphabet import is_phonetic, looped, mark_lost
from duplexbench.agents._notes.ear import (
    AGREED_EARS,
    MAX_FIXES,
    MAX_PROPOSALS,
    MAX_REPAIRS,
    READ_BACK_DIGITS,
    SHORT,
    SPELLED_HOW,
    Candidate,
    Ear,
    How,
    Reading,
    Repair,
)
from duplexbench.agents._notes.kinds import Target
from duplexbench.agents._notes.reading import (
    ambiguous,
    canonical,
    read_plain,
    read_spelling,
    well_formed,
)
from duplexbench.speech import Transcript

__all__ = [
    "AGREED_EARS",
    "HIGH_NO_SPEECH",
    "LADDERS",
    "LOW_LOGPROB",
    "MAX_FIXES",
    "MAX_PROPOSALS",
    "MAX_REPAIRS",
    "READ_BACK_DIGITS",
    "SPELLED_HOW",
    "Candidate",
    "Ear",
    "Ears",
    "How",
    "Reading",
    "Repair",
    "confident",
    "repair_request",
]

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
