"""The user checks what the agent reads back: corrects what is wrong, notes what is right.

Two things come from the agent's words:

- **Corrections.** When the agent confirms a value (`CONFIRM:<slot>`) or reads
  several back (`READBACK`), the user compares each value stated after a
  slot's name with what they actually said (the current version of that
  fact), and also notices their own *earlier* value of a slot they have since
  corrected ("EUR" after they said "actually, USD"). A wrong value gets a
  correction ("No, the employee ID is E1042."), at most `MAX_FIXES` times per
  slot, so a misheard value can be repaired but a loop cannot go on forever.
- **Read-back coverage.** Every sentence the user hears is checked for their
  own values, however it is phrased ("so that's Summit Learning, with Fatima
  as the contact"). A slot counts as read back once the agent has stated its
  *current* value after the user gave it; a new version (a correction)
  uncovers it again. An approval that requires a read-back of key slots
  (`approvals[].readback`) is given only when all of them are covered.
"""

from __future__ import annotations

import re

from duplexbench.items import Fact
from duplexbench.users._observer import ActObserver
from duplexbench.values import values_match

MAX_FIXES = 2


def _norm(value: object) -> str:
    return re.sub(r"[^a-z0-9]", "", str(value).casefold())


class ReadbackChecker:
    def __init__(self, observer: ActObserver) -> None:
        self.observer = observer
        self.item = observer.item
        self.fixes: dict[str, int] = {}
        self.covered: dict[str, str] = {}
        """Slot -> the fact version whose value the agent last stated."""

    def _matches(self, fact: Fact, stated: str, heard: str) -> bool:
        """Graded like the artifact field; without a field, by the words heard."""
        artifact_id, _, name = (fact.field or "").partition(".")
        artifact = self.item.artifact(artifact_id)
        spec = artifact.field(name) if artifact else None
        if spec is None:  # the words heard less the slot's name: "the paperless
            name = fact.id.replace("_", " ")  # billing is aprilus?" has no "paperless"
            said = _norm(re.sub(re.escape(name), " ", heard, flags=re.IGNORECASE))
            return _norm(fact.spoken) in said or _norm(plain_value(fact.value)) in said
        grader = spec.grader_spec()
        if values_match(grader, stated, fact.value):
            return True
        year = str(fact.value)[:4]
        return (
            spec.grader == "date"
            and year.isdigit()
            and values_match(grader, f"{stated} {year}", fact.value)
        )

    def hear(self, sentences: list[str], current: dict[str, Fact]) -> None:
        """Note the caller's values stated in these sentences (read-back coverage): spotted
        anywhere, or named and graded right ("the party size is 34": a small number is
        the caller's only next to its name)."""
        for sentence in sentences:
            self.covered.update(self.observer.spotter.held(sentence))
            for slot, stated in self.observer.stated_after(sentence).items():
                fact = current.get(slot)
                if fact is not None and stated and self._matches(fact, stated, sentence):
                    self.covered[slot] = fact.id

    def uncovered(self, slots: list[str], current: dict[str, Fact]) -> list[str]:
        """The key slots whose current value has not been read back since the caller
        gave it; a slot the caller never gave is uncovered too (an agent that asks for
        the go-ahead before collecting the key details does not get it)."""
        return [s for s in slots if s not in current or self.covered.get(s) != current[s].id]

    def read_back(self, current: dict[str, Fact]) -> list[str]:
        """The slots whose current value the agent has read back."""
        return [s for s, fact in current.items() if self.covered.get(s) == fact.id]

    def wrong(
        self, heard: list[str], current: dict[str, Fact], confirmed: tuple[str, ...] = ()
    ) -> list[Fact]:
        """Facts (current versions, keyed by slot) the agent last stated wrongly; a slot
        the agent asked to confirm (`confirmed`) is wrong unless its current value was
        heard (the caller does not say yes to a value they did not recognise)."""
        latest: dict[str, tuple[str, str]] = {}
        stale: set[str] = set()
        for sentence in heard:  # a later statement of a slot replaces an earlier one
            for slot, stated in self.observer.stated_after(sentence).items():
                latest[slot] = (stated, sentence)
            for slot, fact_id in self.observer.spotter.held(sentence).items():
                fact = current.get(slot)
                if fact is not None and fact_id != fact.id and _distinct(fact_id, fact, self):
                    stale.add(slot)
                elif fact is not None:
                    stale.discard(slot)
        out = []
        for slot, fact in current.items():
            if self.fixes.get(slot, 0) >= MAX_FIXES:
                continue
            said = latest.get(slot)
            unheard = slot in confirmed and self.covered.get(slot) != fact.id
            if said is not None and not unheard:
                stated, sentence = said
                if not stated or self._matches(fact, stated, sentence):
                    continue
            elif slot not in stale and not unheard:
                continue
            self.fixes[slot] = self.fixes.get(slot, 0) + 1
            out.append(fact)
        return out


def _distinct(stated_id: str, current: Fact, checker: ReadbackChecker) -> bool:
    """Whether an older version's value is told apart from the current one (a stated
    "EUR" is stale only if the current value is not also "EUR")."""
    older = checker.item.user.fact(stated_id)
    return older is not None and _norm(older.value) != _norm(current.value)


def plain_value(value: object) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
