"""The semantic layer: the embedding matcher over a sentence and over its conjuncts.

A question may ask for several slots at once ("the contact's phone and
email?", "name, contact, tax number and category"): the sentence is split
at "and", "or", commas and the like, and when two or more parts each name a
slot confidently, the layer answers all of them. Otherwise it answers what
the whole sentence matches: one slot, two it is unsure between, or none.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from duplexbench.users.observer.embedder import shared_embedder
from duplexbench.users.observer.semantic import SlotMatcher, shipped_weights
from duplexbench.users.observer.slots import Slot

_CONJUNCT = re.compile(
    r"\s*(?:,|;|\band also\b|\bas well as\b|\balong with\b|\bplus\b|\band\b|\bor\b)\s*", re.I
)
MIN_PART_WORDS = 1


def conjuncts(raw: str) -> list[str]:
    """The parts of a sentence between conjunctions and commas (empty parts dropped)."""
    parts = [p.strip(" .?!:") for p in _CONJUNCT.split(raw)]
    return [p for p in parts if len(p.split()) >= MIN_PART_WORDS]


class SemanticLayer:
    name = "semantic"

    def __init__(self, slots: tuple[Slot, ...], names: Callable[[str], list[str]]) -> None:
        self.matcher = SlotMatcher(slots, shared_embedder(), shipped_weights())
        self._names = names

    def names(self, part: str) -> frozenset[str]:
        return frozenset(self._names(part))

    def slots(self, raw: str, named: frozenset[str]) -> tuple[list[str], bool]:
        parts = conjuncts(raw)
        if len(parts) >= 2:
            found: list[str] = []
            for part in parts:
                match = self.matcher.match(part, self.names(part))
                if match.slots and not match.unsure and match.slots[0] not in found:
                    found.append(match.slots[0])
            if len(found) >= 2:
                return found, False
        match = self.matcher.match(raw, named)
        return list(match.slots), match.unsure
