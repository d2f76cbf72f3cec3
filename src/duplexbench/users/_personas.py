"""Caller personas: who the simulated user sounds like and how they talk.

A :class:`CallerPersona` fixes a voice (``engine:voice``), a speaking rate,
a pitch shift, a verbosity for the realizer
(:class:`~duplexbench.users._realization.Realizer`) and two tendencies for
the audio floor (how readily the caller interrupts and backchannels).

:data:`PERSONAS` holds the built-in personas: half of them speak with the two
neural voices (piper ``joe``, male; hibari ``heart``, female) at varied rates
and, for ``heart``, small pitch shifts; the others keep the robotic engines for
accent variety (flite ``awb`` Scottish; espeak-ng British, RP, Scottish,
Caribbean, New York, Lancashire and West Midlands English). :data:`NEUTRAL` is
the clean condition's caller: the default voice, plain, never interrupting.

:func:`persona_for` picks one deterministically from a sha256 of a key the
caller builds as ``f"{item_id}|{seed}|{repetition}"``, so one item gets
different callers across seeds and repetitions and the same caller on a re-run.
See ``docs/personas.md``.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Literal, get_args

from duplexbench.speech import SynthesisSettings, VoiceRef, check_pitch
from duplexbench.values import DEFAULT_SPELLING_STYLE, SpellingStyle

__all__ = [
    "FALLBACKS",
    "NEUTRAL",
    "PERSONAS",
    "PERSONAS_VERSION",
    "CallerPersona",
    "Verbosity",
    "default_pool",
    "get_persona",
    "persona_for",
]

Verbosity = Literal["terse", "plain", "verbose"]
DEFAULT_SPELLING: SpellingStyle = DEFAULT_SPELLING_STYLE
"""The neutral (clean-condition) caller's spelling style: the one that survives the
line best (docs/audio.md, "Spelling through the line")."""
_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class CallerPersona:
    """A simulated caller: voice, rate, pitch, verbosity and floor tendencies.

    ``interruption_tendency`` and ``backchannel_tendency`` are in [0, 1]
    (0 = never). ``voice`` is stored canonically (``default`` -> ``piper:joe``).
    A voice that cannot shift pitch (piper, flite ``rms``) needs
    ``pitch_semitones == 0``.
    """

    name: str
    voice: str
    speed: float
    pitch_semitones: float
    verbosity: Verbosity
    interruption_tendency: float
    backchannel_tendency: float
    description: str
    accent: str = ""
    fallback: str = ""
    """A neural voice that stands in when this persona's engine is missing, and only
    when the run allows it (`--allow-voice-fallback`); "": none (the neural ones)."""
    fallback_pitch: float = 0.0
    """The stand-in's pitch shift in semitones (0 for a voice that cannot shift)."""
    repair_budget: int = 3
    """Repairs of one value (repeat, spell, digits) made before the caller says it has
    said it already (it still answers: no request is a dead end)."""
    spelling: SpellingStyle = DEFAULT_SPELLING
    """How the caller spells a value when asked (phonetic words when asked for them)."""
    slows_to: float = 1.0
    """The slowest rate, as a factor of its own speed, the caller goes down to when asked
    to slow down (1.0: it does not slow down)."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"bad persona name {self.name!r}; use lowercase words joined by '-'")
        ref = VoiceRef.parse(self.voice)
        object.__setattr__(self, "voice", str(ref))
        settings = SynthesisSettings(speed=self.speed, pitch_semitones=self.pitch_semitones)
        object.__setattr__(self, "speed", settings.speed)
        object.__setattr__(self, "pitch_semitones", settings.pitch_semitones)
        check_pitch(ref.engine, ref.voice, settings.pitch_semitones)
        if self.fallback:
            fallback = VoiceRef.parse(self.fallback)
            object.__setattr__(self, "fallback", str(fallback))
            check_pitch(fallback.engine, fallback.voice, self.fallback_settings().pitch_semitones)
        elif self.fallback_pitch:
            raise ValueError(f"persona {self.name}: fallback_pitch without a fallback voice")
        if self.verbosity not in get_args(Verbosity):
            raise ValueError(
                f"persona {self.name}: verbosity must be one of "
                f"{', '.join(get_args(Verbosity))}, got {self.verbosity!r}"
            )
        self._check_repairs()
        for field in ("interruption_tendency", "backchannel_tendency"):
            value = float(getattr(self, field))
            if not math.isfinite(value) or not 0.0 <= value <= 1.0:
                raise ValueError(f"persona {self.name}: {field} must be in [0, 1], got {value!r}")
            object.__setattr__(self, field, value)

    def _check_repairs(self) -> None:
        if not 1 <= self.repair_budget <= MAX_REPAIR_BUDGET:
            raise ValueError(
                f"persona {self.name}: repair_budget must be in [1, {MAX_REPAIR_BUDGET}], "
                f"got {self.repair_budget!r}"
            )
        if self.spelling not in get_args(SpellingStyle):
            raise ValueError(
                f"persona {self.name}: spelling must be one of "
                f"{', '.join(get_args(SpellingStyle))}, got {self.spelling!r}"
            )
        slows_to = float(self.slows_to)
        if not math.isfinite(slows_to) or not MIN_SLOWS_TO <= slows_to <= 1.0:
            raise ValueError(
                f"persona {self.name}: slows_to must be in [{MIN_SLOWS_TO}, 1], got {slows_to!r}"
            )
        object.__setattr__(self, "slows_to", slows_to)

    def settings(self) -> SynthesisSettings:
        """The synthesis settings of this caller's clips (speed and pitch; gain 0)."""
        return SynthesisSettings(speed=self.speed, pitch_semitones=self.pitch_semitones)

    def fallback_settings(self) -> SynthesisSettings:
        """The stand-in voice's settings: the persona's rate at the stand-in's pitch."""
        return SynthesisSettings(speed=self.speed, pitch_semitones=self.fallback_pitch)

    def to_dict(self) -> dict[str, str | float]:
        return dict(asdict(self))


