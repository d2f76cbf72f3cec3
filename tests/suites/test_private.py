"""Private suites: `generate_workflows` / `generate_actions` (`suite generate`) and the
overlap with the packaged suites."""

from __future__ import annotations

from pathlib import Path

import pytest

from duplexbench.items import load_action_suite, load_suite
from duplexbench.items._load import item_checksum
from duplexbench.suites import _private
from duplexbench.suites._overlap import overlap
from duplexbench.suites._package import resolve_suite
from duplexbench.suites._private import (
    GeneratedInvalid,
    PrivateSuiteError,
    generate_actions,
    generate_workflows,
)
from duplexbench.suites._quality.qa import QualityReport
from duplexbench.suites.workflows.world import POOLS


def checksums(path: Path) -> dict[str, str]:
    return {i.id: item_checksum(i) for i in load_suite(path).items}


def test_a_seed_gives_a_valid_suite_that_records_how_it_was_made(tmp_path: Path) -> None:
    made = generate_workflows(3, tmp_path / "a", per_archetype=1)
    suite = load_suite(tmp_path / "a")
    assert made.name == suite.name == "workflows-seed3" and made.items == len(suite.items) == 12
    assert made.report is not None and made.report.ok
    generator = suite.manifest.generator if suite.manifest else None
    assert generator is not None
    assert (generator.name, generator.seed, generator.per_archetype, generator.pools) == (
        "duplexbench.suites.workflows",
        3,
        1,
        "private",
    )
    again = generate_workflows(3, tmp_path / "b", per_archetype=1)
    assert checksums(again.path) == checksums(made.path)  # the seed alone fixes the items
    other = generate_workflows(4, tmp_path / "c", per_archetype=1)
    assert set(checksums(other.path).values()).isdisjoint(checksums(made.path).values())


def test_private_pools_share_no_name_with_the_packaged_ones(tmp_path: Path) -> None:
    private, packaged = POOLS["private"], POOLS["packaged"]
    for part in ("first", "last", "companies", "streets"):
        assert set(getattr(private, part)).isdisjoint(getattr(packaged, part)), part
    orgs = {o for os in packaged.organizations.values() for o in os}
    assert orgs.isdisjoint(o for os in private.organizations.values() for o in os)
    assert private.organizations.keys() == packaged.organizations.keys()
    generate_workflows(3, tmp_path / "a", per_archetype=1)
    texts = " ".join(i.model_dump_json() for i in load_suite(tmp_path / "a").items)
    assert not [name for name in packaged.last if f" {name}" in texts]
    assert not [name for name in packaged.companies if name in texts]


@pytest.mark.parametrize("seed", [20, 21, 22])
def test_other_seeds_work(seed: int, tmp_path: Path) -> None:
    """Every seed works (`benchmarks/private_suites.py` checks 20 full-size seeds)."""
    assert generate_workflows(seed, tmp_path / "s", per_archetype=1).items == 12


def test_a_folder_in_the_way_or_a_bad_count_is_refused(tmp_path: Path) -> None:
    full = tmp_path / "full"
    full.mkdir()
    (full / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(PrivateSuiteError, match="not empty"):
        generate_workflows(1, full, per_archetype=1)
    assert [p.name for p in full.iterdir()] == ["notes.txt"]
    with pytest.raises(PrivateSuiteError, match="at least 1"):
        generate_workflows(1, tmp_path / "x", per_archetype=0)
    with pytest.raises(PrivateSuiteError, match="at least 1"):
        generate_actions(1, tmp_path / "y", per_condition=0, durations=lambda t, v: 1000)
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert generate_workflows(1, empty, per_archetype=1).items == 12  # an empty folder is fine


def test_items_that_fail_validation_write_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(items: object, progress: object = None) -> QualityReport:
        report = QualityReport()
        report.record("oracle passes", "form-completion-01", [("artifacts", "oracle failed")])
        return report

    monkeypatch.setattr(_private, "quality_report", failing)
    with pytest.raises(GeneratedInvalid, match="oracle failed"):
        generate_workflows(5, tmp_path / "bad", per_archetype=1)
    assert list(tmp_path.iterdir()) == []  # neither the suite nor its staging folder


def speech_free(text: str, voice: str) -> int:
    """A stand-in for the speech bank's durations: 60 ms per character."""
    return 60 * len(text)


def test_an_action_suite_from_a_seed(tmp_path: Path) -> None:
    made = generate_actions(11, tmp_path / "act", per_condition=1, durations=speech_free)
    suite = load_action_suite(tmp_path / "act")
    assert made.name == suite.name == "actions-seed11" and len(suite.items) == 24
    generator = suite.manifest.generator if suite.manifest else None
    assert generator is not None and (generator.seed, generator.per_condition) == (11, 1)


def test_overlap_counts_what_a_suite_shares_with_another() -> None:
    v2 = load_suite(resolve_suite("workflows-v2")).items
    same = overlap(v2, v2)
    assert same.values.rate == same.sentences.rate == same.items.rate == 1.0
    first, rest = v2[:10], v2[60:]
    apart = overlap(first, rest)
    assert apart.items.shared < apart.items.total  # other tasks, some shared wording
    assert apart.values.total > 0 and apart.values.shared <= apart.values.total
