"""Freezing the caller of one item x repetition: persona, tendencies, seeds."""

from __future__ import annotations

from dataclasses import replace

import pytest

from duplexbench.audio._effects import EffectsConfig
from duplexbench.speech import SynthesisSettings
from duplexbench.users import _caller as caller_module
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


def test_a_fallback_speaks_only_when_allowed_and_drops_a_pitch_it_cannot_shift(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bug: formal-rp (pitch -3) fell back to piper:joe, which cannot shift pitch, and
    every clip of such an episode failed."""
    monkeypatch.setattr(
        caller_module, "missing_engine", lambda voice: "gone" if "espeak" in voice else None
    )
    rp = CallerConfig(personas=("formal-rp",))
    assert freeze_caller(rp, NATURAL, "i", 7, "x:y").voice == "espeak:en-gb-x-rp"  # not allowed
    c = freeze_caller(replace(rp, voice_fallback=True), NATURAL, "i", 7, "x:y")
    assert (c.voice, c.fallback_for) == ("piper:joe", "espeak:en-gb-x-rp")
    assert c.settings() == SynthesisSettings(speed=0.85)  # the rate kept, the pitch left out
    persona = c.to_trace()["persona"]
    assert persona["fallback_for"] == "espeak:en-gb-x-rp" and persona["pitch_semitones"] == 0
    lancs = CallerConfig(personas=("easygoing-lancashire",), voice_fallback=True)
    stand_in = freeze_caller(lancs, NATURAL, "i", 7, "x:y")
    assert stand_in.voice == "hibari:heart"  # at its own pitch, away from the agent's voice
    assert stand_in.settings() == SynthesisSettings(speed=0.95, pitch_semitones=-2.0)
    own = freeze_caller(CallerConfig(personas=("bright-american",), voice_fallback=True),
                        NATURAL, "i", 7, "x:y")  # fmt: skip
    assert own.fallback_for is None and own.settings().pitch_semitones == 3