NEUTRAL = "neutral"
PERSONAS_VERSION = 4
"""The persona table's version, recorded in every audio episode's `episode.condition`
(`persona.table_version`): 1, flite and espeak-ng for all but two personas; 2, half
of them on the neural voices `piper:joe` and `hibari:heart` (docs/personas.md); 3,
repair traits: patience (repairs per value), spelling style, slowing down when asked;
4, the hibari personas and stand-ins moved 2 semitones or more from pitch 0, where the
agent's voice speaks (`speech/_agent_voice.py`).
Runs compare only within one version: the same persona name may sound different."""
MAX_REPAIR_BUDGET = 10
MIN_SLOWS_TO = 0.5

_Row = tuple[str, str, float, float, Verbosity, float, float, str, str]
# The fields of CallerPersona in order:
# name, voice, speed, pitch, verbosity, interruption, backchannel, description, accent
_TABLE: tuple[_Row, ...] = (
    (NEUTRAL, "piper:joe", 1.0, 0.0, "plain", 0.0, 0.0,
     "The clean condition's caller: default voice, plain words, never interrupts.",
     "American"),
    ("hurried-american", "piper:joe", 1.2, 0.0, "terse", 0.6, 0.1,
     "In a rush: fast, shortest answers, cuts in when the agent rambles.",
     "American"),
    ("patient-american", "hibari:heart", 0.9, -2.0, "verbose", 0.05, 0.6,
     "Unhurried and talkative; lets the agent finish and says mm-hm a lot.",
     "American"),
    ("matter-of-fact-american", "piper:joe", 1.05, 0.0, "plain", 0.3, 0.2,
     "Businesslike; answers what is asked, occasionally jumps in.",
     "American"),
    ("chatty-scot", "flite:awb", 0.95, -1.0, "verbose", 0.2, 0.5,
     "Friendly and wordy; frames every answer, backchannels often.",
     "Scottish"),
    ("clipped-american", "hibari:heart", 1.1, 2.0, "terse", 0.4, 0.1,
     "Clipped answers, interrupts now and then.",
     "American"),
    ("polite-british", "espeak:en+f3", 1.0, 1.0, "plain", 0.1, 0.4,
     "Courteous; waits for a pause, acknowledges what the agent says.",
     "British"),
    ("formal-rp", "espeak:en-gb-x-rp", 0.85, -3.0, "verbose", 0.0, 0.3,
     "Slow, low and formal; never interrupts.",
     "British (Received Pronunciation)"),
    ("impatient-scot", "espeak:en-gb-scotland+m3", 1.15, -2.0, "terse", 0.7, 0.1,
     "Impatient; short answers, barges in on long prompts.",
     "Scottish"),
    ("relaxed-caribbean", "espeak:en-029", 0.9, 0.0, "verbose", 0.15, 0.5,
     "Easygoing and expansive; rarely interrupts.",
     "Caribbean"),
    ("fast-new-yorker", "espeak:en-us-nyc", 1.25, 0.0, "terse", 0.8, 0.2,
     "Very fast, very brief, interrupts readily.",
     "American (New York City)"),
    ("bright-american", "hibari:heart", 1.1, 3.0, "plain", 0.35, 0.3,
     "High, quick and upbeat; sometimes talks over the agent.",
     "American"),
    ("easygoing-lancashire", "espeak:en-gb-x-gbclan+f2", 0.95, 0.0, "plain", 0.2, 0.4,
     "Steady and friendly; backchannels, seldom interrupts.",
     "British (Lancashire)"),
    ("steady-west-midlands", "espeak:en-gb-x-gbcwmd", 1.0, -1.0, "plain", 0.25, 0.3,
     "Even-paced and plain-spoken.",
     "British (West Midlands)"),
    ("soft-spoken-american", "hibari:heart", 0.95, 2.0, "plain", 0.1, 0.4,
     "Quiet and careful; answers fully, seldom cuts in.",
     "American"),
    ("brisk-american", "piper:joe", 1.15, 0.0, "terse", 0.5, 0.2,
     "Brisk and to the point; short answers, jumps in on long read-backs.",
     "American"),
    ("warm-american", "hibari:heart", 1.0, -3.0, "verbose", 0.15, 0.5,
     "Warm, lower voice; explains a little more than asked, backchannels.",
     "American"),
)  # fmt: skip

