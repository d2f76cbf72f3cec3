"""Measuring act observers on the labelled corpus (`duplexbench observer-eval`).

Every entry is read by the observer in each of its contexts (an item of its
archetype holding the slots it needs). Scores, per observer:

- per act kind: precision and recall of exact acts (kind and slot);
- `ask_confirm_recall`: gold ASK and CONFIRM acts found exactly;
- `wrong_slot`: slot acts (ASK, CONFIRM, CHECK) naming a slot the entry is not
  about, per gold slot act; an `UNCLEAR` pair that misses the gold slot counts
  as wrong, one that contains it as `unsure` (the caller asks which is meant);
- `acts_on_non_questions`: entries with no gold act on which the observer
  read any act;
- `close_false_positives`: `CLOSE` read where the entry takes no leave;
- `ms_per_sentence`: mean wall time per sentence (one core; the model loaded
  and the item's slots embedded beforehand);
- repair requests (`REPEAT`, `SPELL`, `PHONETIC`, `DIGITS`, `SLOWER`):
  `repair_acts`, per kind precision and recall of exact acts (kind and slot);
  `repair_recall`, the share of repair entries on which every gold repair act
  was read; `repair_on_non_repair`, the share of the other entries (the whole
  corpus: questions, read-backs, near misses, ...) on which any repair act was
  read.

Every rate is over evaluations (an entry in one of its contexts).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from duplexbench.items import WorkflowItem
from duplexbench.suites._observer_corpus import (
    ACT_KINDS,
    ContextIndex,
    Labelled,
)
from duplexbench.users import REPAIR_KINDS, ActObserver, ObserverConfig, is_repair, sentences

SLOT_KINDS = ("ASK", "CONFIRM", "CHECK")


@dataclass
class Tally:
    tp: Counter[str] = field(default_factory=Counter)
    fp: Counter[str] = field(default_factory=Counter)
    fn: Counter[str] = field(default_factory=Counter)
    gold_slot_acts: int = 0
    wrong_slot: int = 0
    unsure: int = 0
    non_questions: int = 0
    acts_on_non_questions: int = 0
    close_false_positives: int = 0
    repair_entries: int = 0
    repairs_read: int = 0
    non_repair: int = 0
    repair_on_non_repair: int = 0
    evaluations: int = 0
    skipped: int = 0
    sentences: int = 0
    seconds: float = 0.0
    misses: list[dict[str, Any]] = field(default_factory=list)

    def add(self, gold: list[str], got: list[str], text: str, item: str) -> None:
        self.evaluations += 1
        gold_set = set(gold)
        got_set = {a for a in got if a != "OTHER"}
        for act in got_set | gold_set:
            kind = act.partition(":")[0]
            if kind not in ACT_KINDS and kind not in REPAIR_KINDS:
                continue
            if act in gold_set and act in got_set:
                self.tp[kind] += 1
            elif act in got_set:
                self.fp[kind] += 1
            else:
                self.fn[kind] += 1
        self._slots(gold_set, got_set)
        if not gold_set:
            self.non_questions += 1
            self.acts_on_non_questions += bool(got_set)
        self.close_false_positives += "CLOSE" in got_set and "CLOSE" not in gold_set
        self._repairs(gold_set, got_set)
        if gold_set != got_set and len(self.misses) < 2000:
            self.misses.append({"item": item, "text": text, "gold": gold, "got": sorted(got_set)})

    def _slots(self, gold: set[str], got: set[str]) -> None:
        gold_slots = {a.partition(":")[2] for a in gold if a.partition(":")[0] in SLOT_KINDS}
        self.gold_slot_acts += sum(1 for a in gold if a.partition(":")[0] in SLOT_KINDS)
        if not gold_slots:
            return
        for act in got:
            kind, _, slot = act.partition(":")
            if kind in SLOT_KINDS and slot not in gold_slots:
                self.wrong_slot += 1
        unclear = {a.partition(":")[2] for a in got if a.startswith("UNCLEAR:")}
        if unclear:
            if unclear & gold_slots:
                self.unsure += 1
            else:
                self.wrong_slot += 1

    def _repairs(self, gold: set[str], got: set[str]) -> None:
        wanted = {a for a in gold if is_repair(a)}
        if wanted:
            self.repair_entries += 1
            self.repairs_read += wanted <= got
        else:
            self.non_repair += 1
            self.repair_on_non_repair += any(is_repair(a) for a in got)

    def _kinds(self, kinds: Sequence[str]) -> dict[str, dict[str, float | int | None]]:
        out: dict[str, dict[str, float | int | None]] = {}
        for kind in kinds:
            tp, fp, fn = self.tp[kind], self.fp[kind], self.fn[kind]
            out[kind] = {
                "precision": _rate(tp, tp + fp),
                "recall": _rate(tp, tp + fn),
                "gold": tp + fn,
                "read": tp + fp,
            }
        return out

    def report(self) -> dict[str, Any]:
        kinds = self._kinds(ACT_KINDS)
        ask_confirm = sum(self.tp[k] for k in ("ASK", "CONFIRM"))
        ask_confirm_gold = ask_confirm + sum(self.fn[k] for k in ("ASK", "CONFIRM"))
        return {
            "evaluations": self.evaluations,
            "skipped_entries": self.skipped,
            "acts": kinds,
            "ask_confirm_recall": _rate(ask_confirm, ask_confirm_gold),
            "wrong_slot": _rate(self.wrong_slot, self.gold_slot_acts),
            "unsure": _rate(self.unsure, self.gold_slot_acts),
            "acts_on_non_questions": _rate(self.acts_on_non_questions, self.non_questions),
            "non_questions": self.non_questions,
            "close_false_positives": self.close_false_positives,
            "repair_acts": self._kinds(REPAIR_KINDS),
            "repair_recall": _rate(self.repairs_read, self.repair_entries),
            "repair_entries": self.repair_entries,
            "repair_on_non_repair": _rate(self.repair_on_non_repair, self.non_repair),
            "non_repair": self.non_repair,
            "ms_per_sentence": round(1000 * self.seconds / max(1, self.sentences), 2),
        }


def _rate(num: int, den: int) -> float | None:
    return None if den == 0 else round(num / den, 4)


def evaluate(
    corpus: Sequence[Labelled],
    items: Sequence[WorkflowItem],
    config: ObserverConfig,
    per_entry: int = 3,
    progress: Callable[[int, int], None] | None = None,
) -> Tally:
    """Read every entry in its contexts with observers of `config` (one per item)."""
    index = ContextIndex(items, per_entry)
    observers: dict[str, ActObserver] = {}
    tally = Tally()
    for n, labelled in enumerate(corpus, 1):
        contexts = list(index.contexts(labelled))
        if not contexts:
            tally.skipped += 1
        for i, ctx in enumerate(contexts):
            observer = observers.get(ctx.item.id)
            if observer is None:
                observer = ActObserver(ctx.item, config)
                observers[ctx.item.id] = observer
            start = time.perf_counter()
            got = observer.acts(ctx.text)
            if i == 0:  # timed where the sentence is new (later contexts reuse its embedding)
                tally.seconds += time.perf_counter() - start
                tally.sentences += max(1, len(sentences(ctx.text)))
            tally.add(list(labelled.entry.acts), got, ctx.text, ctx.item.id)
        if progress is not None:
            progress(n, len(corpus))
    return tally
