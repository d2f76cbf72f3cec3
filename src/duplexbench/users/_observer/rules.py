"""The rule layer: slots and actions named by their words, the fast path.

A slot is named when a sentence contains one of its phrases (the fact's id
and aliases, the linked field's name and aliases) as whole words; the longest
phrase wins where phrases overlap, so "contact phone" is not also "contact".
After a name comes, often, the value the agent holds for it ("the total is
240"): :meth:`NameFinder.stated_after` reads it for the caller's read-back
check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from duplexbench.users._observer.cues import normalize, word_set
from duplexbench.users._observer.slots import Action, Slot

_LINK = r"(?P<link>(?:\s+(?:is|was|as|of|at|to|comes to|will be|would be|should be|are))?\s*:?)\s*"
_VALUE_END = r"(?=[,;?!]|\.\s|\.$|$)"
_STATED_VALUE = re.compile(_LINK + r"(?P<value>.+?)" + _VALUE_END)
_LOOKS_LIKE_A_VALUE = re.compile(r"[0-9@A-Z$£€]")
"""With no link word ("the invoice number E1042"), what follows a name is a value only
when it looks like one (a digit, a capital, an @ or a currency sign); lowercase words
are more of the phrase: "the support level fees" names a document, not a level."""
STRONG_ALIAS_WORDS = 3
_TOLD = r"is|was|are|as|would be|will be|should be|comes to"
_NOT_A_VALUE = word_set(
    """
    the a an still correct right accurate current valid okay ok fine good same changed
    on file record we have you your it that this there what which
    """
)


@dataclass(frozen=True)
class _Phrase:
    text: str
    target: str


def _phrases(pairs: list[tuple[str, str]]) -> list[_Phrase]:
    seen: dict[str, str] = {}
    for phrase, target in pairs:
        norm = normalize(phrase).strip()
        if norm and norm not in seen:
            seen[norm] = target
    return sorted((_Phrase(p, t) for p, t in seen.items()), key=lambda p: -len(p.text))


def _find(sentence: str, phrases: list[_Phrase]) -> list[str]:
    """Targets named in a normalized sentence, longest phrase first, in text order."""
    hits: list[tuple[int, str]] = []
    taken = sentence
    for phrase in phrases:
        needle = f" {phrase.text} "
        pos = taken.find(needle)
        while pos >= 0:
            hits.append((pos, phrase.target))
            taken = taken[:pos] + " " + "#" * (len(needle) - 2) + " " + taken[pos + len(needle) :]
            pos = taken.find(needle)
    ordered: list[str] = []
    for _, target in sorted(hits):
        if target not in ordered:
            ordered.append(target)
    return ordered


class NameFinder:
    """Slots and actions named in a sentence by their words and aliases."""

    def __init__(self, slots: tuple[Slot, ...], actions: tuple[Action, ...]) -> None:
        self._slots = _phrases([(n, s.id) for s in slots for n in s.names])
        self._own = _phrases([(n, s.id) for s in slots for n in s.names[: s.own_names]])
        self._strong = _phrases(
            [
                (n, s.id)
                for s in slots
                for i, n in enumerate(s.names)
                if i < s.own_names or len(n.split()) >= STRONG_ALIAS_WORDS
            ]
        )
        self._actions = _phrases([(n, a.id) for a in actions for n in a.names])

    def slots(self, raw: str) -> list[str]:
        """Slots named by any of their names or aliases, in text order."""
        return _find(normalize(raw), self._slots)

    def strong_slots(self, raw: str) -> list[str]:
        """Slots named by their own names or by an alias of three words or more (an
        author's "date of the birth" is as clear as a name; "supplier" is not)."""
        return _find(normalize(raw), self._strong)

    def actions(self, raw: str) -> list[str]:
        return _find(normalize(raw), self._actions)

    def told(self, text: str) -> set[str]:
        """Slots whose own name is followed by a link and a value ("the contact person is
        Ana Lima", "tax id: TX-1"): the agent states something for them, right or wrong."""
        out = set()
        for slot, value in self.stated_after(text).items():
            name = next(p.text for p in self._own if p.target == slot)
            linked = re.search(rf"\b{re.escape(name)}\W+(?:{_TOLD})\b", normalize(text))
            words = [w for w in normalize(value).split() if w not in _NOT_A_VALUE]
            if linked and words:
                out.add(slot)
        return out

    def stated_after(self, text: str) -> dict[str, str]:
        """Slot -> the words the agent said right after naming it ("... the total is 240").

        Only a slot's own names count here (its words, its field's name), not aliases: an
        everyday alias ("catering") also starts other phrases ("catering rates")."""
        out: dict[str, str] = {}
        masked = text
        for phrase in self._own:  # longest first; a matched name is masked, so "contact"
            # does not also match inside "contact phone"
            words = r"\W+".join(re.escape(w) for w in phrase.text.split())
            name = re.compile(rf"\b{words}\b", flags=re.IGNORECASE)
            for match in name.finditer(masked):
                stated = _STATED_VALUE.match(text, match.end())
                if stated is None or phrase.target in out:
                    continue
                value = stated.group("value").strip()
                if stated.group("link").strip() or _LOOKS_LIKE_A_VALUE.search(value):
                    out[phrase.target] = value
            masked = name.sub(lambda m: "#" * len(m.group(0)), masked)
        return out
