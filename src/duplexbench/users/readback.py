"""The user checks what the agent reads back, and corrects what it got wrong.

When the agent confirms a value (`CONFIRM:<slot>`) or reads several back
(`READBACK`), the user compares each value stated after a slot's name with
what they actually said (the current version of that fact). A wrong value
gets a correction ("No, the employee ID is E1042."), at most
`MAX_FIXES` times per slot, so a misheard value can be repaired but a loop
cannot go on forever.
"""

from __future__ import annotations

import re

from duplexbench.items.user import Fact
from duplexbench.items.workflow import WorkflowItem
from duplexbench.users.observer import ActObserver
from duplexbench.values.graders import values_match

MAX_FIXES = 2


def _norm(value: object) -> str:
    return re.sub(r"[^a-z0-9]", "", str(value).casefold())


class ReadbackChecker:
    def __init__(self, item: WorkflowItem) -> None:
        self.item = item
        self.observer = ActObserver(item)
        self.fixes: dict[str, int] = {}

    def _matches(self, fact: Fact, stated: str, heard: str) -> bool:
        """Graded like the artifact field; without a field, by the words heard."""
        artifact_id, _, name = (fact.field or "").partition(".")
        artifact = self.item.artifact(artifact_id)
        spec = artifact.field(name) if artifact else None
        if spec is None:
            said = _norm(heard)
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

    def wrong(self, heard: list[str], current: dict[str, Fact]) -> list[Fact]:
        """Facts (current versions, keyed by slot) the agent last stated wrongly."""
        latest: dict[str, tuple[str, str]] = {}
        for sentence in heard:  # a later statement of a slot replaces an earlier one
            for slot, stated in self.observer.stated_values(sentence).items():
                latest[slot] = (stated, sentence)
        out = []
        for slot, (stated, sentence) in latest.items():
            fact = current.get(slot)
            if fact is None or not stated or self.fixes.get(slot, 0) >= MAX_FIXES:
                continue
            if not self._matches(fact, stated, sentence):
                self.fixes[slot] = self.fixes.get(slot, 0) + 1
                out.append(fact)
        return out


def plain_value(value: object) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
