"""What the user hears of untranscribed agent audio: read with ASR at each pause in it."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from duplexbench.audio._pcm import Int16Array
from duplexbench.orchestrator._hearing import PAUSE_MS, Hearing
from duplexbench.orchestrator._playback import Delivered, HeardWord
from duplexbench.speech._asr import EMPTY, Transcript, Word, register_asr
from duplexbench.trace._events import AgentActs, AgentUtterance
from duplexbench.trace._io import Recorder

FRAME_MS, RATE = 20, 16_000
N = RATE * FRAME_MS // 1000
SENTENCES = {50: "Let me read that back.", 60: "Ten boxes of paper.", 70: "Shall I place it?"}
"""What the stand-in ASR hears in a loud stretch of so many frames."""


@register_asr("test-hearing-asr")
class SpokenSentences:
    """One sentence per loud stretch of the audio it is given, by the stretch's length
    (a stand-in for whisper)."""

    name = "test-hearing-asr"

    def transcribe(self, samples: Int16Array) -> Transcript:
        loud = "".join("L" if x > 1000 else "." for x in np.abs(samples.reshape(-1, N)).max(axis=1))
        text = " ".join(SENTENCES[len(run)] for run in loud.split(".") if run)
        return Transcript(text, tuple(Word(w, 0, 0) for w in text.split())) if text else EMPTY


class Reader:
    def sentence_acts(self, raw: str, before: Sequence[str] = ()) -> list[str]:
        return ["READBACK"] if raw.startswith("Ten boxes") else []


class Ear:
    def __init__(self) -> None:
        self.acts: list[tuple[list[str], int]] = []
        self.checks: list[int] = []

    def heard_acts(self, acts: list[str], t: int) -> None:
        self.acts.append((acts, t))

    def check_barge_ins(self, t: int) -> None:
        self.checks.append(t)


def _frames(pattern: str) -> list[Int16Array]:
    """'L' a loud frame, '.' a silent one."""
    loud = (np.sin(np.arange(N) * 0.3) * 8000).astype(np.int16)
    return [loud if c == "L" else np.zeros(N, dtype=np.int16) for c in pattern]


def _listen(pattern: str, *, words: bool = False) -> tuple[Recorder, Ear]:
    recorder, ear = Recorder(), Ear()
    tape: list[Int16Array] = []

    def delivered(first: int, end: int) -> Int16Array:
        return np.concatenate(tape[first:end]) if end > first else np.zeros(0, np.int16)

    hearing = Hearing(
        recorder, Reader(), ear, frame_ms=FRAME_MS, asr="test-hearing-asr", delivered=delivered
    )
    for i, samples in enumerate(_frames(pattern)):
        tape.append(samples)
        heard = [HeardWord("Hello.", i * FRAME_MS)] if words and i == 0 else []
        hearing.frame(Delivered(samples, heard, True), i * FRAME_MS, idle=False)
    hearing.close(len(pattern) * FRAME_MS)
    return recorder, ear


def test_untranscribed_audio_is_heard_at_each_pause_not_only_at_the_end() -> None:
    pause = "." * (PAUSE_MS // FRAME_MS)
    pattern = "L" * 50 + pause + "L" * 60 + pause + "L" * 70 + pause
    recorder, ear = _listen(pattern)
    # the read-back sentence is the second stretch: heard when its pause has played
    second_pause_end = (110 + 2 * len(pause)) * FRAME_MS
    assert ear.acts == [(["READBACK"], second_pause_end)]
    assert ear.checks == [second_pause_end]  # a barge-in can start mid-utterance
    [utterance] = [e for e in recorder.events if isinstance(e, AgentUtterance)]
    assert utterance.data.text == " ".join(SENTENCES.values()) and utterance.data.transcribed
    acts = [e for e in recorder.events if isinstance(e, AgentActs)]
    assert [e.t_ms for e in acts] == [second_pause_end]


def test_a_short_pause_is_not_a_read_and_the_end_reads_the_rest() -> None:
    short = "." * (PAUSE_MS // FRAME_MS - 2)
    recorder, ear = _listen("L" * 50 + short + "L" * 60)
    assert ear.acts == [(["READBACK"], (110 + len(short)) * FRAME_MS)]  # at the close
    [utterance] = [e for e in recorder.events if isinstance(e, AgentUtterance)]
    assert utterance.data.text == f"{SENTENCES[50]} {SENTENCES[60]}"


def test_transcribed_audio_is_never_read_with_asr() -> None:
    pause = "." * (PAUSE_MS // FRAME_MS)
    recorder, ear = _listen("L" * 50 + pause + "L" * 60 + pause, words=True)
    [utterance] = [e for e in recorder.events if isinstance(e, AgentUtterance)]
    assert utterance.data.text == "Hello." and not utterance.data.transcribed
    assert ear.acts == []
