"""Out-of-turn caller sounds: Poisson at 0.7 per minute, never over the user's own speech."""

from __future__ import annotations

import pytest

from duplexbench.users._sounds import OutOfTurnConfig, OutOfTurnSounds


def schedule(seed: int, minutes: int, speaking: range | None = None) -> list[tuple[int, str]]:
    sounds = OutOfTurnSounds(OutOfTurnConfig(), seed)
    made: list[tuple[int, str]] = []
    for t in range(0, minutes * 60_000, 20):
        silent = speaking is None or t not in speaking
        sound = sounds.due(t, silent)
        if sound is not None:
            made.append((t, sound.kind))
    return made


def test_rate_is_about_0_7_per_minute_and_half_are_tics() -> None:
    made = schedule(1, 2000)
    assert len(made) / 2000 == pytest.approx(0.7, rel=0.06)
    tics = sum(kind == "vocal_tic" for _, kind in made)
    assert tics / len(made) == pytest.approx(0.5, abs=0.05)


def test_seeded_and_different_per_seed() -> None:
    assert schedule(3, 30) == schedule(3, 30)
    assert schedule(3, 30) != schedule(4, 30)


def test_a_sound_due_while_the_user_speaks_waits_for_silence() -> None:
    first = schedule(5, 10)[0][0]
    speaking = range(first - 1000, first + 3000)
    delayed = schedule(5, 10, speaking)
    assert delayed[0][0] == speaking.stop


def test_bad_config() -> None:
    with pytest.raises(ValueError):
        OutOfTurnConfig(per_minute=-1)
    with pytest.raises(ValueError):
        OutOfTurnConfig(remarks=())
