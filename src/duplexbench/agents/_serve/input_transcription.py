"""`serve-agent`'s input audio transcription: the user's committed audio items as text.

When the session asks for it (GA `audio.input.transcription`, beta
`input_audio_transcription`: an object; the model it names is echoed, not
used), every user audio item committed from then on gets
`conversation.item.input_audio_transcription.delta` (the whole text, when
there is any) and `.completed` (`content_index` 0, `usage` the item's audio
duration in seconds), or `.failed` with a `transcription_error`. Each follows
its item's `conversation.item.added` (beta: `created`) and may follow the
response to it, as with the service; items are answered in commit order.

The text is what the served agent's own ASR made of the user, never the
privileged item's script and never made up:

1. An agent that keeps the user turns it recognised in a `transcripts` list
   (`CascadeAgent`, so `reference`) gives its own words, when they can be
   tied to one item: the words it recognises while exactly one item waits
   for them (its endpoint usually comes a little after the server VAD's), or
   those it recognised since the last commit when the commit comes later.
   The item waits `AGENT_WAIT_MS` of input audio at most. Where the agent's
   utterance and the items do not line up (the user spoke again before the
   agent recognised the item, a commit while the user speaks, a
   `input_audio_buffer.clear`, or the wait ran out), that item and the one
   the agent's next words would go to take step 2.
2. Otherwise the session's `SpeechKit.transcribe` (the ASR the harness lends
   the agent: whisper, the engine the reference cascade hears with) on the
   item's audio, as the agent heard it (16 kHz).

Neither blocks the audio loop: the agent's words are read after its step (it
recognised them there anyway), and step 2 runs in a worker thread of its own
pool (`ASR_THREADS`; the agents' steps run in the default executor, so many
sessions' transcriptions never hold up a step), one item at a time per
session. Without a speech kit, or without the `asr` extra, the
item gets `.failed` naming the extra.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from duplexbench.agents._audio_protocol import SpeechKit
from duplexbench.agents._events import clip_reason
from duplexbench.agents._providers import openai_realtime_protocol as rt
from duplexbench.agents._serve.conversation_items import Conversation
from duplexbench.audio import SAMPLE_RATE, Int16Array
from duplexbench.speech import SpeechUnavailable

Send = Callable[..., Awaitable[None]]
Announce = Callable[[str | None], Awaitable[None]]
"""Announces the committed item, with its transcript when already known."""
DELTA = "conversation.item.input_audio_transcription.delta"
COMPLETED = "conversation.item.input_audio_transcription.completed"
FAILED = "conversation.item.input_audio_transcription.failed"
AGENT_WAIT_MS = 3_000
"""Input audio after its commit in which an item waits for the agent's own words."""
MAX_ITEM_MS = 300_000
"""Audio kept for the item being spoken (its last 5 minutes)."""
ASR_THREADS = 2
_ASR_POOL = ThreadPoolExecutor(ASR_THREADS, thread_name_prefix="serve-asr")
NO_SPEECH_KIT = (
    "input audio transcription needs an ASR, and serve-agent was given none "
    "(ServeConfig.speech; the duplexbench serve-agent command lends the harness's whisper "
    "ASR: pip install 'duplexbench[asr]')"
)


@dataclass(frozen=True)
class Outcome:
    """A transcript, or (transcript None) the `code` and `message` of why there is none."""

    transcript: str | None
    code: str = ""
    message: str = ""


@dataclass
class _Item:
    id: str
    audio: Int16Array
    outcome: asyncio.Future[Outcome] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    waited_ms: int = 0


def recognised(agent: object) -> list[str] | None:
    """The user turns `agent` recognised (`transcripts`), or None when it keeps none."""
    texts = getattr(agent, "transcripts", None)
    return texts if isinstance(texts, list) else None


