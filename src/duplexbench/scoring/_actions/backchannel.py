"""The function of a backchannel: affirmative or uncertainty.

Lexical first: the words are matched against two short phrase lists
(:data:`AFFIRMATIVE`, :data:`UNCERTAINTY`); a trailing `?` marks
uncertainty whatever the words. When the words say nothing (no known
phrase, or phrases of both kinds, e.g. a bare "hmm" or "oh"), prosody
breaks the tie: a final pitch rise of at least :data:`RISE_SEMITONES`
(median F0 of the segment's last :data:`FINAL_MS` ms against the median F0
of the part before it) marks uncertainty. Without audio, or without enough
voiced frames on both sides, nothing marks uncertainty and the backchannel
counts as affirmative: uncertainty needs positive evidence (a question
mark, an uncertainty word, or a rise), falling or flat intonation is the
unmarked reading.

F0 is a plain autocorrelation estimate (numpy only): 40 ms frames every
10 ms, lag range 70-400 Hz, a frame is voiced when its normalized
autocorrelation peak is at least :data:`VOICING_THRESHOLD` and its RMS at
least a tenth of the loudest frame's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

BackchannelFunction = Literal["affirmative", "uncertainty"]

AFFIRMATIVE: frozenset[str] = frozenset(
    {
        "yeah", "yes", "yep", "yup", "right", "okay", "ok", "mm-hmm", "mhm", "mm hmm",
        "uh-huh", "uh huh", "i see", "sure", "got it", "alright", "all right", "exactly",
        "of course", "absolutely", "totally", "true", "cool", "great", "nice", "good",
        "makes sense", "sounds good", "indeed", "definitely", "gotcha",
    }
)  # fmt: skip
"""Phrases that acknowledge, agree or encourage the speaker to go on."""

UNCERTAINTY: frozenset[str] = frozenset(
    {
        "huh", "really", "what", "wait", "sorry", "um", "uh", "umm", "pardon", "eh",
        "come again", "what do you mean", "i'm not sure", "not sure", "hang on",
    }
)  # fmt: skip
"""Phrases that signal doubt, surprise or a failure to follow."""

FINAL_MS = 300
RISE_SEMITONES = 2.0
VOICING_THRESHOLD = 0.5
FRAME_MS = 40
HOP_MS = 10
F0_MIN_HZ = 70.0
F0_MAX_HZ = 400.0
MIN_VOICED_FRAMES = 3
"""Voiced frames needed on each side (final part, earlier part) to compare."""

_WORD = re.compile(r"[a-z']+(?:-[a-z']+)*")


def lexical_function(words: Sequence[str]) -> BackchannelFunction | None:
    """The function the words alone show, or None when they are silent or mixed."""
    text = " ".join(words).strip()
    if text.endswith("?"):
        return "uncertainty"
    tokens = _WORD.findall(text.lower())
    joined = f" {' '.join(tokens)} "
    affirmative = any(f" {p} " in joined for p in AFFIRMATIVE)
    uncertain = any(f" {p} " in joined for p in UNCERTAINTY)
    if affirmative and not uncertain:
        return "affirmative"
    if uncertain and not affirmative:
        return "uncertainty"
    return None


def backchannel_function(
    words: Sequence[str],
    audio: npt.ArrayLike | None = None,
    sample_rate: int = 16_000,
) -> BackchannelFunction:
    """Affirmative or uncertainty: the words first, a final pitch rise as tie-breaker."""
    lexical = lexical_function(words)
    if lexical is not None:
        return lexical
    if audio is not None:
        rise = final_pitch_rise(audio, sample_rate)
        if rise is not None and rise >= RISE_SEMITONES:
            return "uncertainty"
    return "affirmative"


def final_pitch_rise(audio: npt.ArrayLike, sample_rate: int = 16_000) -> float | None:
    """Semitones from the earlier part's median F0 to the last 300 ms's (None: unknown)."""
    x = _as_float(audio)
    split = len(x) - sample_rate * FINAL_MS // 1000
    if split <= 0:
        return None
    f0, starts = pitch_track(x, sample_rate)
    frame = sample_rate * FRAME_MS // 1000
    centers = starts + frame // 2
    final = f0[(centers >= split) & (f0 > 0)]
    earlier = f0[(centers < split) & (f0 > 0)]
    if len(final) < MIN_VOICED_FRAMES or len(earlier) < MIN_VOICED_FRAMES:
        return None
    return float(12.0 * np.log2(np.median(final) / np.median(earlier)))


def pitch_track(
    x: npt.NDArray[np.float64], sample_rate: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Per-frame F0 in Hz (0 = unvoiced) and each frame's first sample."""
    frame = sample_rate * FRAME_MS // 1000
    hop = sample_rate * HOP_MS // 1000
    if len(x) < frame:
        return np.zeros(0), np.zeros(0, dtype=np.int64)
    starts = np.arange(0, len(x) - frame + 1, hop, dtype=np.int64)
    rms = np.array([np.sqrt(np.mean(x[s : s + frame] ** 2)) for s in starts])
    floor = max(float(rms.max()) * 0.1, 1e-4)
    lo = max(1, int(sample_rate / F0_MAX_HZ))
    hi = min(frame - 1, int(sample_rate / F0_MIN_HZ))
    f0 = np.zeros(len(starts))
    for i, s in enumerate(starts):
        if rms[i] < floor:
            continue
        seg = x[s : s + frame] - np.mean(x[s : s + frame])
        spectrum = np.fft.rfft(seg, 2 * frame)
        r = np.fft.irfft(np.abs(spectrum) ** 2)[:frame]
        if r[0] <= 0:
            continue
        lag = lo + int(np.argmax(r[lo : hi + 1]))
        if r[lag] / r[0] >= VOICING_THRESHOLD:
            f0[i] = sample_rate / _refine(r, lag)
    return f0, starts


def _refine(r: npt.NDArray[np.float64], lag: int) -> float:
    """Parabolic interpolation of the autocorrelation peak."""
    if lag <= 0 or lag >= len(r) - 1:
        return float(lag)
    a, b, c = float(r[lag - 1]), float(r[lag]), float(r[lag + 1])
    denom = a - 2 * b + c
    return float(lag) if denom == 0 else lag + 0.5 * (a - c) / denom


def _as_float(audio: npt.ArrayLike) -> npt.NDArray[np.float64]:
    arr = np.asarray(audio)
    if arr.dtype == np.int16:
        return arr.astype(np.float64) / 32768.0
    return arr.astype(np.float64)
