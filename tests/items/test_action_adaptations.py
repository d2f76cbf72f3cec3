"""Every Hold Floor / Recover condition names the adaptation it requires; no other does."""

from __future__ import annotations

from duplexbench.items._action import CONDITIONS, adaptation_of


def test_each_cued_speaking_condition_has_its_adaptation() -> None:
    for action, names in CONDITIONS.items():
        for name in names:
            adaptation = adaptation_of(f"{action}.{name}")
            if action in ("hold_floor", "recover"):
                assert adaptation is not None, name
            else:
                assert adaptation is None, name
    assert adaptation_of("hold_floor.background_speech") == "ignore_distractor"
    assert adaptation_of("recover.revise") == "revise"
