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

from duplexbench.users._observer.embedder import shared_embedder
from duplexbench.users._observer.semantic import SlotMatcher, content_words, shipped_weights
from duplexbench.users._observer.slots import Slot

_CONJUNCT = re.compile(
    r"\s*(?:,|;|\band also\b|\bas well as\b|\balong with\b|\bplus\b|\band\b|\bor\b)\s*", re.I
)
_QUESTION_JOIN = re.compile(
    r"[,;]?\s+\b(?:and|also|plus)\s+(?=(?:what|what's|whats|which|who|who's|whose|when|"
    r"when's|where|where's|how|can|could|do|does|is|are|will|would)\b)",
    re.I,
)
"""Two questions joined in one sentence: split before the second one's question word."""
MIN_PART_WORDS = 2
SECOND_SLOT = 0.15
"""Probability of the runner-up slot above which a sentence may ask for several."""


def conjuncts(raw: str) -> list[str]:
    """The parts of a sentence between conjunctions and commas that could name a slot on
    their own (two content words or more: "a leak" in a list of options does not)."""
    parts = [p.strip(" .?!:") for p in _CONJUNCT.split(raw)]
    return [p for p in parts if len(content_words(p)) >= MIN_PART_WORDS]


def several_parts(raw: str) -> bool:
    """Whether a sentence may ask for several things: two questions, or a list."""
    return len(_QUESTION_JOIN.split(raw)) >= 2 or len(conjuncts(raw)) >= 2


class SemanticLayer:
    name = "semantic"

    def __init__(self, slots: tuple[Slot, ...], names: Callable[[str], list[str]]) -> None:
        self.matcher = SlotMatcher(slots, shared_embedder(), shipped_weights())
        self._names = names

    def names(self, part: str) -> frozenset[str]:
        return frozenset(self._names(part))

    def slots(self, raw: str, named: frozenset[str]) -> tuple[list[str], bool]:
        match = self.matcher.match(raw, named)
        whole = [] if match.unsure else list(match.slots)
        questions = [q for q in _QUESTION_JOIN.split(raw) if q.strip()]
        if len(questions) >= 2:  # "Who's it for, and which business does it concern?"
            found = self._each(questions, whole)
            if len(found) >= 2:
                return found, False
        second = match.probabilities[1][1] if len(match.probabilities) > 1 else 0.0
        parts = conjuncts(raw) if second >= SECOND_SLOT or not match.slots else []
        if len(parts) >= 2:  # the parts are embedded only when a second slot is in play
            found = self._each(parts, whole)
            if len(found) >= 2:
                return found, False
        return list(match.slots), match.unsure

    def _each(self, parts: list[str], whole: list[str]) -> list[str]:
        """The slots the parts name confidently, one per part, without repeats, with the
        slot the whole sentence names (a part may be too short to name it alone)."""
        found: list[str] = []
        for part in parts:
            match = self.matcher.match(part, self.names(part))
            if match.slots and not match.unsure and match.slots[0] not in found:
                found.append(match.slots[0])
        return found if len(found) >= 2 else found + [s for s in whole if s not in found]
