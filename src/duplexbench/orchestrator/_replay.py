"""Pieces of an action episode: its setup, settings, record, the user timeline
and the agent transcript aligned to playback."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from duplexbench.audio import SAMPLE_RATE, Int16Array
from duplexbench.items import ActionItem
from duplexbench.orchestrator._episode import repetition_seed
from duplexbench.orchestrator._playback import Delivered
from duplexbench.trace import EndReason, ErrorKind, TraceEvent
from duplexbench.users import CallerConfig

OBSERVE_MS = 15_000
"""Observation period appended after the last user audio (DuplexAct: 15 s)."""


@dataclass(frozen=True)
class ActionSetup:
    item: ActionItem
    item_checksum: str
    suite: str
    agent_spec: str
    condition: str = "clean"
    repetition: int = 0
    seed: int = 0

    @property
    def repetition_seed(self) -> int:
        return repetition_seed(self.seed, self.item.id, self.repetition)


@dataclass(frozen=True)
class ReplayConfig:
    """Settings of direct and simulator replay (media ms)."""

    frame_ms: int = 20
    observe_ms: int = OBSERVE_MS
    cue_min_words: int = 6
    """The rule controller injects the cue at a word boundary once the agent's current
    utterance has played at least this many words ..."""
    cue_min_speech_ms: int = 1500
    """... and at least this long, while at least `cue_min_left_ms` of it is still queued."""
    cue_min_left_ms: int = 1000
    force_after_ms: int = 10_000
    """No suitable point this long after the lead-in ends: the cue is forced in."""
    takeover_words: int = 4
    """Interrupt: the agent has taken over once an utterance plays this many words ..."""
    takeover_ms: int = 1500
    """... or (no transcript) this much continuous speech."""
    max_buffer_ms: int = 300_000
    flush_limit_ms: int = 60_000
    asr: str | None = "whisper"
    """ASR for agent audio sent without a transcript (None: leave it unread)."""
    agent_voice: str | None = None
    """The voice the harness's speech kit lends local agents (None: `agent_voice_for`
    the item's voices, `speech/_agent_voice.py`)."""
    caller: CallerConfig = field(default_factory=CallerConfig)
    """The condition's caller: line effects and personas apply to replays (`replay_caller.py`)."""

    def __post_init__(self) -> None:
        if self.frame_ms <= 0 or self.frame_ms % 10:
            raise ValueError(f"frame_ms must be a positive multiple of 10, got {self.frame_ms}")


@dataclass
class ActionRecord:
    events: list[TraceEvent]
    end_reason: EndReason
    error: str | None = None
    audio: tuple[Int16Array, Int16Array] | None = None
    error_kind: ErrorKind | None = None
    """With an error: the agent's or the harness's (`orchestrator/_blame.py`)."""

    line: Int16Array | None = None
    """The user channel as the agent received it, on a degraded line (None: clean)."""

    @property
    def status(self) -> str:
        return "error" if self.error is not None else "ok"


class UserTimeline:
    """The user channel: rendered segments mixed at their sample positions."""

    def __init__(self) -> None:
        self.samples = np.zeros(0, dtype=np.float32)
        self.stopped_at: int | None = None

    @property
    def end_ms(self) -> int:
        return len(self.samples) * 1000 // SAMPLE_RATE

    def place(self, samples: Int16Array, start_ms: int) -> None:
        start = start_ms * SAMPLE_RATE // 1000
        end = start + len(samples)
        if end > len(self.samples):
            self.samples = np.concatenate(
                [self.samples, np.zeros(end - len(self.samples), dtype=np.float32)]
            )
        self.samples[start:end] += samples.astype(np.float32)

    def stop(self, t_ms: int) -> int:
        """Silence everything from `t_ms` on; returns the ms of audio dropped."""
        self.stopped_at = t_ms
        start = t_ms * SAMPLE_RATE // 1000
        dropped = max(0, len(self.samples) - start)
        # only the part that actually holds sound counts as dropped speech
        voiced = np.flatnonzero(np.abs(self.samples[start:]) > 0)
        self.samples[start:] = 0
        return int(voiced[-1] + 1) * 1000 // SAMPLE_RATE if dropped and voiced.size else 0

    def frame(self, t_ms: int, n: int) -> Int16Array:
        start = t_ms * SAMPLE_RATE // 1000
        out = np.zeros(n, dtype=np.float32)
        part = self.samples[start : start + n]
        out[: len(part)] = part
        return np.clip(np.round(out), -32768, 32767).astype(np.int16)


@dataclass
class Utterance:
    start_ms: int
    end_ms: int
    words: list[str] = field(default_factory=list)
    word_end_ms: list[int] = field(default_factory=list)
    cancelled: bool = False
    """The agent sent a cancel while this utterance played."""


class AgentTranscript:
    """The agent's delivered speech as utterances with word timings.

    An utterance runs from the first frame of delivered audio until playback
    goes idle (or the agent cancels); its words are those of its chunks as
    they finish playing.
    """

    def __init__(self, frame_ms: int) -> None:
        self.frame_ms = frame_ms
        self.current: Utterance | None = None
        self.finished: list[tuple[Utterance, bool]] = []

    def frame(self, delivered: Delivered, t_ms: int, idle: bool) -> None:
        if delivered.active:
            if self.current is None:
                self.current = Utterance(t_ms, t_ms)
            self.current.end_ms = t_ms + self.frame_ms
        if self.current is not None:
            for word in delivered.words:
                self.current.words.append(word.word)
                self.current.word_end_ms.append(min(word.t_ms, self.current.end_ms))
            if idle:
                self.close(truncated=False)

    def close(self, truncated: bool, cancelled: bool = False) -> None:
        if self.current is not None:
            self.current.cancelled = cancelled
            self.finished.append((self.current, truncated))
            self.current = None

    @property
    def speaking_ms(self) -> int:
        c = self.current
        return 0 if c is None else c.end_ms - c.start_ms
