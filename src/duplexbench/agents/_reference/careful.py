"""Careful listening in audio (reference agent version 4): the ears it shares with the
listener (`agents/_notes/ears.py`), without the listener's plan.

An answer to a field's question is one reading of that field. A name, a code, an email,
a list or free words, a number of four digits or more, or anything the ASR was unsure
of is not written at once: the agent asks for a spelling, the digits or a repetition,
and reads the best reading back ("Just to confirm, the client name is Yuki Adeyemi?");
the caller's "yes" settles it, a correction rejects it. Repairs stop at the ears' cap
(`MAX_REPAIRS`), and then the best reading is written. The text channel never gets
here: there the words are the value.
"""

from __future__ import annotations

from typing import Any

from duplexbench.agents._notes.ears import Ears, How, Repair, repair_request
from duplexbench.agents._notes.kinds import Target, ear_of
from duplexbench.agents._notes.reading import read_spelling
from duplexbench.agents._notes.schema import FieldInfo
from duplexbench.agents._notes.understand import is_correction, is_no, is_yes, say_value
from duplexbench.speech import Transcript

HELD_WORDS = 4
"""The most words of an answer to a spelling request that read as nothing and are held
as the start of a spelling the cascade cut at a pause ("Of course."): the agent waits
for the rest, once."""
HOLD = object()
"""What `hear` returns while it holds the start of a spelling: say nothing, wait."""
_SPELLING: tuple[How, ...] = ("spelled", "phonetic", "digits")
_HOW: dict[Repair, How] = {
    "spelled": "spelled",
    "phonetic": "phonetic",
    "digits": "digits",
    "repeat": "repeat",
    "ask": "plain",
}


class Careful:
    """The reference agent's ears for one episode in audio."""

    def __init__(self, year: int) -> None:
        self.ears = Ears(audio=True, year=year)
        self.how: How = "plain"
        self.checking: str | None = None
        """The field whose value was read back last, awaiting "yes" or a correction."""
        self.held = ""
        """The start of a spelling the cascade cut at a pause, joined with what comes."""

    def listening(self, name: str) -> bool:
        """Whether the field is being repaired or checked (its answer is a reading)."""
        ear = self.ears.ears.get(name)
        return ear is not None and not ear.settled

    def hear(
        self,
        info: FieldInfo,
        text: str,
        transcript: Transcript | None,
        path: tuple[str, ...] = (),
    ) -> Any:
        """One answer about the field: the value to write once it is settled, else None
        (`question` says what to ask next); `path` ("id",): a record id."""
        name = info.name
        if self.checking == name:
            self.checking = None
            if is_yes(text) and not is_correction(text):
                self.ears.confirmed(name)
                return self.ears.value(name)
            if is_correction(text) or is_no(text):
                self.ears.reject(name)
        target = Target("", path or ("fields", name), info, "code" if path else ear_of(info))
        if self.held:
            text, self.held = f"{self.held} {text}", ""
        elif (
            self.how in _SPELLING
            and len(text.split()) <= HELD_WORDS
            and read_spelling(target, text, self.ears.year) is None
        ):
            self.held = text
            return HOLD
        ear = self.ears.hear(
            name, target, text, how=self.how, transcript=transcript, words=[info.words], slot=name
        )
        self.how = "plain"
        return ear.value if ear.settled else None

    def question(self, info: FieldInfo) -> str | None:
        """The read-back or repair to ask about the field now; None when it settled (its
        repairs ran out: `value` is the best reading)."""
        name = info.name
        if self.ears.to_check(name):
            value = self.ears.propose(name)
            if value is not None:
                self.checking = name
                return f"Just to confirm, the {info.words} is {say_value(value)}?"
        kind = self.ears.next_repair(name)
        if kind is None:
            return None
        self.how = _HOW[kind]
        return repair_request(kind, info.words)

    def value(self, name: str) -> Any:
        return self.ears.value(name)

    def give_up(self, name: str) -> None:
        self.ears.give_up(name)
