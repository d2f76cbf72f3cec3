"""What an ASR engine returns: a :class:`Transcript` of :class:`Word` timings and
:class:`TranscriptSegment` confidences (shared by :mod:`~duplexbench.speech._asr` and the
transcript cache, :mod:`~duplexbench.speech._transcripts`)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EMPTY", "Transcript", "TranscriptSegment", "Word"]


@dataclass(frozen=True)
class Word:
    """One recognized word and when it was said (ms from the audio's start)."""

    text: str
    start_ms: int
    end_ms: int


@dataclass(frozen=True)
class TranscriptSegment:
    """One decoded stretch and how sure the decoder was of it (whisper's conventions).

    ``avg_logprob``: the mean natural-log probability per token of the decoded
    text (<= 0; whisper calls below -1.0 low confidence). ``no_speech_prob``: the
    probability that the stretch held no speech (in [0, 1]; whisper calls above
    0.6 likely not speech). faster-whisper scores a whole 30 s window, so the
    segments of one window carry the same two values.
    """

    text: str
    start_ms: int
    end_ms: int
    avg_logprob: float
    no_speech_prob: float


@dataclass(frozen=True)
class Transcript:
    """The text heard, its word timings and, per segment, the decoder's confidence.

    ``segments`` empty means the confidence is unknown: the engine reports none
    (an engine may return ``Transcript(text, words)``), or nothing was decoded
    (silence, or every window skipped as no speech).
    """

    text: str
    words: tuple[Word, ...]
    segments: tuple[TranscriptSegment, ...] = ()

    @property
    def min_logprob(self) -> float | None:
        """The lowest ``avg_logprob`` of the segments (the least sure stretch); None:
        no segments."""
        return min((s.avg_logprob for s in self.segments), default=None)

    @property
    def mean_logprob(self) -> float | None:
        """The mean ``avg_logprob`` of the segments, each counted once; None: no segments."""
        if not self.segments:
            return None
        return sum(s.avg_logprob for s in self.segments) / len(self.segments)

    @property
    def max_no_speech_prob(self) -> float | None:
        """The highest ``no_speech_prob`` of the segments; None: no segments."""
        return max((s.no_speech_prob for s in self.segments), default=None)


EMPTY = Transcript("", ())
