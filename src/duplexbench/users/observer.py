"""Semantic-act observer: maps an agent utterance to acts (rule-based, deterministic).

Acts: `ASK:<slot>`, `CONFIRM:<slot>`, `REQUEST_APPROVAL:<action>`, `READBACK`,
`CLOSE`, `OTHER`. Slots are user facts (the root of a `supersedes` chain);
they are recognised by the fact's aliases, the linked artifact field's name
and aliases, and the fact id itself (underscores read as spaces). Actions are
recognised by the gated tool's name, its action id and approval aliases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from duplexbench.items.tools import action_type, is_gated
from duplexbench.items.workflow import WorkflowItem

_SENTENCE = re.compile(r"[^.?!]+[.?!]?")
_NON_WORD = re.compile(r"[^a-z0-9]+")
_CLOSE = re.compile(r"\b(goodbye|bye|have a (great|good|nice) (day|one)|take care)\b")
_READBACK = re.compile(r"\b(read (it|that|this|everything) back|let me read|to recap|summary)\b")
_CONFIRM = re.compile(
    r"\b(confirm|confirming|just to check|to be sure|is that (right|correct)|correct)\b"
)
_APPROVAL = re.compile(
    r"\b(approve|approval|shall i|should i|may i|can i go ahead|okay to|ok to|"
    r"do you want me to|would you like me to|go ahead and)\b"
)
_LINK = r"(?:\s+(?:is|was|as|of|at|to))?\s*:?\s*"
_VALUE_END = r"(?=[,;?!]|\.\s|\.$|$)"
_STATED_VALUE = re.compile(_LINK + r"(.+?)" + _VALUE_END)
_GENERIC_APPROVAL = re.compile(r"\b(approve|approval|go ahead|proceed)\b")
_ASK = re.compile(
    r"^(what|which|when|where|who|whose|how|could you|can you|would you|please|may i have|"
    r"tell me|give me|i need|i'll need|do you have)\b"
)


def normalize(text: str) -> str:
    return " " + _NON_WORD.sub(" ", text.casefold()).strip() + " "


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
    """Targets mentioned in a normalized sentence, longest phrase first, in text order."""
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


class ActObserver:
    """Reads acts from agent utterances using the item's field names and aliases."""

    def __init__(self, item: WorkflowItem) -> None:
        user = item.user
        slot_pairs: list[tuple[str, str]] = []
        for fact in user.facts:
            slot = user.slot_of(fact.id)
            slot_pairs += [(a, slot) for a in fact.aliases]
            slot_pairs.append((fact.id.replace("_", " "), slot))
            if fact.field:
                artifact_id, _, name = fact.field.partition(".")
                art = item.artifact(artifact_id)
                spec = art.field(name) if art else None
                slot_pairs.append((name.replace("_", " "), slot))
                slot_pairs += [(a, slot) for a in (spec.aliases if spec else [])]
        self._slots = _phrases(slot_pairs)
        action_pairs: list[tuple[str, str]] = []
        for tool in item.tools:
            action = action_type(tool)
            if action is not None and is_gated(tool):
                action_pairs += [(tool.name.replace("_", " "), action)]
                action_pairs += [(action.replace("_", " "), action)]
        for approval in user.approvals:
            action_pairs += [(a, approval.action) for a in approval.aliases]
        self._actions = _phrases(action_pairs)
        self._single_action = (
            self._actions[0].target if len({p.target for p in self._actions}) == 1 else None
        )

    def stated_values(self, text: str) -> dict[str, str]:
        """Slot -> the words the agent said right after naming it ("... the total is 240")."""
        out: dict[str, str] = {}
        masked = text
        for phrase in self._slots:  # longest phrase first; a matched name is masked, so
            # "contact" does not also match inside "contact phone"
            words = r"\W+".join(re.escape(w) for w in phrase.text.split())
            name = re.compile(rf"\b{words}\b", flags=re.IGNORECASE)
            for match in name.finditer(masked):
                stated = _STATED_VALUE.match(text, match.end())
                if stated and phrase.target not in out:
                    out[phrase.target] = stated.group(1).strip()
            masked = name.sub(lambda m: "#" * len(m.group(0)), masked)
        return out

    def acts(self, text: str) -> list[str]:
        """Acts of one utterance, in order, without duplicates; `OTHER` if none."""
        acts: list[str] = []
        for raw in _SENTENCE.findall(text):
            for act in self._sentence_acts(raw):
                if act not in acts:
                    acts.append(act)
        return acts or (["OTHER"] if text.strip() else [])

    def sentence_acts(self, raw: str) -> list[str]:
        """Acts of one sentence (or the heard beginning of one), without `OTHER`."""
        return self._sentence_acts(raw)

    def _sentence_acts(self, raw: str) -> list[str]:
        sentence = normalize(raw)
        question = raw.strip().endswith("?")
        if _CLOSE.search(sentence):
            return ["CLOSE"]
        if _APPROVAL.search(sentence) and (question or "approv" in sentence):
            actions = _find(sentence, self._actions)
            if not actions and self._single_action and _GENERIC_APPROVAL.search(sentence):
                actions = [self._single_action]
            if actions:
                return [f"REQUEST_APPROVAL:{a}" for a in actions]
        slots = _find(sentence, self._slots)
        if _READBACK.search(sentence) or (len(slots) >= 3 and not question):
            return ["READBACK"]
        if slots and _CONFIRM.search(sentence):
            return [f"CONFIRM:{s}" for s in slots]
        if slots and (question or _ASK.search(sentence.strip())):
            return [f"ASK:{s}" for s in slots]
        return []
