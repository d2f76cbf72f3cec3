"""Freezing the caller of one item x repetition: persona, tendencies, seeds."""

from __future__ import annotations

from duplexbench.audio._effects import EffectsConfig
from duplexbench.users._caller import CallerConfig, freeze_caller
from duplexbench.users._personas import NEUTRAL, PERSONAS, get_persona
from duplexbench.users._turntaking import NATURAL, POLITE

ALL = tuple(p for p in PERSONAS if p != NEUTRAL)


def test_neutral_caller_keeps_the_voice_and_the_turn_taking() -> None:
    c = freeze_caller(CallerConfig(), NATURAL, "item-1", 7, "synthetic:alto")
    assert c.persona.name == NEUTRAL and c.voice == "synthetic:alto"
    assert c.turn_taking == NATURAL and c.effects is None


def test_a_persona_speaks_in_its_voice_with_its_tendencies() -> None:
    config = CallerConfig(personas=("fast-new-yorker",))
    c = freeze_caller(config, NATURAL, "item-1", 7, "piper:joe")
    persona = get_persona("fast-new-yorker")
    assert c.voice == persona.voice
    assert c.turn_taking.interrupt_probability == persona.interruption_tendency
    assert c.turn_taking.backchannel_sentences == (4, 6)  # backchannel tendency 0.2: as is
    chatty = freeze_caller(CallerConfig(personas=("chatty-scot",)), NATURAL, "i", 7, "x:y")
    assert chatty.turn_taking.backchannel_sentences == (3, 5)
    polite = freeze_caller(config, POLITE, "item-1", 7, "piper:joe")
    assert polite.turn_taking == POLITE  # no checks: tendencies do not apply


def test_same_inputs_same_caller_other_repetitions_other_seeds() -> None:
    config = CallerConfig(personas=ALL, effects=EffectsConfig())
    a = freeze_caller(config, NATURAL, "item-1", 7, "piper:joe")
    assert a == freeze_caller(config, NATURAL, "item-1", 7, "piper:joe")
    others = [freeze_caller(config, NATURAL, "item-1", r, "piper:joe") for r in range(40)]
    assert len({o.effects_seed for o in others}) == 40
    assert len({o.persona.name for o in others}) >= 6
    trace = a.to_trace()
    assert trace["effects_seed"] == a.effects_seed and trace["persona"]["voice"] == a.voice
