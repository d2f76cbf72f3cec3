"""Caller personas: the registry, validation, deterministic choice, and that every voice speaks."""

from __future__ import annotations

import dataclasses
import hashlib
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from duplexbench.speech import (
    AGENT_FALLBACK_VOICE,
    AGENT_PITCH_GAP,
    AGENT_VOICE,
    agent_voice_for,
)
from duplexbench.speech import _engines as engines
from duplexbench.speech._tts import SpeechUnavailable, SynthesisSettings, VoiceRef, get_tts
from duplexbench.users._personas import (
    NEUTRAL,
    PERSONAS,
    CallerPersona,
    default_pool,
    get_persona,
    persona_for,
)

SENTENCE = "Hi, I need to change my booking to Thursday at three."

_BINARY_MISSING = {
    "espeak": shutil.which("espeak-ng") is None,
    "flite": shutil.which("flite") is None and not Path(engines.FLITE_FALLBACK).exists(),
}


def _persona_param(persona: CallerPersona) -> Any:
    engine = VoiceRef.parse(persona.voice).engine
    mark = pytest.mark.skipif(
        _BINARY_MISSING.get(engine, False), reason=f"{engine} binary not installed"
    )
    return pytest.param(persona, id=persona.name, marks=mark)


def _engine_or_skip(engine: str) -> Any:
    try:
        return get_tts(engine)
    except SpeechUnavailable as exc:
        pytest.skip(f"{engine} engine not installed: {exc}")


# ------------------------------------------------------------------ registry


def test_neutral_is_the_default_voice_plain_and_calm() -> None:
    neutral = get_persona(NEUTRAL)
    assert NEUTRAL == "neutral"
    assert (neutral.voice, neutral.speed, neutral.pitch_semitones) == ("piper:joe", 1.0, 0.0)
    assert neutral.verbosity == "plain"
    assert neutral.interruption_tendency == 0.0
    assert neutral.settings() == SynthesisSettings()
    assert neutral.settings().as_dict() == {"speed": 1.0, "gain_db": 0.0}


def test_registry_is_keyed_by_name_and_varied() -> None:
    assert len(PERSONAS) >= 7
    assert all(name == p.name for name, p in PERSONAS.items())
    pool = [PERSONAS[name] for name in default_pool()]
    assert NEUTRAL not in default_pool() and len(pool) == len(PERSONAS) - 1
    assert len({p.voice for p in pool}) >= 10
    assert {p.verbosity for p in pool} == {"terse", "plain", "verbose"}
    speeds = [p.speed for p in pool]
    assert min(speeds) <= 0.9 and max(speeds) >= 1.2
    assert all(0.85 <= s <= 1.25 for s in speeds)
    assert min(p.pitch_semitones for p in pool) < 0 < max(p.pitch_semitones for p in pool)
    tendencies = [p.interruption_tendency for p in pool]
    assert min(tendencies) <= 0.1 and max(tendencies) >= 0.7
    assert all(p.description and p.accent for p in PERSONAS.values())


def test_half_the_callers_speak_with_the_two_neural_voices() -> None:
    pool = [PERSONAS[name] for name in default_pool()]
    neural = [p for p in pool if p.voice.startswith(("piper:", "hibari:"))]
    assert 2 * len(neural) >= len(pool)
    assert {p.voice for p in neural} == {"piper:joe", "hibari:heart"}  # male and female
    assert len({(p.speed, p.pitch_semitones) for p in neural}) == len(neural)  # all differ
    assert all(abs(p.pitch_semitones) <= 3 and 0.9 <= p.speed <= 1.2 for p in neural)
    assert all(not p.fallback for p in neural)


def test_no_caller_sounds_like_the_agent() -> None:
    """The agent speaks AGENT_VOICE at pitch 0: every caller on that voice, stand-ins
    included, keeps AGENT_PITCH_GAP semitones away, so the agent keeps its voice."""
    spoken = [(p.voice, p.pitch_semitones) for p in PERSONAS.values()]
    spoken += [(p.fallback, p.fallback_pitch) for p in PERSONAS.values() if p.fallback]
    on_agent_voice = [pitch for voice, pitch in spoken if voice == str(AGENT_VOICE)]
    assert len(on_agent_voice) == 7  # five hibari personas and two stand-ins
    assert all(abs(pitch) >= AGENT_PITCH_GAP for pitch in on_agent_voice)
    for persona in PERSONAS.values():
        assert agent_voice_for([(persona.voice, persona.pitch_semitones)]) == str(AGENT_VOICE)


def test_a_caller_on_the_agent_voice_gets_an_agent_in_another() -> None:
    assert agent_voice_for([("hibari:heart", 0.0)]) == str(AGENT_FALLBACK_VOICE)
    assert agent_voice_for([("piper:joe", 0.0), ("hibari:heart", -1.5)]) == "piper:joe"
    assert agent_voice_for([("hibari:heart", 2.0), ("default", 0.0)]) == "hibari:heart"
    assert agent_voice_for([("synthetic:alto", 0.0)]) == "synthetic:alto"  # tests, timing
    with pytest.raises(ValueError, match="cannot shift pitch"):  # a stand-in it cannot say
        dataclasses.replace(PERSONAS["formal-rp"], fallback_pitch=1.0)
    with pytest.raises(ValueError, match="without a fallback"):
        dataclasses.replace(PERSONAS["warm-american"], fallback_pitch=1.0)


def test_every_robotic_caller_has_a_neural_fallback_and_an_accent() -> None:
    robotic = [p for p in PERSONAS.values() if p.voice.startswith(("flite:", "espeak:"))]
    assert robotic and all(p.fallback in ("piper:joe", "hibari:heart") for p in robotic)
    assert all(p.accent != "American" for p in robotic if p.name != "fast-new-yorker")


