"""FrameTape: one channel recorded frame by frame, sliced like the list of frames it replaces."""

from __future__ import annotations

import numpy as np
import pytest

from duplexbench.orchestrator._tape import FrameTape


def frame(value: int, n: int = 4) -> np.ndarray:
    return np.arange(value * n, value * n + n, dtype=np.int16)


def test_slices_match_the_list_of_frames_it_replaces() -> None:
    tape, frames = FrameTape(4, capacity_frames=2), []  # grows twice
    for i in range(7):
        tape.append(frame(i))
        frames.append(frame(i))
    assert len(tape) == 7
    for start, end in [(0, 7), (2, 5), (5, 9), (6, 3), (0, 0), (7, 7), (3, 100)]:
        part = frames[start:end]
        expected = np.concatenate(part) if part else np.zeros(0, np.int16)
        np.testing.assert_array_equal(tape.samples(start, end), expected)
    np.testing.assert_array_equal(tape.samples(), np.concatenate(frames))
    assert tape.samples().dtype == np.int16


def test_recorded_samples_never_change() -> None:
    tape = FrameTape(4, capacity_frames=1)
    tape.append(frame(1))
    first = tape.samples()
    for i in range(2, 10):  # regrowing the buffer leaves the earlier view as it was
        tape.append(frame(i))
    np.testing.assert_array_equal(first, frame(1))
    np.testing.assert_array_equal(tape.samples(0, 1), frame(1))
    with pytest.raises(ValueError, match="read-only"):
        first[0] = 7


def test_frames_of_another_size_and_bad_sizes_are_refused() -> None:
    tape = FrameTape(4)
    with pytest.raises(ValueError, match="4 samples, got 3"):
        tape.append(np.zeros(3, np.int16))
    assert len(tape) == 0
    with pytest.raises(ValueError, match="positive"):
        FrameTape(0)


def test_an_empty_tape_has_no_samples() -> None:
    assert len(FrameTape(320, 1000).samples()) == 0
