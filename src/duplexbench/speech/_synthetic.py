"""The ``synthetic`` TTS engine: deterministic speech-like audio in pure numpy.

It is NOT intelligible. Each syllable (estimated from vowel groups) becomes
a voiced burst with a pitch contour and formant-shaped harmonics, with a
short noise onset for the consonant; words are separated by short gaps and
``,`` / ``. ? !`` by longer pauses. The rate is about 4 syllables per second
times ``speed``; the voice name is hashed to choose f0 between 90 and 240 Hz.

Use it for tests, timing of the conversation loop and load generation where
speech has to *sound* like speech to a VAD but nobody has to understand it.
Never use it where an ASR or a person must recognise the words.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np
import numpy.typing as npt

from duplexbench.audio import Int16Array
from duplexbench.speech._tts_types import SynthesisSettings

__all__ = ["SyntheticTTS"]

RATE = 16_000
SYLLABLE_S = 0.25  # 4 syllables per second at speed 1
WORD_GAP_S = 0.06
COMMA_PAUSE_S = 0.25
SENTENCE_PAUSE_S = 0.45
EDGE_S = 0.05
F0_MIN, F0_MAX = 90.0, 240.0

_TOKEN = re.compile(r"[A-Za-z0-9']+|[,;:.?!]")
_VOWEL_GROUP = re.compile(r"[aeiouy]+")
# Rough (F1, F2, F3) in Hz for the first vowel letter of a syllable.
_FORMANTS = {
    "a": (730.0, 1090.0, 2440.0),
    "e": (530.0, 1840.0, 2480.0),
    "i": (270.0, 2290.0, 3010.0),
    "o": (570.0, 840.0, 2410.0),
    "u": (300.0, 870.0, 2240.0),
    "y": (400.0, 1900.0, 2600.0),
}
_FloatArray = npt.NDArray[np.float64]


def _syllables(word: str) -> list[str]:
    """Vowel groups of a word (one per syllable); digits count one syllable each."""
    lower = word.lower()
    if any(ch.isdigit() for ch in lower):
        return ["e" if ch.isdigit() else "a" for ch in lower if ch.isalnum()] or ["a"]
    groups = _VOWEL_GROUP.findall(lower)
    if len(groups) > 1 and lower.endswith("e") and groups[-1] == "e":
        groups.pop()  # silent final e: "make", "time"
    return groups or ["a"]


def _plan(text: str) -> list[tuple[str, str]]:
    """Events: ('syl', vowel), ('gap', ''), ('comma', ''), ('stop', kind)."""
    events: list[tuple[str, str]] = []
    for token in _TOKEN.findall(text):
        if token in ",;:":
            events.append(("comma", ""))
        elif token in ".?!":
            events.append(("stop", token))
        else:
            if events and events[-1][0] == "syl":
                events.append(("gap", ""))
            events.extend(("syl", group[0]) for group in _syllables(token))
    return events


def _f0_for(voice: str) -> float:
    digest = hashlib.sha256(voice.encode("utf-8")).digest()
    fraction = int.from_bytes(digest[:4], "big") / 2**32
    return F0_MIN + fraction * (F0_MAX - F0_MIN)


def _burst(
    n: int, f0_start: float, f0_end: float, vowel: str, rng: np.random.Generator
) -> _FloatArray:
    """One voiced syllable of ``n`` samples."""
    t = np.arange(n, dtype=np.float64) / n
    # Rise-fall within the syllable on top of the linear glide.
    f0 = f0_start + (f0_end - f0_start) * t + 0.04 * f0_start * np.sin(np.pi * t)
    phase = 2.0 * np.pi * np.cumsum(f0) / RATE
    formants = _FORMANTS.get(vowel, _FORMANTS["a"])
    base = float(np.mean(f0))
    harmonics = np.arange(1, int(4000.0 / base) + 1, dtype=np.float64)
    freqs = harmonics * base
    weights = np.zeros_like(freqs)
    for i, formant in enumerate(formants):
        bandwidth = 80.0 + 40.0 * i
        weights += (0.5**i) / (1.0 + ((freqs - formant) / bandwidth) ** 2)
    weights /= harmonics**0.5
    voiced = np.sin(np.outer(phase, harmonics)) @ weights
    voiced /= max(float(np.max(np.abs(voiced))), 1e-9)
    envelope = np.minimum(1.0, np.minimum(t / 0.15, (1.0 - t) / 0.25)).clip(0.0, 1.0)
    out = voiced * envelope**1.5
    onset = min(n // 5, int(0.03 * RATE))
    if onset > 0:
        noise = rng.standard_normal(onset) * 0.25
        out[:onset] += noise * np.linspace(1.0, 0.0, onset)
    return out


class SyntheticTTS:
    """Fast, dependency-free, unintelligible speech-like audio (see module docs)."""

    name = "synthetic"

    def version(self) -> str:
        return "synthetic-1"

    def voices(self) -> list[str]:
        # Any name works: it is hashed to a pitch. These are suggestions.
        return ["alto", "bass", "baritone", "soprano", "tenor"]

    def synthesize(
        self, text: str, voice: str, settings: SynthesisSettings
    ) -> tuple[Int16Array, int]:
        if not voice:
            raise ValueError("synthetic voice name must not be empty")
        speed = settings.speed
        seed = hashlib.sha256(f"{voice}\x00{text}".encode()).digest()
        rng = np.random.default_rng(int.from_bytes(seed[:8], "big"))
        f0 = _f0_for(voice)
        events = _plan(text)
        n_syl = max(1, sum(1 for kind, _ in events if kind == "syl"))
        question = text.rstrip().endswith("?")
        edge = np.zeros(int(EDGE_S * RATE))
        parts: list[_FloatArray] = [edge]
        syl_index = 0
        for kind, arg in events:
            if kind == "syl":
                # Declination over the utterance; a final rise for questions.
                pos = syl_index / n_syl
                start = f0 * (1.12 - 0.22 * pos)
                end = f0 * (1.12 - 0.22 * (syl_index + 1) / n_syl)
                if question and syl_index == n_syl - 1:
                    end = f0 * 1.35
                syl_index += 1
                n = int(SYLLABLE_S * RATE / speed)
                voiced_n = int(n * 0.78)
                parts.append(_burst(voiced_n, start, end, arg, rng))
                parts.append(np.zeros(n - voiced_n))
            else:
                pause = {"gap": WORD_GAP_S, "comma": COMMA_PAUSE_S}.get(kind, SENTENCE_PAUSE_S)
                parts.append(np.zeros(int(pause * RATE / speed)))
        parts.append(edge)
        audio = np.concatenate(parts) * 0.5 * 32767.0
        return np.rint(audio).astype(np.int16), RATE
