"""The kinds of field an agent writes, as any agent sees them: the tool schemas (names,
JSON types, descriptions, "One of: ..." choices, "e.g." examples).

Each field gets an *ear*: how its value is heard, read and (in audio) repaired:

| ear | fields | read as |
|---|---|---|
| `name` | people and companies | the words, cleaned |
| `names` | lists of people ("Names of the ...") | the names, one by one |
| `code` | identifiers ("e.g. TX-4821-KQ"), record ids | a spelling, shaped like the example |
| `email` | email addresses | said in words or spelled (`values.read_spelled`) |
| `number`, `integer`, `phone`, `date`, `enum`, `list`, `interval` | by type | by type (1) |
| `address`, `text` | the rest | the words, cleaned |

(1) the reference agent's readers (`_notes/understand.py`); lists by `reading.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from duplexbench.agents._notes.schema import FieldInfo

Ear = Literal[
    "name",
    "names",
    "code",
    "email",
    "number",
    "integer",
    "phone",
    "date",
    "enum",
    "list",
    "interval",
    "address",
    "text",
]
SPELLED_EARS: frozenset[str] = frozenset({"name", "names", "code", "email"})
"""Ears whose values are spelled in audio: names, lists of names, codes, emails."""
_EXAMPLE = re.compile(r"e\.g\.\s*[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
_DATE = re.compile(r"\b(?:date|day|deadline)s?\b", re.IGNORECASE)
_CODE_NAMES = ("_id", "_code", "_number", "_tag", "_reference", "code", "number")
_NAME_WORDS = frozenset(
    {"name", "firm", "company", "entity", "party", "counsel", "operator", "vendor"}
    | {"contractor", "sponsor", "supplier", "manager", "inspector", "organizer", "host"}
)
_NAME_LEADS = ("name", "full name", "full legal name", "company", "organization", "repair company")


@dataclass(frozen=True)
class Target:
    """One field an agent writes: through which tool, under which argument path."""

    tool: str
    path: tuple[str, ...]
    info: FieldInfo
    ear: Ear
    lower: bool = False
    """Database fields whose current value is lower case are written in lower case."""
    record: bool = False
    """A field of a database record (a write tool's, typed by what a read returns)."""

    @property
    def words(self) -> str:
        return self.info.words


def ear_of(info: FieldInfo) -> Ear:
    """How a field's value is heard (the module docstring)."""
    name, text = info.name.lower(), info.description.lower()
    if info.kind == "list" and text.startswith("names of"):
        return "names"
    if info.kind in ("date", "string"):  # the reference reads "candiDATE_phone" as a date
        if "phone" in f"{name} {text}":
            return "phone"
        if _DATE.search(f"{info.words} {info.description}"):
            return "date"
        info = replace(info, kind="string")
    if info.kind in ("enum", "number", "integer", "phone", "list", "interval"):
        return info.kind  # type: ignore[return-value]  # the reference's kinds, checked above
    if "email" in name or "email" in text:
        return "email"
    if "address" in name:
        return "address"
    if _EXAMPLE.search(info.description) or name.endswith(_CODE_NAMES) or name == "id":
        return "code"
    if set(name.split("_")) & _NAME_WORDS or text.startswith(_NAME_LEADS):
        return "name"
    return "text"


_SHAPES = (
    ("date", re.compile(r"\d{4}-\d{2}-\d{2}")),
    ("interval", re.compile(r"\d{1,2}:\d{2}-\d{1,2}:\d{2}")),
    ("phone", re.compile(r"\d{3}-\d{3}-\d{4}")),
)


def value_kind(value: object) -> str:
    """A record value's kind: the shape of its text (a date, a time interval, a phone),
    else its JSON type (a database read types the fields a schema leaves untyped)."""
    if isinstance(value, str):
        for kind, shape in _SHAPES:
            if shape.fullmatch(value):
                return kind
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, list):
        return "list"
    return "string"
