"""Knowledge look-ups: a query, and a value read from a document's table.

The packaged suites' tables read "Vendor registration fee schedule, by vendor
category and risk tier. materials low: 216 dollars; materials medium: 79 dollars;
...": the key fields are named after "by", each row is keyed by their values in that
order. An agent keys the row by the values it heard (or read in a record) for those
fields (the listener and the reference agent both). Any other document shape falls
back on the reference agent's reading (the number after the chosen options).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from duplexbench.agents._notes.kinds import Target
from duplexbench.agents._notes.knowledge import value_from_results
from duplexbench.agents._notes.schema import FieldInfo
from duplexbench.values import parse_number

Known = Callable[[str], Any]
"""A field's words ("risk tier") -> the value the listener has for it, or None."""
_BY = re.compile(r"\bby (.+)$", re.IGNORECASE)
_KEYS = re.compile(r",\s*(?:and\s+)?|\s+and\s+")
_KEY_WORDS = 3
"""Heard values of at most this many words go into a query (choices, not sentences)."""
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def query(doc: str, target: Target, heard: list[str]) -> str:
    """Words to search for: the document's id, the field's name and description, and
    the short values heard (what tables are keyed by)."""
    described = target.info.description.split(" One of:", maxsplit=1)[0]
    keys = " ".join(v for v in heard if len(v.split()) <= _KEY_WORDS)
    return " ".join(f"{doc.replace('-', ' ')} {target.words} {described} {keys}".split())


def document(results: list[dict[str, Any]], doc: str) -> dict[str, Any] | None:
    return next((r for r in results if isinstance(r, dict) and r.get("id") == doc), None)


def table_value(text: str, known: Known, target: Target, context: list[str]) -> Any:
    """The value of the row keyed by the known values, typed for the target; else the
    reference agent's reading of the text."""
    keyed = keyed_value(text, known, target)
    if keyed is not None:
        return keyed
    return value_from_results(target.info, [{"text": text}], context)


def keyed_value(text: str, known: Known, target: Target) -> Any:
    """The value of the row of a keyed table ("..., by vendor category and risk tier.
    materials medium: 79 dollars; ...") whose keys are the known values; None if the
    text is no such table or no row has them."""
    head, _, body = text.partition(". ")
    by = _BY.search(head)
    if by is None:
        return None
    keys = [k.strip() for k in _KEYS.split(by.group(1)) if k.strip()]
    said = [known(k) for k in keys]
    if not keys or any(s is None for s in said):
        return None
    want = " ".join(str(s) for s in said).casefold()
    for row in body.rstrip(". ").split(";"):
        key, _, value = row.rpartition(":")
        if " ".join(key.split()).casefold() == want:
            return _typed(value, target)
    return None


def _typed(text: str, target: Target) -> Any:
    match = _NUMBER.search(text)
    if match is None:
        return text.strip() or None
    number = parse_number(match.group(0))
    if number is None:
        return None
    if target.info.kind == "integer" or (target.info.kind != "number" and number.is_integer()):
        return int(number)
    return number


_STOP = frozenset({"the", "and", "for", "per", "with", "from", "this", "that", "table", "by"})


def table_topic(doc: dict[str, Any], fields: list[FieldInfo]) -> FieldInfo | None:
    """The field a document is about: the most words its title and first sentence (up
    to "by") share with the field's name and description ("Vendor registration fee
    schedule" and "onboarding fee, one-time fee to register the vendor, from the fee
    schedule": vendor, fee, schedule), never a field the table is keyed by ("Support
    level fees, by support level": the fee); None on a tie."""
    first = str(doc.get("text", "")).partition(". ")[0]
    by = re.search(r",?\s+by\s+", first)
    head, keys = (first[: by.start()], first[by.end() :]) if by else (first, "")
    said, keyed = _content_words(f"{doc.get('title', '')} {head}"), keys.casefold()
    scored = [
        (len(said & _content_words(f"{f.words} {f.description}")), f)
        for f in fields
        if f.words.casefold() not in keyed
    ]
    best = max((n for n, _ in scored), default=0)
    top = [f for n, f in scored if n == best]
    return top[0] if best and len(top) == 1 else None


def _content_words(text: str) -> set[str]:
    """Lower-case words of three letters or more, a plural's "s" dropped."""
    words = re.findall(r"[a-z]{3,}", text.casefold())
    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words} - _STOP
