"""The streaming VAD's noise floor: noise on the line is not speech; a clean line is unchanged."""

from __future__ import annotations

import numpy as np

from duplexbench.audio._pcm import Int16Array
from duplexbench.audio._vad import NOISE_MARGIN_DB, StreamingVad

SR = 16_000


def dbfs(level: float) -> float:
    return float(32768.0 * 10.0 ** (level / 20.0))


def noise(seconds: float, level: float, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(int(seconds * SR)) * dbfs(level)


def tone_at(x: np.ndarray, start_s: float, end_s: float, level: float) -> np.ndarray:
    t = np.arange(int((end_s - start_s) * SR)) / SR
    y = x.copy()
    a = int(start_s * SR)
    y[a : a + t.shape[0]] += np.sin(2 * np.pi * 220 * t) * dbfs(level) * np.sqrt(2)
    return y


def speech_ms(x: np.ndarray, frame_ms: int = 20, **kw: float | None) -> list[int]:
    """Start times (ms) of the frames the VAD is in speech."""
    pcm: Int16Array = np.clip(np.rint(x), -32768, 32767).astype(np.int16)
    vad = StreamingVad(noise_margin_db=kw.get("margin", NOISE_MARGIN_DB))
    n = SR * frame_ms // 1000
    return [i * 1000 // SR for i in range(0, len(pcm), n) if vad.push(pcm[i : i + n])]


def test_noise_from_the_first_frame_is_learned_within_4_s_then_is_not_speech() -> None:
    line = tone_at(noise(12, -35), 8.0, 9.0, -20)
    on = speech_ms(line)
    assert max(t for t in on if t < 8000) < 4400  # taken for speech ~4 s, then learned
    assert min(t for t in on if t >= 4400) >= 8000 and max(on) <= 9000 + 300  # the tone
    plain = StreamingVad()  # without the floor the noise is speech throughout
    pcm = np.clip(np.rint(line), -32768, 32767).astype(np.int16)
    assert sum(plain.push(pcm[i : i + 320]) for i in range(0, len(pcm), 320)) > 550


def test_dropped_frames_do_not_reset_the_floor() -> None:
    line = noise(12, -35)
    line[6 * SR : 6 * SR + 6400] = 0.0  # a 400 ms loss burst of digital silence
    assert [t for t in speech_ms(line) if t >= 4400] == []


def test_a_clean_line_decides_as_without_the_floor() -> None:
    x = np.zeros(10 * SR)
    for start in (1.0, 3.5, 7.0):
        x = tone_at(x, start, start + 1.5, -30)
    x[int(2.5 * SR) : 3 * SR] = noise(0.5, -70)  # a quiet tail: far below the threshold
    for frame_ms in (20, 200):
        assert speech_ms(x, frame_ms) == speech_ms(x, frame_ms, margin=None)
