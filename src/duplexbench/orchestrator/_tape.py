"""One audio channel of an episode, recorded frame by frame into one buffer.

The loops record both channels of every 20 ms frame. Kept as a list of
per-frame arrays, a 20-minute episode held 120,000 small arrays (85 MiB) and
joined them into a second copy at the end; the tape writes each frame into a
preallocated int16 buffer instead, and `samples()` is a view of what was
recorded, without a copy. The buffer is allocated with `np.zeros` for the
expected length (the episode's time limit): pages that no frame reaches are
never touched, so they cost address space, not memory. A tape that outgrows
its capacity (frames flushed after the limit) doubles it.
"""

from __future__ import annotations

import numpy as np

from duplexbench.audio import Int16Array


class FrameTape:
    """A growing int16 channel with fixed-size frames, sliced by frame index."""

    def __init__(self, frame_samples: int, capacity_frames: int = 0) -> None:
        if frame_samples <= 0:
            raise ValueError(f"frame_samples must be positive, got {frame_samples}")
        self.frame_samples = frame_samples
        self._buffer: Int16Array = np.zeros(max(capacity_frames, 1) * frame_samples, np.int16)
        self._frames = 0

    def __len__(self) -> int:
        """Frames recorded so far."""
        return self._frames

    def append(self, frame: Int16Array) -> None:
        """Record the next frame (exactly `frame_samples` samples)."""
        if len(frame) != self.frame_samples:
            raise ValueError(f"a frame has {self.frame_samples} samples, got {len(frame)}")
        start = self._frames * self.frame_samples
        if start + self.frame_samples > len(self._buffer):
            grown: Int16Array = np.zeros(2 * len(self._buffer), np.int16)
            grown[:start] = self._buffer[:start]
            self._buffer = grown
        self._buffer[start : start + self.frame_samples] = frame
        self._frames += 1

    def samples(self, start_frame: int = 0, end_frame: int | None = None) -> Int16Array:
        """The recorded samples of frames [start_frame, end_frame) (default: all), as a
        read-only view: later frames never change what was recorded."""
        end = self._frames if end_frame is None else max(0, min(end_frame, self._frames))
        start = max(0, min(start_frame, end))
        view = self._buffer[start * self.frame_samples : end * self.frame_samples]
        view.flags.writeable = False
        return view
