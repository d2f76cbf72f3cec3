"""How much of a generated suite the packaged suites already hold (contamination).

An agent tuned on, or looking up, the packaged suites gains on a private suite
only through what the two share. Three counts, each over distinct strings
(case and spacing ignored), against every packaged suite of the same family:

- **values**: the gold of the fields an agent must hear or look up, i.e. text
  fields (names, codes, emails, free text; enum, number, boolean and date
  fields are left out, since their few possible values repeat by design),
  the callers' names and the database record ids. For action suites: the
  reference responses.
- **sentences**: the sentences of the instructions, the caller's goal, the
  knowledge documents and the caller's scripted facts (action suites: the user's segments). The
  generator's templates repeat by design; what matters is that the values
  inside them do not.
- **items**: items whose whole instructions (action suites: whole context plus
  segments) equal a packaged item's, i.e. the same task word for word.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from duplexbench.items import (
    ActionItem,
    WorkflowItem,
    load_action_suite,
    load_suite,
    suite_family,
)
from duplexbench.suites._package import packaged_suites, resolve_suite

__all__ = ["Overlap", "Share", "overlap", "overlap_with_packaged"]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_NOT_HEARD = frozenset({"enum", "number", "numeric", "boolean", "date", "numeric_tolerance"})


@dataclass(frozen=True)
class Share:
    shared: int
    total: int

    @property
    def rate(self) -> float:
        return round(self.shared / self.total, 4) if self.total else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"shared": self.shared, "total": self.total, "rate": self.rate}


@dataclass(frozen=True)
class Overlap:
    against: tuple[str, ...]
    """The packaged suites compared with."""
    values: Share
    sentences: Share
    items: Share

    def to_json(self) -> dict[str, Any]:
        return {
            "against": list(self.against),
            "values": self.values.to_json(),
            "sentences": self.sentences.to_json(),
            "items": self.items.to_json(),
        }


def _norm(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def _sentences(texts: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for text in texts:
        out |= {_norm(s) for s in _SENTENCE_END.split(text) if len(s.split()) >= 3}
    return out


def _gold_texts(item: WorkflowItem) -> Iterable[str]:
    for artifact in item.artifacts:
        for field in artifact.fields:
            kind = str(getattr(field, "type", "") or "")
            grader = str(getattr(field, "grader", "") or "")
            if kind in _NOT_HEARD or grader in _NOT_HEARD:
                continue
            golds = field.gold if isinstance(field.gold, list) else [field.gold]
            yield from (str(g) for g in golds if isinstance(g, str) and len(g) >= 3)


def _workflow_parts(item: WorkflowItem) -> tuple[set[str], set[str], str]:
    values = {_norm(v) for v in _gold_texts(item)}
    values.add(_norm(item.user.persona.name))
    for rows in item.database.values():
        values |= {_norm(str(row["id"])) for row in rows if "id" in row}
    texts = [item.instructions, item.user.goal, *(doc.text for doc in item.knowledge)]
    texts += [fact.say for fact in item.user.facts if fact.say]
    return values, _sentences(texts), _norm(item.instructions)


def _action_parts(item: ActionItem) -> tuple[set[str], set[str], str]:
    reference = item.annotations.reference_response
    values = {_norm(reference)} if reference else set()
    user = [s.text for s in item.segments if s.role == "user" and s.text]
    whole = _norm(" | ".join([item.context or "", *user]))
    return values, _sentences(user), whole


def _parts(items: Sequence[WorkflowItem] | Sequence[ActionItem]) -> tuple[set[str], ...]:
    values: set[str] = set()
    sentences: set[str] = set()
    wholes: set[str] = set()
    for item in items:
        v, s, w = _action_parts(item) if isinstance(item, ActionItem) else _workflow_parts(item)
        values |= v
        sentences |= s
        wholes.add(w)
    return values, sentences, wholes


def overlap(
    items: Sequence[WorkflowItem] | Sequence[ActionItem],
    packaged: Sequence[WorkflowItem] | Sequence[ActionItem],
    against: tuple[str, ...] = (),
) -> Overlap:
    """What `items` share with `packaged` (module docstring)."""
    return _shared(_parts(items), _parts(packaged), against)


def _shared(
    mine: tuple[set[str], ...], theirs: tuple[set[str], ...], against: tuple[str, ...]
) -> Overlap:
    shares = [Share(len(m & t), len(m)) for m, t in zip(mine, theirs, strict=True)]
    return Overlap(against, *shares)


def overlap_with_packaged(items: Sequence[WorkflowItem] | Sequence[ActionItem]) -> Overlap:
    """`overlap` against every packaged suite of the items' family."""
    family = "action" if items and isinstance(items[0], ActionItem) else "workflow"
    names, parts = _packaged(family)
    return _shared(_parts(items), parts, names)


@functools.cache
def _packaged(family: str) -> tuple[tuple[str, ...], tuple[set[str], ...]]:
    """The packaged suites of `family` and their parts (loaded once per process)."""
    names: list[str] = []
    packaged: list[Any] = []
    for name in packaged_suites():
        path = resolve_suite(name)
        if suite_family(path) != family:
            continue
        loaded = load_action_suite(path) if family == "action" else load_suite(path)
        names.append(name)
        packaged += loaded.items
    return tuple(names), _parts(packaged)
