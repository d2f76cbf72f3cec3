"""What the user hears of the agent: words as they are played, and the acts in them.

The observer reads each sentence as its words are played: at every clause
boundary (`, ; :`) it reads the sentence so far, and at the sentence end the
whole sentence, so an act is noticed as soon as it is heard and never before.

Audio that comes without a transcript (a phone agent, an open full-duplex
model) is read with ASR at each pause of `PAUSE_MS` in it and at the end of
the utterance: the user takes in what was said up to the pause, so a long
untranscribed turn can be interrupted at an act in it, as a transcribed one can.

A sentence that asks or requests by the observer's cues and in which it read no
act is recorded in the utterance's `unmatched_questions` (failure attribution:
docs/metrics.md); this never changes which acts are read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from duplexbench.audio import SAMPLE_RATE, Int16Array
from duplexbench.orchestrator._playback import Delivered
from duplexbench.speech import get_asr, is_silent
from duplexbench.trace import AgentActsData, AgentTruncatedData, AgentUtteranceData, Recorder
from duplexbench.users import Listening, unmatched_question

_SENTENCE_END = (".", "?", "!")
_CLAUSE_END = (",", ";", ":")
_REPLY_ACTS = ("ASK", "CONFIRM", "CHECK", "UNCLEAR", "READBACK", "REQUEST_APPROVAL")
_QUESTION_OPENERS = frozenset(
    [
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "why",
        "how",
        "could",
        "can",
        "would",
        "will",
        "do",
        "does",
        "did",
        "is",
        "are",
        "was",
        "were",
        "may",
        "shall",
        "should",
        "have",
        "has",
    ]
)
"""A sentence starting with one of these is read as a question while it is spoken."""
PAUSE_MS = 300
"""Untranscribed agent audio is read (ASR) at each pause this long in it."""


class Listener(Protocol):
    """Who acts on what the user hears (the episode: the policy and barge-in timing)."""

    def heard_acts(self, acts: list[str], t: int) -> None: ...

    def check_barge_ins(self, t: int) -> None: ...


class SentenceReader(Protocol):
    def sentence_acts(self, raw: str, before: Sequence[str] = ()) -> list[str]: ...


class Hearing:
    def __init__(
        self,
        recorder: Recorder,
        observer: SentenceReader,
        listener: Listener,
        *,
        frame_ms: int,
        asr: str | None,
        delivered: Callable[[int, int], Int16Array],
    ) -> None:
        """`delivered(first, end)`: the agent channel's frames [first, end) as played."""
        self.recorder, self.observer, self.listener = recorder, observer, listener
        self.frame_ms, self.asr, self.delivered = frame_ms, asr, delivered
        self.acts_since: list[str] = []
        self.heard_since: list[str] = []
        self.sentences = 0
        """Agent sentences heard so far in the call."""
        self._start: int | None = None
        self._end = 0
        self._words: list[str] = []
        self._sentence: list[str] = []
        self._sentence_acts: list[str] = []
        self._said: list[str] = []
        """Sentences of the agent utterance being heard (a read-back can span several)."""
        self._unmatched: list[str] = []
        """Its sentences that asked and in which the observer read no act."""
        self._has_text = False  # the utterance came with a transcript
        self._unread = 0  # ASR: first ms of the audio not read yet
        self._quiet_ms = 0  # ASR: the pause at the end of what was played
        self._loud = False  # ASR: speech since `_unread`

    def user_took_turn(self) -> None:
        self.acts_since, self.heard_since = [], []

    def listening(self) -> Listening:
        """What the user has taken in, for the natural user's interrupt/backchannel checks."""
        first = self._sentence[0].strip(",.;:!?").lower() if self._sentence else ""
        return Listening(
            sentences_heard=self.sentences,
            has_reply=any(a.startswith(_REPLY_ACTS) for a in self.acts_since),
            question_in_progress=first in _QUESTION_OPENERS,
            text=" ".join([*self.heard_since, *self._sentence]),
        )

    def add_acts(self, acts: list[str], t: int, text: str = "") -> None:
        if not acts:
            return
        self.recorder.emit(t, AgentActsData(acts=acts, text=text))
        self.listener.heard_acts(acts, t)
        self.acts_since += acts

    def frame(self, delivered: Delivered, t: int, idle: bool) -> None:
        if delivered.active:
            if self._start is None:
                self._start = self._unread = t
            self._end = t + self.frame_ms
        new_acts = False
        for word in delivered.words:
            self._has_text = True
            new_acts |= self._take(word.word, word.t_ms)
        if delivered.active and self.asr is not None and not self._has_text:
            new_acts |= self._read_at_pause(delivered, t)
        if new_acts:
            self.listener.check_barge_ins(self.recorder.events[-1].t_ms)
        if idle and self._start is not None:
            self._close(t, truncated=False)

    def _take(self, word: str, t: int) -> bool:
        """One heard word; True when reading it found new acts."""
        self._words.append(word)
        self._sentence.append(word)
        if word.endswith(_SENTENCE_END):
            return self._observe(t, final=True)
        if word.endswith(_CLAUSE_END):
            return self._observe(t, final=False)
        return False

    def _read_at_pause(self, delivered: Delivered, t: int) -> bool:
        """Untranscribed audio: at a pause of `PAUSE_MS` after speech, read what was said."""
        if is_silent(delivered.samples):
            self._quiet_ms += self.frame_ms
        else:
            self._quiet_ms, self._loud = 0, True
        if not (self._loud and self._quiet_ms >= PAUSE_MS):
            return False
        return self._read(t + self.frame_ms)

    def _read(self, end: int) -> bool:
        """ASR of the audio played in [`_unread`, `end`): its words are heard at `end`."""
        new_acts = False
        for word in self._transcribe(self._unread, end):
            new_acts |= self._take(word, end)
        self._unread, self._loud = end, False
        return new_acts

    def _observe(self, t: int, final: bool) -> bool:
        text = " ".join(self._sentence)
        acts = self.observer.sentence_acts(text, self._said)
        acts = [a for a in acts if a not in self._sentence_acts]
        self._sentence_acts += acts
        self.add_acts(acts, t, text)
        if final:
            if unmatched_question(text, self._sentence_acts):
                self._unmatched.append(text)
            self.heard_since.append(text)
            self._said.append(text)
            self.sentences += 1
            self._sentence, self._sentence_acts = [], []
        return bool(acts)

    def _transcribe(self, start: int, end: int) -> list[str]:
        """The agent sent audio without a transcript: read what was delivered with ASR."""
        asr = get_asr(self.asr or "whisper")
        delivered = self.delivered(start // self.frame_ms, end // self.frame_ms)
        return asr.transcribe(delivered).text.split()

    def cut(self, t: int, dropped_samples: int, unheard: str, cancelled: bool = False) -> None:
        """The agent stopped (`cancelled`: it sent a cancel; else the harness cut a
        flood): what was queued and not played is dropped."""
        dropped_ms = dropped_samples * 1000 // SAMPLE_RATE
        if dropped_ms or unheard:
            data = AgentTruncatedData(dropped_ms=dropped_ms, unheard_text=unheard)
            self.recorder.emit(t, data)
        if self._start is not None:
            self._close(t, truncated=bool(dropped_ms or unheard), cancelled=cancelled)

    def close(self, t: int) -> None:
        if self._start is not None:
            self._close(t, truncated=False)

    def _close(self, t: int, truncated: bool, cancelled: bool = False) -> None:
        assert self._start is not None
        if not self._has_text and self.asr is not None and self._loud:
            for word in self._transcribe(self._unread, self._end):
                self._take(word, max(t, self._end))
        transcribed = not self._has_text and bool(self._words)
        if self._sentence:
            self._observe(max(t, self._end), final=True)
        data = AgentUtteranceData(
            text=" ".join(self._words),
            start_ms=self._start,
            end_ms=self._end,
            truncated=truncated,
            cancelled=cancelled,
            transcribed=transcribed,
            unmatched_questions=self._unmatched,
        )
        self.recorder.emit(max(t, self._end), data)
        self._start, self._words, self._said, self._unmatched = None, [], [], []
        self._has_text, self._quiet_ms, self._loud = False, 0, False
