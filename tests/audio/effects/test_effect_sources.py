"""Sound sources: procedural kinds and WAV recording folders."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from duplexbench.audio._effects.sources import (
    BURST_KINDS,
    NOISE_KINDS,
    ProceduralSource,
    RecordingSource,
    make,
)
from duplexbench.audio._wav import write_wav

SR = 16_000


@pytest.mark.parametrize("kind", NOISE_KINDS + BURST_KINDS)
def test_procedural_kinds_are_finite_audible_and_deterministic(kind: str) -> None:
    n = SR * 3 + 11
    a = make(kind, n, np.random.default_rng(3))
    b = make(kind, n, np.random.default_rng(3))
    assert a.dtype == np.float32 and a.shape == (n,)
    assert np.all(np.isfinite(a)) and float(np.std(a)) > 0
    assert np.array_equal(a, b)
    assert make(kind, 0, np.random.default_rng(3)).shape == (0,)


def test_unknown_kind_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown sound kind"):
        make("thunder", 100, np.random.default_rng(0))


def _write(path: Path, samples: np.ndarray, rate: int = SR) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_wav(path, [samples.astype(np.int16)], rate)


def test_recording_source_resamples_and_loops(tmp_path: Path) -> None:
    t = np.arange(8000) / 8000
    _write(tmp_path / "indoor" / "hum.wav", 5000 * np.sin(2 * np.pi * 200 * t), rate=8000)
    _write(tmp_path / "dog_bark" / "bark.wav", np.full(SR // 2, 3000))
    source = RecordingSource(tmp_path)
    assert source.recordings["indoor"][0].shape == (SR,)  # 1 s at 8 kHz -> 16 kHz
    noise = source.make("indoor", SR * 3, np.random.default_rng(0))
    assert noise.shape == (SR * 3,)
    bark = source.make("dog_bark", SR, np.random.default_rng(0))
    assert bark.shape == (SR // 2,)  # a burst may be shorter than its slot
    fallback = source.make("siren", SR, np.random.default_rng(0))
    assert fallback.shape == (SR,)  # no recordings of this kind: procedural


def test_recording_source_rejects_unreadable_file(tmp_path: Path) -> None:
    bad = tmp_path / "outdoor" / "broken.wav"
    bad.parent.mkdir()
    bad.write_bytes(b"not a wav file at all")
    with pytest.raises(ValueError, match=r"broken\.wav"):
        RecordingSource(tmp_path)


def test_recording_source_rejects_silent_file(tmp_path: Path) -> None:
    _write(tmp_path / "car_horn" / "quiet.wav", np.zeros(SR))
    with pytest.raises(ValueError, match=r"quiet\.wav: silent"):
        RecordingSource(tmp_path)


def test_recording_source_needs_a_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        RecordingSource(tmp_path / "missing")


def test_procedural_source_matches_make() -> None:
    a = ProceduralSource().make("siren", 1000, np.random.default_rng(1))
    assert np.array_equal(a, make("siren", 1000, np.random.default_rng(1)))
