"""What the listener says: each act of the outline in plain words, with the values it
heard, and its repair requests.

A slot is named by its own words ("the legal name", "the account number"), which the
observer's rules layer reads at once; a request for the go-ahead names the action by
the phrase the item gives it ("update the account"), else by the tool's name.
"""

from __future__ import annotations

from typing import Any

from duplexbench.agents._notes.ears import Repair, repair_request
from duplexbench.agents._notes.understand import say_value

CLOSE = "Thank you for your time. Goodbye!"
GOT_IT = "Got it."
GIVE_UP = "I am sorry, I cannot complete this on this call. Goodbye!"
WHY = "It goes on the record, thank you."
SENT_REQUEST = "I have sent you a formal approval request."


def words_of(name: str) -> str:
    return name.replace("_", " ").strip()


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
    return question(words) if kind == "ask" else repair_request(kind, words)
