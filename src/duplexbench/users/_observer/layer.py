"""What every slot layer of the observer is: one method, which slots a question is about."""

from __future__ import annotations

from typing import Protocol


class SlotLayer(Protocol):
    """A layer that names the slots a question is about, or abstains (no slots)."""

    name: str

    def slots(self, raw: str, named: frozenset[str]) -> tuple[list[str], bool]:
        """(slots, unsure): unsure means "one of these two, cannot tell which". `named`:
        the slots the sentence names by a name or an alias (a hint, not an answer)."""
        ...
