"""The labelled observer corpus: agent utterances with the acts they contain.

`suites/data/observer-corpus/{dev,test}/<archetype>.yaml` hold 2,600+ things a
voice agent says to a caller in the twelve work archetypes, phrased the way
capable agents talk (never by the items' field names), each with its complete
set of acts (docs/simulator.md has the labelling rules). Two halves were
written independently: `dev` fits the semantic matcher's weights, `test` only
measures. An utterance is evaluated in the context of items of its archetype
that hold every slot it needs (labels and `{slot}` value placeholders), so it
meets the same neighbouring slots a real episode would.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from duplexbench.items import WorkflowItem, read_document
from duplexbench.suites._package import DATA
from duplexbench.users import Slot, item_actions, item_slots

CORPUS = DATA / "observer-corpus"
SPLITS = ("dev", "test")
ACT_KINDS = ("ASK", "CONFIRM", "CHECK", "READBACK", "REQUEST_APPROVAL", "CLOSE")
_PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")


class CorpusEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    text: str = Field(min_length=1)
    acts: list[str] = Field(
        description="Every act of the utterance (empty: none)",
        json_schema_extra={"items": {"pattern": r"^[A-Z_]+(:[a-z0-9_]+)?$"}},
    )
    note: str | None = None


class CorpusFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    archetype: str
    entries: list[CorpusEntry]


@dataclass(frozen=True)
class Labelled:
    archetype: str
    split: str
    entry: CorpusEntry
    source: str

    def needs(self) -> set[str]:
        """Slots an item must hold to evaluate this entry."""
        slots = {a.partition(":")[2] for a in self.entry.acts if _slot_act(a)}
        return slots | set(_PLACEHOLDER.findall(self.entry.text))

    def needs_actions(self) -> set[str]:
        """Gated actions an item must have to evaluate this entry."""
        return {a.partition(":")[2] for a in self.entry.acts if a.startswith("REQUEST_APPROVAL:")}


def _slot_act(act: str) -> bool:
    return act.partition(":")[0] in ("ASK", "CONFIRM", "CHECK")


def load_corpus(splits: Sequence[str] = SPLITS, root: Path = CORPUS) -> list[Labelled]:
    """Every entry of the named splits (folders under `root`), in file order."""
    out: list[Labelled] = []
    for split in splits:
        folder = root / split
        if not folder.is_dir():
            raise FileNotFoundError(f"{folder}: no such corpus split")
        for path in sorted(folder.glob("*.yaml")):
            doc = CorpusFile.model_validate(read_document(path, what="observer corpus file"))
            out += [Labelled(doc.archetype, split, e, f"{path.name}") for e in doc.entries]
    return out


@dataclass(frozen=True)
class Context:
    """One evaluation of an entry: the item, the text with its placeholders filled."""

    item: WorkflowItem
    text: str


def _filled(text: str, slots: dict[str, Slot], item: WorkflowItem) -> str:
    def value(match: re.Match[str]) -> str:
        slot = slots[match.group(1)]
        if slot.facts:
            return slot.facts[0].spoken
        for artifact in item.artifacts:
            field = artifact.field(slot.id.rpartition(".")[2])
            if field is not None and field.gold is not None:
                gold = field.gold
                return ", ".join(map(str, gold)) if isinstance(gold, list) else str(gold)
        return slot.words

    return _PLACEHOLDER.sub(value, text)


class ContextIndex:
    """Items by archetype, with their slots, to place corpus entries in."""

    def __init__(self, items: Sequence[WorkflowItem], per_entry: int = 3) -> None:
        self.per_entry = per_entry
        self._by_arch: dict[str, list[tuple[WorkflowItem, dict[str, Slot], set[str]]]]
        self._by_arch = defaultdict(list)
        for item in items:
            slots = {s.id: s for s in item_slots(item)}
            actions = {a.id for a in item_actions(item)}
            self._by_arch[item.taxonomy.work_archetype].append((item, slots, actions))

    def contexts(self, entry: Labelled) -> Iterator[Context]:
        needs, actions = entry.needs(), entry.needs_actions()
        found = 0
        for item, slots, gated in self._by_arch.get(entry.archetype, []):
            if found >= self.per_entry:
                return
            if needs <= slots.keys() and actions <= gated:
                found += 1
                yield Context(item, _filled(entry.entry.text, slots, item))
