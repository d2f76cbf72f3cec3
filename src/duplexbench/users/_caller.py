"""The caller of one episode: persona, turn-taking, line effects and out-of-turn sounds.

A condition gives a :class:`CallerConfig` (a pool of personas, the line's effects,
out-of-turn sounds); :func:`freeze_caller` fixes it for one item x repetition:
the persona is drawn from the pool by a hash of (item, repetition seed) and sets
the user's interruption and backchannel tendencies (the neutral persona keeps the
condition's turn-taking as is); the effects chain and the user's random draws
get seeds derived the same way. The frozen caller is recorded in the trace
(`episode.condition`), so a trace says exactly who called and over which line.
Different repetitions get different seeds (different noise placement, different
persona draws); the same ones give byte-identical audio.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from typing import Any

from duplexbench.audio import EffectsConfig
from duplexbench.speech import (
    SpeechUnavailable,
    SynthesisSettings,
    VoiceRef,
    agent_voice_for,
    get_tts,
)
from duplexbench.users._decision import DeciderConfig
from duplexbench.users._personas import (
    NEUTRAL,
    PERSONAS_VERSION,
    CallerPersona,
    get_persona,
    persona_for,
)
from duplexbench.users._sounds import OutOfTurnConfig
from duplexbench.users._turntaking import TurnTakingConfig


@dataclass(frozen=True)
class CallerConfig:
    """What a condition asks of the caller (all personas named must exist)."""

    personas: tuple[str, ...] = (NEUTRAL,)
    effects: EffectsConfig | None = None
    out_of_turn: OutOfTurnConfig | None = None
    decider: DeciderConfig | None = None
    """Optional LLM decision model for interrupting (None: the seeded rule)."""
    noise_dir: str | None = None
    """Folder of WAV recordings per sound kind (`<kind>/*.wav`) for noise and bursts
    (None: the procedural sources)."""
    voice_fallback: bool = False
    """A persona whose engine is missing speaks with its fallback voice (recorded as
    `fallback_for`); False: the run stops before its first episode instead."""

    def __post_init__(self) -> None:
        if not self.personas:
            raise ValueError("a caller needs at least one persona")
        for name in self.personas:
            get_persona(name)  # unknown -> ValueError listing the names


def derived_seed(*parts: object) -> int:
    """A 32-bit seed from the parts (stable across runs and platforms)."""
    key = "|".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:4], "big")


@dataclass(frozen=True)
class FrozenCaller:
    persona: CallerPersona
    voice: str
    turn_taking: TurnTakingConfig
    effects: EffectsConfig | None
    out_of_turn: OutOfTurnConfig | None
    seed: int
    effects_seed: int = field(default=0)
    decider: DeciderConfig | None = None
    noise_dir: str | None = None
    fallback_for: str | None = None
    """The persona's own voice when its fallback speaks instead (engine missing)."""

    def settings(self) -> SynthesisSettings:
        """How the caller's clips are synthesized: the persona's rate and pitch, or, when
        its stand-in speaks (`fallback_for`), the rate at the stand-in's own pitch."""
        if self.fallback_for is None:
            return self.persona.settings()
        return self.persona.fallback_settings()

    def agent_voice(self, item_voice: str) -> str:
        """The voice lent to local agents opposite this caller: chosen against the item's
        voice (the clean caller's) too, so it is the same in every condition of a run
        (`speech/_agent_voice.py`)."""
        spoken = (self.voice, self.settings().pitch_semitones)
        return agent_voice_for([(item_voice, 0.0), spoken])

    def to_trace(self) -> dict[str, Any]:
        persona = self.persona.to_dict() | {"voice": self.voice, "table_version": PERSONAS_VERSION}
        if self.fallback_for is not None:  # how the stand-in spoke
            persona["fallback_for"] = self.fallback_for
            persona["pitch_semitones"] = self.settings().pitch_semitones
        return {
            "persona": persona,
            "turn_taking": self.turn_taking.to_dict(),
            "effects": None if self.effects is None else self.effects.to_dict(),
            "effects_seed": None if self.effects is None else self.effects_seed,
            "out_of_turn": None if self.out_of_turn is None else self.out_of_turn.to_dict(),
            "turn_decider": "rule" if self.decider is None else f"llm:{self.decider.model}",
            "noise_dir": self.noise_dir,
        }


@functools.cache
def missing_engine(voice: str) -> str | None:
    """Why the engine of `voice` cannot speak on this machine (install hint), else None."""
    try:
        get_tts(VoiceRef.parse(voice).engine).version()
    except SpeechUnavailable as exc:
        return str(exc)
    return None


def freeze_caller(
    config: CallerConfig,
    turn_taking: TurnTakingConfig,
    item_id: str,
    repetition_seed: int,
    voice: str,
) -> FrozenCaller:
    """Fix the caller for one item x repetition. `voice` is the item's (or an override);
    the neutral persona keeps it, every other persona speaks in its own voice."""
    persona = persona_for(f"{item_id}|{repetition_seed}", config.personas)
    neutral = persona.name == NEUTRAL
    if not neutral:
        turn_taking = turn_taking.for_persona(
            persona.interruption_tendency, persona.backchannel_tendency
        )
    spoken, fallback_for = voice, None
    if not neutral:
        spoken = persona.voice
        if config.voice_fallback and persona.fallback and missing_engine(persona.voice):
            spoken, fallback_for = persona.fallback, persona.voice
    return FrozenCaller(
        persona=persona,
        voice=spoken,
        fallback_for=fallback_for,
        turn_taking=turn_taking,
        effects=config.effects,
        out_of_turn=config.out_of_turn,
        seed=derived_seed("user", item_id, repetition_seed),
        effects_seed=derived_seed("line", item_id, repetition_seed),
        decider=config.decider,
        noise_dir=config.noise_dir,
    )