def test_registry_covers_the_accent_families() -> None:
    voices = {p.voice for p in PERSONAS.values()}
    assert "flite:awb" in voices
    espeak_bases = {v.split(":", 1)[1].split("+")[0] for v in voices if v.startswith("espeak:")}
    assert {"en", "en-gb-scotland", "en-029", "en-gb-x-rp", "en-us-nyc"} <= espeak_bases
    assert {"en-gb-x-gbclan", "en-gb-x-gbcwmd"} <= espeak_bases
    accents = {p.accent.split(" (")[0] for p in PERSONAS.values()}
    assert {"American", "British", "Scottish", "Caribbean"} <= accents


def test_get_persona_error_lists_the_names() -> None:
    with pytest.raises(ValueError, match="unknown persona 'nobody'") as err:
        get_persona("nobody")
    for name in PERSONAS:
        assert name in str(err.value)


def test_settings_and_dict() -> None:
    persona = get_persona("formal-rp")
    assert persona.settings() == SynthesisSettings(speed=0.85, pitch_semitones=-3.0)
    data: dict[str, Any] = persona.to_dict()
    assert data["voice"] == "espeak:en-gb-x-rp" and data["verbosity"] == "verbose"
    assert set(data) == {f.name for f in dataclasses.fields(CallerPersona)}
    assert CallerPersona(**data) == persona


# ---------------------------------------------------------------- validation


def _make(**changes: Any) -> CallerPersona:
    base: dict[str, Any] = dict(get_persona("polite-british").to_dict())
    base.update(changes)
    return CallerPersona(**base)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "Bad Name"}, "bad persona name"),
        ({"voice": "joe"}, "engine:voice"),
        ({"speed": 0.0}, "speed"),
        ({"pitch_semitones": 13.0}, "pitch_semitones"),
        ({"verbosity": "normal"}, "verbosity"),
        ({"interruption_tendency": 1.5}, "interruption_tendency"),
        ({"backchannel_tendency": -0.1}, "backchannel_tendency"),
        ({"voice": "piper:joe", "pitch_semitones": 2.0}, "piper:joe"),
        ({"voice": "flite:rms", "pitch_semitones": -1.0}, "flite:rms"),
    ],
)
def test_persona_validation(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _make(**changes)


def test_persona_canonicalizes() -> None:
    persona = _make(voice="default", pitch_semitones=0, speed=1, interruption_tendency=0)
    assert persona.voice == "piper:joe"
    assert isinstance(persona.speed, float) and isinstance(persona.interruption_tendency, float)


# ---------------------------------------------------------------- choice


def test_persona_for_is_deterministic_and_spreads() -> None:
    assert persona_for("item-1|0|0") == persona_for("item-1|0|0")
    chosen = Counter(persona_for(f"item-{i}|{seed}|0").name for i in range(60) for seed in (0, 1))
    assert NEUTRAL not in chosen
    assert len(chosen) == len(default_pool())  # 120 draws reach all of them
    across_reps = {persona_for(f"item-1|0|{rep}").name for rep in range(20)}
    assert len(across_reps) > 1


def test_persona_for_uses_the_pool() -> None:
    pool = ["chatty-scot", "fast-new-yorker"]
    picks = {persona_for(f"x|{i}|0", pool).name for i in range(40)}
    assert picks == set(pool)
    assert persona_for("anything", [NEUTRAL]).name == NEUTRAL
    with pytest.raises(ValueError, match="empty"):
        persona_for("x", [])
    with pytest.raises(ValueError, match="unknown persona"):
        persona_for("x", ["nobody"])


def test_persona_for_is_sha256_of_the_key() -> None:
    key = "workflow-042|7|3"
    pool = default_pool()
    index = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") % len(pool)
    assert persona_for(key).name == pool[index]


# ------------------------------------------------------------ synthesis


@pytest.mark.parametrize("persona", [_persona_param(p) for p in PERSONAS.values()])
def test_every_persona_voice_synthesizes(persona: CallerPersona) -> None:
    ref = VoiceRef.parse(persona.voice)
    engine = _engine_or_skip(ref.engine)
    samples, rate = engine.synthesize(SENTENCE, ref.voice, persona.settings())
    assert samples.dtype == np.int16 and samples.ndim == 1
    assert 0.8 <= len(samples) / rate <= 8.0
    assert int(np.abs(samples.astype(np.int32)).max()) > 1000
    if "+" in ref.voice:
        # espeak-ng silently drops a variant after some names (en-gb+f3 == en-gb):
        # make sure ours really changes the voice.
        base = ref.voice.split("+")[0]
        plain, _ = engine.synthesize(SENTENCE, base, persona.settings())
        assert plain.tobytes() != samples.tobytes()


def test_repair_traits_are_valid_and_the_docs_table_matches_them() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "personas.md").read_text()
    rows = re.findall(r"^\| `([a-z-]+)` \| (\d+) \| (\w+) \| ([\d.]+) \|$", doc, re.M)
    assert len(rows) == len(PERSONAS)
    for name, budget, spelling, slows_to in rows:
        persona = PERSONAS[name]
        assert (persona.repair_budget, persona.spelling, persona.slows_to) == (
            int(budget),
            spelling,
            float(slows_to),
        )


def test_bad_repair_traits_are_refused() -> None:
    base = PERSONAS["neutral"]
    changes: list[dict[str, Any]] = [
        {"repair_budget": 0},
        {"spelling": "morse"},
        {"slows_to": 0.2},
    ]
    for change in changes:
        with pytest.raises(ValueError, match="persona"):
            dataclasses.replace(base, **change)