FALLBACKS: dict[str, tuple[str, float]] = {
    "chatty-scot": ("piper:joe", 0.0),
    "polite-british": ("hibari:heart", 2.0),
    "formal-rp": ("piper:joe", 0.0),
    "impatient-scot": ("piper:joe", 0.0),
    "relaxed-caribbean": ("piper:joe", 0.0),
    "fast-new-yorker": ("piper:joe", 0.0),
    "easygoing-lancashire": ("hibari:heart", -2.0),
    "steady-west-midlands": ("piper:joe", 0.0),
}
"""The robotic personas' stand-in voice (same sex) and its pitch shift when flite or
espeak-ng is missing and the run allows it: the words, rate and turn-taking stay, the
accent is lost. A ``hibari:heart`` stand-in is kept 2 semitones or more from the
agent's pitch, like the hibari personas (`speech/_agent_voice.py`)."""

_Repairs = tuple[int, SpellingStyle, float]
REPAIR_TRAITS: dict[str, _Repairs] = {
    NEUTRAL: (3, DEFAULT_SPELLING, 0.85),
    "hurried-american": (2, "letters", 0.95),
    "patient-american": (5, "phonetic", 0.8),
    "matter-of-fact-american": (3, "words", 0.9),
    "chatty-scot": (4, "confusable", 0.85),
    "clipped-american": (2, "letters", 1.0),
    "polite-british": (4, "phonetic", 0.85),
    "formal-rp": (4, "phonetic", 0.8),
    "impatient-scot": (2, "letters", 1.0),
    "relaxed-caribbean": (4, "confusable", 0.85),
    "fast-new-yorker": (2, "letters", 0.9),
    "bright-american": (3, "confusable", 0.9),
    "easygoing-lancashire": (4, "words", 0.85),
    "steady-west-midlands": (3, "confusable", 0.9),
    "soft-spoken-american": (4, "words", 0.85),
    "brisk-american": (2, "letters", 0.95),
    "warm-american": (4, "words", 0.85),
}
"""Each persona's (repair budget, spelling style, slows_to): impatient callers have
little patience and spell plain letters; careful ones spell with words (the word
alphabet, or the phonetic alphabet on the voices that say it well) and slow down more
(docs/personas.md)."""


def _persona(row: _Row) -> CallerPersona:
    budget, spelling, slows_to = REPAIR_TRAITS[row[0]]
    fallback, fallback_pitch = FALLBACKS.get(row[0], ("", 0.0))
    return CallerPersona(
        *row,
        fallback=fallback,
        fallback_pitch=fallback_pitch,
        repair_budget=budget,
        spelling=spelling,
        slows_to=slows_to,
    )


PERSONAS: dict[str, CallerPersona] = {row[0]: _persona(row) for row in _TABLE}


def get_persona(name: str) -> CallerPersona:
    """The built-in persona ``name``; unknown -> ValueError listing the names."""
    persona = PERSONAS.get(name)
    if persona is None:
        raise ValueError(f"unknown persona {name!r}; personas: {', '.join(PERSONAS)}")
    return persona


def default_pool() -> tuple[str, ...]:
    """Every built-in persona but :data:`NEUTRAL`, in registry order."""
    return tuple(name for name in PERSONAS if name != NEUTRAL)


def persona_for(key: str, pool: Sequence[str] | None = None) -> CallerPersona:
    """The persona for ``key`` (``f"{item_id}|{seed}|{repetition}"``), from ``pool``.

    Deterministic: ``pool[sha256(key) mod len(pool)]`` (first 8 bytes, big
    endian). The default pool is :func:`default_pool`. Changing the pool
    (adding, removing or reordering personas) changes the assignments.
    """
    names = default_pool() if pool is None else tuple(pool)
    if not names:
        raise ValueError("persona pool is empty")
    personas = [get_persona(name) for name in names]
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return personas[int.from_bytes(digest[:8], "big") % len(personas)]
