"""What the listener says: each act of the outline in plain words, with the values it
heard, and its repair requests.

A slot is named by its own words ("the legal name", "the account number"), which the
observer's rules layer reads at once; a request for the go-ahead names the action by
the phrase the item gives it ("update the account"), else by the tool's name.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from duplexbench.agents._listener.ears import Repair
from duplexbench.agents._notes.understand import spoken

CLOSE = "Thank you for your time. Goodbye!"
GOT_IT = "Got it."
GIVE_UP = "I am sorry, I cannot complete this on this call. Goodbye!"
WHY = "It goes on the record, thank you."
SENT_REQUEST = "I have sent you a formal approval request."
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


def words_of(name: str) -> str:
    return name.replace("_", " ").strip()


def say_value(value: Any) -> str:
    """A value as the listener says it: a date in words, a list joined by "and", no
    comma inside a value (the caller reads a value up to the next comma)."""
    if isinstance(value, str):
        match = _ISO.match(value)
        if match:
            try:
                day = dt.date(int(match[1]), int(match[2]), int(match[3]))
            except ValueError:
                return value
            return f"{day:%B} {day.day}, {day.year}"
        return value.replace(", ", " ")  # a comma would end the value for the caller
    if isinstance(value, list):
        return " and ".join(str(v) for v in value)
    return spoken(value)


def question(words: str) -> str:
    return f"What is the {words}?"


def clarified(words: str, description: str) -> str:
    """Asked again after "which one do you mean?": by name and description."""
    described = description.split(" One of:", maxsplit=1)[0].strip().rstrip(".")
    about = f", that is, {described[:1].lower()}{described[1:]}" if described else ""
    return f"I mean the {words}{about}. What is the {words}?"


def confirm(words: str, value: Any) -> str:
    return f"Just to confirm, the {words} is {say_value(value)}?"


def changed(words: str, value: Any) -> str:
    return f"I have changed the {words} to {say_value(value)}."


def readback(pairs: list[tuple[str, Any]]) -> str:
    listed = "; ".join(f"the {words} is {say_value(value)}" for words, value in pairs)
    return f"Let me read back the key details: {listed}."


def request(action: str) -> str:
    return f"Shall I {action} now?"


def repair(kind: Repair, words: str) -> str:
    if kind == "ask":
        return question(words)
    if kind == "spelled":
        return f"Could you spell the {words} for me?"
    if kind == "phonetic":
        return f"Could you spell the {words} using words, like A as in alpha?"
    if kind == "digits":
        return f"Could you read the {words} one digit at a time?"
    return f"Sorry, could you repeat the {words}?"
