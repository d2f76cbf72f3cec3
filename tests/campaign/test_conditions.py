"""The named conditions: three factors, presets, pairs and parsing."""

from __future__ import annotations

import pytest

from duplexbench.campaign._conditions import CONDITIONS, get_condition, parse_conditions
from duplexbench.users._personas import NEUTRAL, PERSONAS
from duplexbench.users._turntaking import NATURAL, POLITE


def test_presets_and_pairs() -> None:
    assert list(CONDITIONS) == [
        "clean",
        "realistic",
        "noise",
        "accents",
        "turn-taking",
        "noise+accents",
        "noise+turn-taking",
        "accents+turn-taking",
        "text",
    ]


def test_clean_is_neutral_polite_and_unprocessed() -> None:
    clean = get_condition("clean")
    assert clean.channel == "audio" and clean.turn_taking == POLITE
    assert clean.caller.personas == (NEUTRAL,)
    assert clean.caller.effects is None and clean.caller.out_of_turn is None


def test_realistic_turns_every_factor_on() -> None:
    real = get_condition("realistic")
    assert real.turn_taking == NATURAL
    assert set(real.caller.personas) == set(PERSONAS) - {NEUTRAL}
    assert real.caller.effects is not None and real.caller.out_of_turn is not None
    assert real.caller.effects.telephony and real.caller.effects.frame_drops


@pytest.mark.parametrize(
    ("name", "noise", "accents", "natural"),
    [
        ("noise", True, False, False),
        ("accents", False, True, False),
        ("turn-taking", False, False, True),
        ("noise+accents", True, True, False),
        ("noise+turn-taking", True, False, True),
        ("accents+turn-taking", False, True, True),
    ],
)
def test_ablations_turn_on_exactly_their_factors(
    name: str, noise: bool, accents: bool, natural: bool
) -> None:
    c = get_condition(name)
    assert (c.caller.effects is not None) is noise
    assert (c.caller.out_of_turn is not None) is noise
    assert (c.caller.personas != (NEUTRAL,)) is accents
    assert (c.turn_taking == NATURAL) is natural


def test_parse_conditions() -> None:
    parsed = parse_conditions("text, clean,realistic")
    assert [c.name for c in parsed] == ["text", "clean", "realistic"]
    assert parsed[1] is CONDITIONS["clean"]
    with pytest.raises(ValueError, match="unknown condition 'loud'"):
        parse_conditions("clean,loud")
    with pytest.raises(ValueError, match="twice"):
        parse_conditions("clean,clean")
    with pytest.raises(ValueError, match="no condition"):
        parse_conditions(" , ")
