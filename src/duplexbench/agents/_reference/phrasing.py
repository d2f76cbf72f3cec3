"""How the reference agent words its questions, confirmations and read-backs.

`names` (default) says the field's name ("What is the contact person?");
`paraphrase` never does: it phrases each question from the field's
description and its value kind, with varied templates ("Could you tell me
the name of the main contact person at the vendor?", "And who is ...?",
"I'll need ..."), confirms and reads back by description too, and asks for
the go-ahead without the tool's name. The two differ only in words, so the
difference between their scores measures how much the simulated caller
depends on hearing field names (docs/simulator.md, robustness).
"""

from __future__ import annotations

import re
from typing import Literal

from duplexbench.agents._notes.schema import FieldInfo
from duplexbench.agents._reference.records import QUESTION

PhrasingName = Literal["names", "paraphrase"]
PHRASINGS: tuple[PhrasingName, ...] = ("names", "paraphrase")

_ONE_OF = re.compile(r"\s*One of: .*$")
_EXAMPLE = re.compile(r",?\s*e\.g\.\s*\S+\s*$")
_ASK = (
    "Could you tell me the {d}?",
    "What's the {d}?",
    "I'll need the {d}.",
    "And the {d}, please?",
    "Can you give me the {d}?",
    "Next, what is the {d}?",
)
_WH_WORDS = frozenset(["how", "what", "when", "where", "who", "whether", "which", "why"])
_WH = {
    "date": "And when is that, the {d}?",
    "phone": "What number should I use for the {d}?",
    "integer": "How many, for the {d}?",
}


def description_words(info: FieldInfo) -> str:
    """The field's description as a noun phrase ("Name of the main contact" ->
    "name of the main contact"); its name's words when it has none."""
    text = _EXAMPLE.sub("", _ONE_OF.sub("", info.description)).strip().rstrip(".")
    if not text:
        return info.words
    first, _, rest = text.partition(" ")
    return f"{first.lower() if not first.isupper() else first} {rest}".strip()


class Phrasing:
    """The words of the reference dialogue manager (`names` or `paraphrase`)."""

    def __init__(self, name: PhrasingName = "names") -> None:
        if name not in PHRASINGS:
            raise ValueError(f"unknown phrasing {name!r}: one of {', '.join(PHRASINGS)}")
        self.name = name

    @property
    def paraphrase(self) -> bool:
        return self.name == "paraphrase"

    def words(self, info: FieldInfo) -> str:
        return description_words(info) if self.paraphrase else info.words

    def question(self, info: FieldInfo, index: int) -> str:
        options = ""
        if info.kind == "enum" and info.choices:
            options = ", ".join(info.choices[:-1]) + f" or {info.choices[-1]}"
        if not self.paraphrase:
            if options:
                return f"Which {info.words} would you like: {options}?"
            return f"What is the {info.words}?"
        described = description_words(info)
        if described.split()[0] in _WH_WORDS:  # "how many days the buyer has to pay"
            text = f"Could you tell me {described}?"
        else:
            template = _WH.get(info.kind) if index % 3 == 2 else None
            text = (template or _ASK[index % len(_ASK)]).format(d=described)
        return f"{text} Is it {options}?" if options else text

    def record_question(self, noun: str = "") -> str:
        """The question for the caller's record: by the lookup tool's own word for it
        ("Look up a record by its account number." -> "What is your account number?")."""
        if self.paraphrase:
            return "To start, what number is your existing record filed under, so I can look it up?"
        return f"What is your {noun}?" if noun else QUESTION

    def confirm(self, info: FieldInfo, value: str) -> str:
        if self.paraphrase:
            return f"Let me make sure I have this right: {value} for the {self.words(info)}?"
        return f"Just to confirm, the {info.words} is {value}?"

    def found(self, info: FieldInfo | None, name: str, value: str) -> str:
        what = self.words(info) if info else name.replace("_", " ")
        return f"I found the {what}: {value}."

    def readback(
        self, pairs: list[tuple[FieldInfo | None, str, str]], action: str, changed: bool = False
    ) -> str:
        """`pairs`: (field, name, spoken value) of everything noted, or with `changed` of
        what changed since the last read-back (the rest was read back already)."""
        if not pairs:  # read back and confirmed already: only the question
            return "Would you like me to go ahead?" if self.paraphrase else f"Shall I {action} now?"
        if self.paraphrase:
            listed = "; ".join(value for _, _, value in pairs)
            lead = "I've updated that" if changed else "Let me read back what I've noted"
            return f"{lead}: {listed}. Would you like me to go ahead?"
        listed = ", ".join(f"{info.words if info else name} {value}" for info, name, value in pairs)
        lead = "Here is what changed" if changed else "Here is what I have"
        return f"{lead}: {listed}. Shall I {action} now?"
