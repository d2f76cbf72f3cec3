"""The labelled observer corpus and what the default observer scores on its held-out half."""

from __future__ import annotations

import importlib
from collections import Counter

import pytest

from duplexbench.items._suite import load_suite
from duplexbench.items._workflow import WorkflowItem
from duplexbench.suites._observer_corpus import (
    ACT_KINDS,
    ANY,
    ContextIndex,
    Labelled,
    load_corpus,
)
from duplexbench.suites._observer_eval import Tally, evaluate
from duplexbench.suites._package import DATA
from duplexbench.users import REPAIR_KINDS
from duplexbench.users._observer import ObserverConfig
from duplexbench.users._observer.cues import normalize


@pytest.fixture(scope="module")
def corpus() -> list[Labelled]:
    return load_corpus()


@pytest.fixture(scope="module")
def items() -> list[WorkflowItem]:
    return [i for i in load_suite(DATA / "workflows-v2").items if isinstance(i, WorkflowItem)]


def test_the_corpus_is_large_and_covers_every_archetype(corpus: list[Labelled]) -> None:
    with_acts = [e for e in corpus if e.entry.acts]
    without = [e for e in corpus if not e.entry.acts]
    assert len(with_acts) >= 1000 and len(without) >= 300
    by_arch = Counter(e.archetype for e in corpus if e.archetype != ANY)
    assert len(by_arch) == 12 and min(by_arch.values()) >= 150
    kinds = Counter(a.partition(":")[0] for e in corpus for a in e.entry.acts)
    assert set(kinds) == set(ACT_KINDS) | set(REPAIR_KINDS)
    assert sum(1 for e in corpus if sum(a.startswith("ASK:") for a in e.entry.acts) >= 2) >= 200
    assert {e.split for e in corpus} == {"dev", "test"}


def test_every_label_names_a_slot_or_action_of_its_archetype(corpus: list[Labelled]) -> None:
    for entry in corpus:
        if entry.archetype == ANY:  # read in every archetype: names nothing (load_corpus)
            assert not entry.needs() and not entry.needs_actions()
            continue
        module = importlib.import_module(
            f"duplexbench.suites.workflows.archetypes.{entry.archetype}"
        )
        arch = module.ARCHETYPE
        slots = {f.name for f in arch.fields} | {lk.name for lk in arch.lookups}
        slots |= {"reference_number", "account_number"}
        assert entry.needs() <= slots, (entry.source, entry.entry.text)
        assert entry.needs_actions() <= {arch.action.tool}, (entry.source, entry.entry.text)


def test_the_repair_requests_two_halves_written_apart(corpus: list[Labelled]) -> None:
    """300+ repair requests (each half with every repair act, named slots and combinations),
    near misses beside them, about a fifth in ASR style, and no sentence of the repair
    files in both halves."""
    repairs = [e for e in corpus if e.repair]
    assert len(repairs) >= 300
    for split in ("dev", "test"):
        half = [e for e in repairs if e.split == split]
        kinds = {a.partition(":")[0] for e in half for a in e.entry.acts}
        assert set(REPAIR_KINDS) <= kinds
        assert sum(1 for e in half if e.needs()) >= 60  # REPEAT:<slot>, SPELL:<slot>, ...
        assert sum(1 for e in half if len(e.entry.acts) >= 2) >= 10
        asr = sum(1 for e in half if not any(c in e.entry.text for c in ".?!,"))
        assert 0.15 <= asr / len(half) <= 0.35
        near = [e for e in corpus if e.split == split and e.source.startswith("repairs")]
        assert sum(1 for e in near if not e.repair) >= 30
    files = {
        split: {normalize(e.entry.text) for e in corpus if e.split == split}
        for split in ("dev", "test")
    }
    written = [e for e in corpus if e.source.startswith("repairs")]
    assert not {normalize(e.entry.text) for e in written} & files["dev"] & files["test"]
    for entry in written:
        assert "PHONETIC" not in entry.entry.acts or any(
            a.startswith("SPELL") for a in entry.entry.acts
        ), entry.entry.text


def test_repair_entries_of_any_archetype_are_read_all_over(
    corpus: list[Labelled], items: list[WorkflowItem]
) -> None:
    index = ContextIndex(items, per_entry=1)
    anywhere = [e for e in corpus if e.archetype == ANY]
    archetypes = {ctx.item.taxonomy.work_archetype for e in anywhere for ctx in index.contexts(e)}
    assert len(archetypes) == 12
    first = [next(index.contexts(e)).item.id for e in anywhere[:20]]
    assert first == [next(index.contexts(e)).item.id for e in anywhere[:20]]  # deterministic


def test_almost_every_entry_finds_an_item_to_be_read_in(
    corpus: list[Labelled], items: list[WorkflowItem]
) -> None:
    index = ContextIndex(items, per_entry=1)
    placed = sum(1 for e in corpus if next(index.contexts(e), None) is not None)
    assert placed / len(corpus) >= 0.95


def test_a_wrong_slot_and_a_close_on_a_near_miss_are_counted() -> None:
    tally = Tally()
    tally.add(["ASK:a"], ["ASK:b"], "t", "i")
    tally.add([], ["CLOSE"], "t", "i")
    tally.add(["ASK:a", "ASK:c"], ["UNCLEAR:a", "UNCLEAR:b"], "t", "i")
    tally.add(["SPELL:a", "PHONETIC"], ["SPELL", "PHONETIC"], "t", "i")  # the slot missed
    tally.add(["REPEAT"], ["REPEAT"], "t", "i")
    tally.add([], ["SLOWER"], "t", "i")
    report = tally.report()
    assert report["repair_recall"] == 0.5 and report["repair_entries"] == 2
    assert report["repair_on_non_repair"] == pytest.approx(1 / 4)
    assert report["repair_acts"]["PHONETIC"]["recall"] == 1.0
    assert report["repair_acts"]["SPELL"]["precision"] == 0.0
    assert report["repair_acts"]["SLOWER"]["precision"] == 0.0
    assert report["wrong_slot"] == pytest.approx(1 / 3, abs=1e-3)
    assert report["close_false_positives"] == 1 and report["acts_on_non_questions"] == 1
    assert report["unsure"] == pytest.approx(1 / 3, abs=1e-3)
    assert report["ask_confirm_recall"] == 0.0


def test_the_default_observer_on_the_held_out_half(
    corpus: list[Labelled], items: list[WorkflowItem]
) -> None:
    """Regression floors for the default observer (measured values in docs/simulator.md;
    the targets are higher: ASK/CONFIRM recall 95%, wrong slot 1%, acts on non-questions
    1%). The rules layer alone is the baseline it must clearly beat. Repair requests meet
    their targets: 95% read exactly (with the slot they name), and repair acts on at most
    1% of the other utterances."""
    test = [e for e in corpus if e.split == "test"]
    semantic = evaluate(test, items, ObserverConfig(), per_entry=1).report()
    rules = evaluate(test, items, ObserverConfig(kind="rules"), per_entry=1).report()
    assert semantic["ask_confirm_recall"] >= 0.78
    assert semantic["ask_confirm_recall"] - rules["ask_confirm_recall"] >= 0.4
    assert semantic["wrong_slot"] <= 0.015
    assert semantic["acts_on_non_questions"] <= 0.02
    assert semantic["close_false_positives"] == 0 == rules["close_false_positives"]
    assert semantic["repair_recall"] >= 0.95
    assert semantic["repair_on_non_repair"] <= 0.01
    assert rules["repair_recall"] >= 0.9  # repair cues need no semantic layer
