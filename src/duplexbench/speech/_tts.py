"""Text-to-speech: voice references and the registry of engines.

A voice is named ``engine:voice`` (:class:`VoiceRef`), e.g. ``piper:joe``,
``espeak:en-us+f3``, ``flite:slt`` or ``synthetic:alto``. The built-in engines
are named in ``_BUILTIN_ENGINES`` (each module is imported when its engine
is first built); others register a zero-argument factory with
:func:`register_tts`. :func:`get_tts` builds one instance per process and
raises :class:`SpeechUnavailable` (naming what to install) when the engine's
package or binary is missing.

The types every engine shares (:class:`SynthesisSettings`, the
:class:`TTSEngine` protocol, the errors) are in
:mod:`duplexbench.speech._tts_types`, below the engines; they are exported
from here too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from duplexbench.speech._registry import EngineRegistry
from duplexbench.speech._tts_types import (
    MAX_PITCH_SEMITONES,
    MAX_SPEED,
    SpeechUnavailable,
    SynthesisSettings,
    TTSEngine,
    TTSError,
    TTSFactory,
)

__all__ = [
    "DEFAULT_VOICE",
    "MAX_PITCH_SEMITONES",
    "MAX_SPEED",
    "SpeechUnavailable",
    "SynthesisSettings",
    "TTSEngine",
    "TTSError",
    "TTSFactory",
    "VoiceRef",
    "get_tts",
    "register_tts",
    "tts_engines",
]

_BUILTIN_ENGINES = {
    "synthetic": "duplexbench.speech._synthetic:SyntheticTTS",
    "piper": "duplexbench.speech._engines:PiperTTS",
    "espeak": "duplexbench.speech._engines:EspeakTTS",
    "flite": "duplexbench.speech._engines:FliteTTS",
    "hibari": "duplexbench.speech._hibari:HibariTTS",
    "pico": "duplexbench.speech._pico:PicoTTS",
}
"""The built-in engines: name -> ``module:class`` of the engine, imported when it is
first built (hibari and ttspico themselves load later, when their model is first used)."""

if TYPE_CHECKING:  # mypy checks that each built-in class builds a TTSEngine; never run
    from duplexbench.speech._engines import EspeakTTS, FliteTTS, PiperTTS
    from duplexbench.speech._hibari import HibariTTS
    from duplexbench.speech._pico import PicoTTS
    from duplexbench.speech._synthetic import SyntheticTTS

    _BUILTIN_FACTORIES: tuple[TTSFactory, ...] = (
        SyntheticTTS,
        PiperTTS,
        EspeakTTS,
        FliteTTS,
        HibariTTS,
        PicoTTS,
    )


@dataclass(frozen=True)
class VoiceRef:
    """A voice of one engine, written ``engine:voice``."""

    engine: str
    voice: str

    def __post_init__(self) -> None:
        if not self.engine or not self.voice:
            raise ValueError(
                f"voice needs an engine and a voice name, got {self.engine!r}:{self.voice!r}"
            )

    @classmethod
    def parse(cls, text: str) -> VoiceRef:
        """``engine:voice`` -> VoiceRef; ``default`` or an empty string -> :data:`DEFAULT_VOICE`."""
        raw = text.strip()
        if raw in ("", "default"):
            return DEFAULT_VOICE
        engine, sep, voice = raw.partition(":")
        engine, voice = engine.strip().lower(), voice.strip()
        if not sep or not engine or not voice:
            raise ValueError(
                f"bad voice {text!r}; expected 'engine:voice' (e.g. 'piper:joe', "
                f"'espeak:en-us+f3', 'flite:slt', 'synthetic:alto') or 'default'; "
                f"engines: {', '.join(tts_engines())}"
            )
        return cls(engine, voice)

    def __str__(self) -> str:
        return f"{self.engine}:{self.voice}"


DEFAULT_VOICE = VoiceRef("piper", "joe")

REGISTRY: EngineRegistry[TTSEngine] = EngineRegistry("TTS", _BUILTIN_ENGINES)


def register_tts(name: str) -> Callable[[TTSFactory], TTSFactory]:
    """Register a zero-argument engine factory under ``name`` (lowercase, no ':')."""
    if not name or name != name.lower() or ":" in name or name.strip() != name:
        raise ValueError(f"bad engine name {name!r}; use a lowercase name without ':'")
    return REGISTRY.register(name)


def tts_engines() -> list[str]:
    """Names of the registered engines (installed or not)."""
    return REGISTRY.names()


def get_tts(name: str) -> TTSEngine:
    """The process-wide instance of engine ``name``.

    Unknown name -> ValueError listing the engines; engine not installed ->
    :class:`SpeechUnavailable` (not cached, so installing it later works).
    """
    return REGISTRY.get(name)
