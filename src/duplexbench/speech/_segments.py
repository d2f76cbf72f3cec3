"""Timeline segments from the speech bank: trimmed, fitted to their span, spatialised.

An action item's segments carry exact start/end ms, computed when the suite
was built from :func:`speech_duration_ms` (the bank clip with leading and
trailing silence trimmed). At replay the same clip is trimmed again and fit
to its span: synthesized items (`exact`) tolerate :data:`FIT_TOLERANCE_MS`
of difference (padding or cutting the end) and otherwise fail with
`DurationMismatch` (the TTS engine renders differently from the one the
suite was built with; within :data:`NEAR_RATIO` the clip is time-scaled
instead); extracted items (`stretch`) are time-scaled to the corpus
timing. Then the role's rendering applies (other-directed speech off-axis,
background speech distant; addressed speech unchanged).
"""

from __future__ import annotations

from typing import Literal

from duplexbench.audio import (
    SAMPLE_RATE,
    DurationMismatch,
    Int16Array,
    fit_duration,
    render_role,
    trim_silence,
)
from duplexbench.speech._bank import SpeechBank
from duplexbench.speech._tts_types import SynthesisSettings

FIT_TOLERANCE_MS = 80
"""Largest difference between a clip and its span that `exact` fitting pads or cuts."""
NEAR_RATIO = 1.15
"""A synthesized clip within this ratio of its span (either way) but past the tolerance is
time-scaled to the span instead of failing: the TTS engine renders a little differently
from the build (piper pausing between the pieces of a long line), and the annotations
stay exact. Farther off is still a `DurationMismatch` (a different engine or text)."""

__all__ = ["FIT_TOLERANCE_MS", "DurationMismatch", "render_segment", "speech_duration_ms"]


def speech_duration_ms(bank: SpeechBank, text: str, voice: str) -> int:
    """Duration of the trimmed clip of `text` in `voice` (what a suite build places)."""
    return len(trim_silence(bank.clip(text, voice).samples)) * 1000 // SAMPLE_RATE


def render_segment(
    bank: SpeechBank,
    text: str,
    voice: str,
    role: Literal["user", "other", "background"],
    *,
    duration_ms: int,
    fit: Literal["exact", "stretch"] = "exact",
    settings: SynthesisSettings = SynthesisSettings(),  # noqa: B008 - frozen
) -> Int16Array:
    """The samples to place at the segment's start (the role effects may add a tail);
    `settings`: a caller persona's speed and pitch (a replay under the accents factor)."""
    clip = trim_silence(bank.clip(text, voice, settings).samples)
    target = duration_ms * SAMPLE_RATE // 1000
    tolerance = FIT_TOLERANCE_MS * SAMPLE_RATE // 1000
    try:
        fitted = fit_duration(clip, target, fit, tolerance)
    except DurationMismatch:
        near = len(clip) and 1 / NEAR_RATIO <= target / len(clip) <= NEAR_RATIO
        if fit != "exact" or not near:
            raise
        fitted = fit_duration(clip, target, "stretch", tolerance)
    return render_role(fitted, role)