class InputTranscription:
    """One session's input transcription (module docstring)."""

    def __init__(self, send: Send, conversation: Conversation, speech: SpeechKit | None) -> None:
        self.send, self.conversation, self.speech = send, conversation, speech
        self.frames: deque[Int16Array] = deque()
        self.samples = 0
        self.listening = False
        """The agent keeps what it recognised (`recognised`)."""
        self.seen = 0
        """The agent's recognised turns read so far (read in the step thread only)."""
        self.held: list[str] = []
        """What the agent recognised since the last commit with no item waiting."""
        self.waiting: _Item | None = None
        self.tainted = False
        """The agent's next words may run across an item's edge: not used."""
        self.tail: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.lock = asyncio.Lock()

    def read_agent(self, agent: object) -> tuple[str, ...]:
        """What the agent recognised in its last step (called in the step thread)."""
        texts = recognised(agent)
        self.listening = texts is not None
        if texts is None:
            return ()
        new, self.seen = texts[self.seen :], len(texts)
        return tuple(t.strip() for t in new if isinstance(t, str) and t.strip())

    def hear(self, samples: Int16Array) -> None:
        """A frame of the input audio (16 kHz), part of the item being spoken."""
        self.frames.append(samples)
        self.samples += len(samples)
        while len(self.frames) > 1 and self.samples > SAMPLE_RATE * MAX_ITEM_MS // 1000:
            self.samples -= len(self.frames.popleft())

    def after_step(self, texts: tuple[str, ...], frame_ms: int) -> None:
        """The agent recognised `texts` in the frame just heard."""
        if texts and self.tainted:
            self.tainted = False  # these are the words that may run across an edge
            self._give_up(taint=False)
        elif texts and self.waiting is not None:
            self.waiting.outcome.set_result(Outcome(" ".join(texts)))
            self.waiting = None
        elif texts:
            self.held.extend(texts)
        if self.waiting is not None:
            self.waiting.waited_ms += frame_ms
            if self.waiting.waited_ms >= AGENT_WAIT_MS:
                self._give_up()

    def user_speaks(self) -> None:
        """The server VAD heard the user start (whether or not it reports it)."""
        self._give_up()

    def clear(self) -> None:
        """The client cleared the input buffer."""
        self.frames, self.samples, self.held = deque(), 0, []
        self.tainted = True  # the agent heard the cleared audio

    async def committed(
        self, item_id: str, announce: Announce, *, enabled: bool, speaking: bool
    ) -> None:
        """The input audio since the last commit is item `item_id`: `announce` it (with its
        transcript when the agent already recognised it) and, if `enabled`, transcribe it."""
        audio = np.concatenate(self.frames) if self.frames else np.zeros(0, dtype=np.int16)
        self.frames, self.samples = deque(), 0
        held, self.held = self.held, []
        self._give_up()  # a new item while the last still waits: they cannot be told apart
        if speaking or not enabled:
            self.tainted = True  # the agent's next words may hold this item's (unused)
        known = " ".join(held) if held and not speaking and enabled else None
        await announce(known)
        if not enabled:
            return
        item = _Item(item_id, audio)
        if known is not None:
            item.outcome.set_result(Outcome(known))
        elif self.listening and not self.tainted and not speaking:
            self.waiting = item
        else:
            self._fallback(item)
        self.tail = self._start(self._announce(self.tail, item))

    async def close(self) -> None:
        """Stop what is still running (the session ended)."""
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    # --- internals ------------------------------------------------------------

    def _start(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def _give_up(self, taint: bool = True) -> None:
        """The waiting item (if any) takes the speech kit; the agent's next words are not used."""
        item, self.waiting = self.waiting, None
        if item is not None:
            self.tainted = self.tainted or taint
            self._fallback(item)

    def _fallback(self, item: _Item) -> None:
        self._start(self._transcribe(item))

    async def _transcribe(self, item: _Item) -> None:
        async with self.lock:  # one at a time per session
            outcome = await self._speech_kit(item.audio)
        if not item.outcome.done():
            item.outcome.set_result(outcome)

    async def _speech_kit(self, audio: Int16Array) -> Outcome:
        if self.speech is None:
            return Outcome(None, "asr_unavailable", NO_SPEECH_KIT)
        try:
            loop = asyncio.get_running_loop()
            text = await loop.run_in_executor(_ASR_POOL, self.speech.transcribe, audio)
        except SpeechUnavailable as exc:
            return Outcome(None, "asr_unavailable", f"input audio transcription: {exc}")
        except Exception as exc:  # the ASR failed: the item's transcription failed
            return Outcome(None, "asr_error", f"the ASR failed: {type(exc).__name__}: {exc}")
        if not isinstance(text, str):
            return Outcome(None, "asr_error", f"the ASR returned a {type(text).__name__}")
        return Outcome(text.strip())

    async def _announce(self, previous: asyncio.Task[None] | None, item: _Item) -> None:
        if previous is not None:
            await asyncio.wait([previous])  # in commit order, however the previous one ended
        outcome = await item.outcome
        where = {"item_id": item.id, "content_index": 0}
        if outcome.transcript is None:
            error = {
                "type": "transcription_error",
                "code": outcome.code,
                "message": clip_reason(outcome.message),
                "param": None,
            }
            await self.send(FAILED, **where, error=error)
            return
        text = outcome.transcript
        self.conversation.transcribed(item.id, text)
        if text:
            await self.send(DELTA, **where, delta=text)
        seconds = round(len(item.audio) / SAMPLE_RATE, 3)
        await self.send(COMPLETED, **where, transcript=text, usage=_usage(seconds))


def _usage(seconds: float) -> rt.Message:
    return {"type": "duration", "seconds": seconds}
