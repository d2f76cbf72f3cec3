"""Speech: text-to-speech engines, the frozen speech bank and speech recognition.

- :mod:`~duplexbench.speech.tts` — ``VoiceRef`` (``engine:voice``),
  ``SynthesisSettings``, the ``TTSEngine`` protocol and registry.
- :mod:`~duplexbench.speech.engines` — ``piper`` (default voice ``piper:joe``),
  ``espeak`` and ``flite``; :mod:`~duplexbench.speech.synthetic` — the fast,
  unintelligible ``synthetic`` engine for tests and loop timing.
- :mod:`~duplexbench.speech.bank` — ``SpeechBank``: render once, keep on disk.
- :mod:`~duplexbench.speech.asr` — ``ASREngine`` and the ``whisper`` backend.

Optional engines load lazily: importing this package needs only numpy/soxr.
"""

from duplexbench.speech.asr import ASREngine, Transcript, Word, asr_engines, get_asr, register_asr
from duplexbench.speech.bank import BankStats, Clip, PrerenderReport, SpeechBank
from duplexbench.speech.tts import (
    DEFAULT_VOICE,
    SpeechUnavailable,
    SynthesisSettings,
    TTSEngine,
    VoiceRef,
    get_tts,
    register_tts,
    tts_engines,
)

__all__ = [
    "DEFAULT_VOICE",
    "ASREngine",
    "BankStats",
    "Clip",
    "PrerenderReport",
    "SpeechBank",
    "SpeechUnavailable",
    "SynthesisSettings",
    "TTSEngine",
    "Transcript",
    "VoiceRef",
    "Word",
    "asr_engines",
    "get_asr",
    "get_tts",
    "register_asr",
    "register_tts",
    "tts_engines",
]
