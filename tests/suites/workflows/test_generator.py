"""The workflows generator: deterministic, complete, and never emits a bad item."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from duplexbench.items._load import item_checksum
from duplexbench.items._suite import load_suite
from duplexbench.suites._package import DATA
from duplexbench.suites._stats import suite_stats
from duplexbench.suites.workflows.archetypes import load_archetypes
from duplexbench.suites.workflows.build import PER_ARCHETYPE, SEED, SUITE, build
from duplexbench.suites.workflows.catalog import FieldTemplate, LookupTemplate
from duplexbench.suites.workflows.compose import CompositionError, compose
from duplexbench.suites.workflows.generate import GenerationError, generate
from duplexbench.suites.workflows.plan import make_plans

ARCHETYPES = load_archetypes()


def test_the_same_seed_gives_the_same_items_and_another_seed_does_not() -> None:
    form = ARCHETYPES[:1]
    first = [item_checksum(i) for i in generate(form, 3, seed=5).items]
    again = [item_checksum(i) for i in generate(form, 3, seed=5).items]
    other = [item_checksum(i) for i in generate(form, 3, seed=6).items]
    assert first == again and first != other


def test_the_packaged_suites_are_what_the_generator_makes(tmp_path: Path) -> None:
    """Regenerating from the manifest's seed reproduces every packaged item exactly."""
    build(tmp_path)
    for name in (SUITE, "workflows-mini"):
        packaged, fresh = load_suite(DATA / name), load_suite(tmp_path / name)
        assert packaged.manifest is not None and fresh.manifest is not None
        assert packaged.manifest.checksums == fresh.manifest.checksums, f"rebuild {name}"
        assert packaged.manifest.generator == fresh.manifest.generator


def test_the_suite_has_120_items_covering_every_label() -> None:
    suite = load_suite(DATA / SUITE)
    assert suite.manifest is not None and suite.manifest.generator is not None
    assert suite.manifest.generator.seed == SEED
    stats = suite_stats(suite.items)
    assert stats["items"] == 120 == len(ARCHETYPES) * PER_ARCHETYPE
    assert all(not missing for missing in stats["missing"].values()), stats["missing"]
    assert len(stats["taxonomy"]["industry"]) >= 8
    assert stats["graded_fields"]["min"] >= 10 and stats["graded_fields"]["max"] <= 20
    mini = load_suite(DATA / "workflows-mini")
    assert sorted(i.taxonomy.work_archetype for i in mini.items) == sorted(
        a.key for a in ARCHETYPES
    )


def test_generated_items_carry_the_hard_parts() -> None:
    items = load_suite(DATA / SUITE).items
    corrected = [i for i in items if any(e.kind == "correction" for e in i.user.events)]
    revoked = [i for i in items if any(e.kind == "revocation" for e in i.user.events)]
    looked_up = [i for i in items if any(f.evidence for a in i.artifacts for f in a.fields)]
    database = [i for i in items if i.gold.final_database]
    spelled = [i for i in items if any(" dash " in (f.say or "") for f in i.user.facts)]
    for group in (corrected, revoked, looked_up, database, spelled):
        assert len(group) >= 5
    for item in revoked:  # a revocation needs an approval-gated commit
        assert item.taxonomy.autonomy == "approval_gated_commit"
        assert any(a.max_grants == 2 for a in item.user.approvals)
    withdrawing = [
        e for i in items for e in i.user.events if e.kind in ("revocation", "cancellation")
    ]
    assert withdrawing and all(
        (e.trigger.act or "").startswith("REQUEST_APPROVAL:") for e in withdrawing
    )  # anchored to the request, whatever shape the read-back took
    for item in items:  # every gated approval names the key details to read back first
        for approval in item.user.approvals:
            assert approval.readback and all(item.user.fact(s) for s in approval.readback)


def test_workflows_v1_is_kept_as_published() -> None:
    v1 = load_suite(DATA / "workflows-v1")
    assert v1.manifest is not None and v1.manifest.generator is not None
    assert v1.manifest.generator.version == "1.0" and len(v1.items) == 120


def test_every_gold_value_records_where_it_comes_from() -> None:
    for item in load_suite(DATA / "workflows-mini").items:
        graded = {f"{a.id}.{f.name}" for a in item.artifacts for f in a.fields if f.graded}
        assert graded <= set(item.gold.provenance), item.id
        kinds = {source.partition(":")[0] for source in item.gold.provenance.values()}
        assert kinds <= {"user", "knowledge", "database"}


def test_a_plan_the_archetype_cannot_realize_is_rejected_with_its_reason() -> None:
    form = ARCHETYPES[0]
    poor = replace(form, lookups=form.lookups[:1])  # "heavy" knowledge needs three lookups
    plan = next(p for p in make_plans([poor], 8, seed=1) if p.knowledge == "heavy")
    with pytest.raises(CompositionError, match="3 lookups asked, the archetype has 1"):
        compose(plan)
    with pytest.raises(GenerationError, match="lookups asked, the archetype has 1"):
        generate([poor], 8, seed=1)


def test_a_candidate_failing_a_check_is_regenerated_and_counted() -> None:
    calls: list[str] = []

    def picky(item: object) -> list[tuple[str, str]]:
        calls.append("x")
        return [("gold", "first candidate refused")] if len(calls) == 1 else []

    result = generate(ARCHETYPES[:1], 1, seed=3, checks=[picky])
    assert len(result.items) == 1
    assert [(r.stage, r.reason) for r in result.rejected] == [
        ("check", "gold: first candidate refused")
    ]


def test_lookup_gold_comes_from_its_table() -> None:
    items = load_suite(DATA / SUITE).items
    for item in items[:24]:
        docs = {d.id: d.text for d in item.knowledge}
        for artifact in item.artifacts:
            for fld in artifact.fields:
                if fld.evidence:
                    assert fld.evidence in docs
                    assert f": {int(float(str(fld.gold)))}" in docs[fld.evidence]


def test_no_field_description_uses_the_record_reference_name() -> None:
    """A field described as "the reference number of this order" is heard as the caller's
    record reference (that slot's own name): the caller answers the wrong thing. Found
    with the paraphrasing reference agent."""
    for archetype in load_archetypes():
        record = archetype.record_words.casefold()
        specs: list[FieldTemplate | LookupTemplate] = [*archetype.fields, *archetype.lookups]
        for spec in specs:
            assert record not in spec.description.casefold(), (archetype.key, spec.name)
