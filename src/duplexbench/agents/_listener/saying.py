"""The listener's words for a played stretch of the outline: each act the observer
read in the reference (`ASK`, `CONFIRM`, `CHECK`, `READBACK`, `REQUEST_APPROVAL`,
`CLOSE`) said again with the values the listener HEARD, so the caller reacts to it as
it reacted to the reference. A changed value (a correction, a revocation) is
acknowledged by name and value; a clarifying question gets a short answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from duplexbench.agents._listener import words
from duplexbench.agents._listener.outline import ApprovalOutline, Outline
from duplexbench.agents._listener.steps import Filler


class Speaker:
    def __init__(self, outline: Outline, filler: Filler) -> None:
        self.outline, self.filler = outline, filler

    def slot_words(self, slot: str) -> str:
        return words.words_of(slot)

    def act(
        self, act: str, acts: Sequence[str], clarify: bool = False, stated: Sequence[str] = ()
    ) -> str:
        """One act in words ("" for an act with nothing to say)."""
        kind, _, ref = act.partition(":")
        if kind == "ASK":
            said = self.slot_words(ref)
            if clarify:
                target = self.filler.book.of_fact(
                    self.outline.versions(ref)[0] if self.outline.versions(ref) else ref
                )
                return words.clarified(said, target.info.description)
            return words.question(said)
        if kind in ("CONFIRM", "CHECK"):
            value = self.value(ref)
            if value is None:
                return words.question(self.slot_words(ref))
            return words.confirm(self.slot_words(ref), value)
        if kind == "READBACK":
            return words.readback(self._pairs(self._approval(acts), stated))
        if kind == "REQUEST_APPROVAL":
            approval = self.outline.approval(ref)
            phrase = approval.names[0] if approval and approval.names else words.words_of(ref)
            return words.request(phrase)
        if kind == "CLOSE":
            return words.CLOSE
        return ""

    def value(self, slot: str) -> Any:
        """A slot's value as it is said back: a list of a database record with spaces
        between its items (the caller finds a record's value in the words, and an "and"
        is none of them), an artifact's joined by "and" (`words.say_value`)."""
        value = self.filler.slot_value(slot)
        versions = self.outline.versions(slot)
        target = self.filler.book.of_fact(versions[0] if versions else slot)
        if isinstance(value, list) and target.record:
            return " ".join(str(v) for v in value)
        return value

    def acts(self, acts: Sequence[str], clarify: bool = False, stated: Sequence[str] = ()) -> str:
        return " ".join(p for a in acts if (p := self.act(a, acts, clarify, stated)))

    def changed(self, facts: Sequence[str]) -> str:
        parts = []
        for fact in dict.fromkeys(facts):
            value = self.value(self.outline.slot_of(fact))
            if value is not None:
                parts.append(words.changed(self.slot_words(self.outline.slot_of(fact)), value))
        return " ".join(parts)

    def _approval(self, acts: Sequence[str]) -> ApprovalOutline | None:
        for act in acts:
            kind, _, action = act.partition(":")
            if kind == "REQUEST_APPROVAL":
                return self.outline.approval(action)
        with_slots = [a for a in self.outline.approvals if a.readback]
        return with_slots[0] if with_slots else None

    def _pairs(
        self, approval: ApprovalOutline | None, stated: Sequence[str] = ()
    ) -> list[tuple[str, Any]]:
        """The read-back: the approval's key slots, else those the reference stated, else
        every slot heard."""
        if approval is not None and approval.readback:
            slots = list(approval.readback)
        elif stated:
            slots = list(stated)
        else:
            heard = [self.outline.slot_of(f) for f in self.filler.ears.ears]
            slots = list(dict.fromkeys(heard))
        pairs = []
        for slot in slots:
            value = self.value(slot)
            if value is not None:
                pairs.append((self.slot_words(slot), value))
        return pairs

    def readback_request(self, action: str | None, stated: Sequence[str] = ()) -> str:
        """Asked to read back: the key details and the request again."""
        acts = [f"REQUEST_APPROVAL:{action}"] if action else []
        request = self.act(acts[0], acts) if acts else ""
        pairs = self._pairs(self._approval(acts), stated)
        return f"{words.readback(pairs)} {request}".strip()
