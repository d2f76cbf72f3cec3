"""WAV files: what is written reads back sample for sample, empty channels included."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from duplexbench.audio import _wav as wav
from duplexbench.audio._wav import read_wav, write_wav


def test_stereo_round_trip_pads_the_shorter_channel(tmp_path: Path) -> None:
    left = np.array([1, -2, 32767, -32768], np.int16)
    right = np.array([5, 6], np.int16)
    write_wav(tmp_path / "a.wav", [left, right], 16000)
    (l2, r2), rate = read_wav(tmp_path / "a.wav")
    assert rate == 16000
    np.testing.assert_array_equal(l2, left)
    np.testing.assert_array_equal(r2, [5, 6, 0, 0])


def test_an_episode_that_ended_before_its_first_frame_writes_an_empty_file(
    tmp_path: Path,
) -> None:
    empty = np.zeros(0, np.int16)
    write_wav(tmp_path / "a.wav", [empty, empty], 16000)
    channels, rate = read_wav(tmp_path / "a.wav")
    assert rate == 16000 and [len(c) for c in channels] == [0, 0]


def test_writing_block_by_block_gives_the_same_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(7)
    user = rng.integers(-32768, 32767, 1000, dtype=np.int16)
    agent = rng.integers(-32768, 32767, 777, dtype=np.int16)
    write_wav(tmp_path / "whole.wav", [user, agent], 16000)
    monkeypatch.setattr(wav, "WRITE_BLOCK_FRAMES", 64)  # 16 blocks, the last one short
    write_wav(tmp_path / "blocks.wav", [user, agent], 16000)
    assert (tmp_path / "blocks.wav").read_bytes() == (tmp_path / "whole.wav").read_bytes()
    (back_user, back_agent), _ = read_wav(tmp_path / "blocks.wav")
    assert np.array_equal(back_user, user) and np.array_equal(back_agent[:777], agent)
    assert not back_agent[777:].any()
