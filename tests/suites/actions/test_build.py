"""The packaged actions-v1 suite: composition, and it matches the generator."""

from __future__ import annotations

from pathlib import Path

from duplexbench.items._action import CONDITION_IDS, SCENARIOS
from duplexbench.items._action_suite import load_action_suite
from duplexbench.suites._action_stats import action_stats
from duplexbench.suites._package import DATA
from duplexbench.suites.actions.build import build, packaged_durations


def test_actions_v1_has_28_items_per_condition_balanced_over_scenarios() -> None:
    suite = load_action_suite(DATA / "actions-v1")
    stats = action_stats(suite.items)
    assert stats["items"] == 672
    assert stats["conditions"] == dict.fromkeys(CONDITION_IDS, 28)
    for condition in CONDITION_IDS:
        assert stats["conditions_by_scenario"][condition] == dict.fromkeys(SCENARIOS, 7)
    assert stats["under_minimum"] == []
    assert set(stats["voices"]) == {"piper:joe", "flite:slt", "flite:rms", "flite:awb"}


def test_packaged_actions_v1_matches_the_generator(tmp_path: Path) -> None:
    packaged = load_action_suite(DATA / "actions-v1")
    build(tmp_path, packaged_durations(packaged.items))
    rebuilt = load_action_suite(tmp_path / "actions-v1")
    assert rebuilt.manifest is not None and packaged.manifest is not None
    assert rebuilt.manifest.checksums == packaged.manifest.checksums
    assert rebuilt.manifest == packaged.manifest
