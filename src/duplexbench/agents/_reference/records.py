"""What the reference dialogue manager reads beyond field values: a dictated
reference number ("J D 7 6 7 4", "jd-7674") and the record it finds, and the
autonomy policy in its instructions."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Literal

from duplexbench.agents._notes.kinds import value_kind
from duplexbench.agents._notes.schema import FieldInfo

RECORD = "__record__"
"""The pending question "what is your reference number?"."""
QUESTION = "What is your reference number?"

_SINGLE = re.compile(r"(?<![\w'’])([A-Za-z0-9])[\s.\-]+(?=[A-Za-z0-9]\b)")
"""A lone character before another: joined ("M U 9 9" -> "MU99"); not the "s" of
"it's"."""
_ID = re.compile(r"\b([A-Z]{1,4})[\s.\-]*(\d{3,8})\b")


def record_id(text: str) -> str | None:
    """The first letters+digits identifier in `text`, compacted and upper-cased."""
    joined = text
    previous = None
    while previous != joined:
        previous = joined
        joined = _SINGLE.sub(r"\1", joined)
    match = _ID.search(joined.upper())
    return f"{match.group(1)}{match.group(2)}" if match else None


_BY_ITS = re.compile(r"\bby (?:its|the|your) ([a-z][a-z ]{2,30}?)\s*\.?$", re.IGNORECASE)


def record_noun(description: str) -> str:
    """What a lookup tool finds a record by ("Look up a record by its account number."
    -> "account number"), or "" when it does not say."""
    match = _BY_ITS.search(description.strip())
    return match.group(1).lower() if match else ""


def record_values(output: dict[str, Any]) -> dict[str, Any]:
    """The fields of a looked-up record (empty when the lookup failed)."""
    if not output.get("ok"):
        return {}
    result = output.get("result")
    record = result.get("record", result) if isinstance(result, dict) else None
    if not isinstance(record, dict):
        return {}
    return {k: v for k, v in record.items() if k != "id"}


def refined(fields: list[FieldInfo], record: dict[str, Any]) -> list[FieldInfo]:
    """A record tool's fields (their schemas often say nothing) typed by the values the
    record holds now: a whole number is an integer, a "2026-03-17" a date, and so on."""
    return [replace(f, kind=value_kind(record[f.name])) if f.name in record else f for f in fields]


Policy = Literal["notes", "ready", "commit", "ask"]


def policy_of(instructions: str) -> Policy:
    """What to do once the work is complete, as the instructions say: only take notes
    (leave a draft), mark it ready for someone else, commit on its own, or (default)
    ask the caller's approval first."""
    text = " ".join(instructions.lower().split())
    if "do not mark it ready" in text or "only take notes" in text:
        return "notes"
    if "ready for review" in text:
        return "ready"
    if "without asking for approval" in text or "do not need the caller's approval" in text:
        return "commit"
    return "ask"
