"""The labelled observer corpus: agent utterances with the acts they contain.

`suites/data/observer-corpus/{dev,test}/<archetype>.yaml` hold 2,600+ things a
voice agent says to a caller in the twelve work archetypes, phrased the way
capable agents talk (never by the items' field names), each with its complete
set of acts (docs/simulator.md has the labelling rules). Two halves were
written independently: `dev` fits the semantic matcher's weights, `test` only
measures. An utterance is evaluated in the context of items of its archetype
that hold every slot it needs (labels and `{slot}` value placeholders), so it
meets the same neighbouring slots a real episode would.

`repairs*.yaml` hold repair requests ("sorry, could you spell that?") and their
near misses. Their file's archetype is `any`: an entry that needs no slot is
read in items of every archetype (a deterministic spread); an entry that names
a slot carries the archetype of the items that hold it (`archetype:`).
"""

from __future__ import annotations

import re
import zlib
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from duplexbench.items import WorkflowItem, read_document
from duplexbench.suites._package import DATA
from duplexbench.users import Slot, is_repair, item_actions, item_slots

CORPUS = DATA / "observer-corpus"
SPLITS = ("dev", "test")
ACT_KINDS = ("ASK", "CONFIRM", "CHECK", "READBACK", "REQUEST_APPROVAL", "CLOSE")
ANY = "any"
"""The archetype of entries read in items of every archetype (repair requests)."""
_SLOT_ACTS = ("ASK", "CONFIRM", "CHECK", "REPEAT", "SPELL", "DIGITS")
_PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")


class CorpusEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    text: str = Field(min_length=1)
    acts: list[str] = Field(
        description="Every act of the utterance (empty: none)",
        json_schema_extra={"items": {"pattern": r"^[A-Z_]+(:[a-z0-9_]+)?$"}},
    )
    note: str | None = None
    archetype: str | None = Field(
        default=None, description="Overrides the file's archetype (in a file of archetype any)"
    )


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

    @property
    def repair(self) -> bool:
        """A repair request: the entry asks for a repeat, a spelling, digits or slower."""
        return any(is_repair(a) for a in self.entry.acts)


def _slot_act(act: str) -> bool:
    return ":" in act and act.partition(":")[0] in _SLOT_ACTS


def load_corpus(splits: Sequence[str] = SPLITS, root: Path = CORPUS) -> list[Labelled]:
    """Every entry of the named splits (folders under `root`), in file order."""
    out: list[Labelled] = []
    for split in splits:
        folder = root / split
        if not folder.is_dir():
            raise FileNotFoundError(f"{folder}: no such corpus split")
        for path in sorted(folder.glob("*.yaml")):
            doc = CorpusFile.model_validate(read_document(path, what="observer corpus file"))
            for entry in doc.entries:
                labelled = Labelled(entry.archetype or doc.archetype, split, entry, path.name)
                if labelled.archetype == ANY and (labelled.needs() or labelled.needs_actions()):
                    raise ValueError(
                        f"{path}: {entry.text!r} names a slot or action: give its archetype"
                    )
                out.append(labelled)
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
        rounds = max((len(v) for v in self._by_arch.values()), default=0)
        self._any = [
            held[i]
            for i in range(rounds)
            for _, held in sorted(self._by_arch.items())
            if i < len(held)
        ]
        """Every item, archetypes interleaved: where an entry of archetype any is read."""

    def contexts(self, entry: Labelled) -> Iterator[Context]:
        needs, actions = entry.needs(), entry.needs_actions()
        found = 0
        for item, slots, gated in self._candidates(entry):
            if found >= self.per_entry:
                return
            if needs <= slots.keys() and actions <= gated:
                found += 1
                yield Context(item, _filled(entry.entry.text, slots, item))

    def _candidates(self, entry: Labelled) -> list[tuple[WorkflowItem, dict[str, Slot], set[str]]]:
        if entry.archetype != ANY:
            return self._by_arch.get(entry.archetype, [])
        if not self._any:
            return []
        start = zlib.crc32(entry.entry.text.encode("utf-8")) % len(self._any)
        return self._any[start:] + self._any[:start]
