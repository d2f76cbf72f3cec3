"""A full-duplex peer must keep reading while its writes wait (regression: deadlock).

Before the writer task, the client's reader awaited its own sends (a
truncate after `speech_started`): with a peer that also stopped reading
while its writes waited, both sides blocked for good once socket buffers
filled. Here the fake peer accepts nothing until the client has read a later
message; a reader that waits on its own writes can never read it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np

from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._events import SpeechCancelled, SpeechStarted
from duplexbench.agents._protocol import AgentSession
from duplexbench.agents._providers import openai_realtime_protocol as rt
from duplexbench.agents._providers.openai_realtime import OpenAIRealtimeAgent, RealtimeOptions
from duplexbench.agents._providers.transport import Message, Outbox, TransportClosed
from duplexbench.audio._frames import AudioFrame
from support.waiting import until


class StubbornPeer:
    """Accepts the session, then blocks every write until `unblock` has been read."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.unblocked = asyncio.Event()
        self.sent: list[Message] = []
        audio = rt.encode_pcm16(np.ones(24_000, dtype=np.int16))
        for message in (
            {"type": rt.SESSION_UPDATED, "session": {}},
            {"type": rt.RESPONSE_CREATED, "response": {"id": "r1"}},
            {"type": rt.AUDIO_DELTA, "response_id": "r1", "item_id": "i1", "delta": audio},
            {"type": rt.SPEECH_STARTED, "audio_start_ms": 100, "item_id": "u1"},
            {"type": "unblock"},
        ):
            self.inbox.put_nowait(message)

    async def send(self, message: Message) -> None:
        if message.get("type") != rt.SESSION_UPDATE:
            await self.unblocked.wait()  # a peer whose buffers are full
        self.sent.append(message)

    async def recv(self, timeout: float | None = None) -> Message | None:
        try:
            message = await asyncio.wait_for(self.inbox.get(), timeout)
        except TimeoutError:
            return None
        if message.get("type") == "unblock":
            self.unblocked.set()
        return message

    async def close(self) -> None:
        return None


def test_reader_keeps_reading_while_writes_wait() -> None:
    async def go() -> list[Any]:
        peer = StubbornPeer()
        agent = OpenAIRealtimeAgent(RealtimeOptions(), peer)
        await agent.connect(AudioSession(AgentSession("x", (), "i", 0), 20))
        events: list[Any] = []
        for i in range(20):
            await agent.send_audio(AudioFrame(i * 20, np.zeros(320, dtype=np.int16)))
            events += agent.poll()

        def cut_short() -> bool:  # the reader read on: `unblock`, then the writes went out
            events.extend(agent.poll())
            kinds = {type(e) for e in events}
            cancels = (rt.RESPONSE_CANCEL, rt.ITEM_TRUNCATE)
            sent = any(m.get("type") in cancels for m in peer.sent)
            return peer.unblocked.is_set() and sent and SpeechCancelled in kinds

        await until(cut_short, 3, lambda: f"the barge-in to go through: {events}, {peer.sent}")
        await agent.close()
        assert peer.unblocked.is_set()
        assert any(m.get("type") in (rt.RESPONSE_CANCEL, rt.ITEM_TRUNCATE) for m in peer.sent)
        return events

    events = asyncio.run(asyncio.wait_for(go(), 5))
    kinds = [type(e) for e in events]
    assert SpeechStarted in kinds and SpeechCancelled in kinds


def test_outbox_put_never_waits_and_backpressure_waits() -> None:
    async def go() -> None:
        release = asyncio.Event()
        sent: list[int] = []
        sending: list[int] = []  # taken by the writer (then held until `release`)

        async def send(message: int) -> None:
            sending.append(message)
            await release.wait()
            sent.append(message)

        box = Outbox(send, lambda reason: None, max_backlog=3)
        box.start()
        for i in range(10):
            box.put(i)  # returns at once although nothing can be sent
        waiting = asyncio.create_task(box.put_wait(99))
        await until(lambda: sending, what="the writer to start its first send")
        assert not waiting.done()  # over the backlog: the audio stream waits
        release.set()
        await asyncio.wait_for(waiting, 1)
        await box.close()
        assert sent == [*range(10), 99]

    asyncio.run(go())


def test_outbox_reports_a_closed_peer_and_keeps_other_errors() -> None:
    async def go() -> None:
        closed: list[str] = []

        async def gone(message: Any) -> None:
            raise TransportClosed("peer went away")

        box = Outbox(gone, closed.append)
        box.start()
        box.put("x")
        await until(lambda: closed, what="the closed peer to be reported")
        assert closed == ["peer went away"] and box.error is None

        async def broken(message: Any) -> None:
            raise AssertionError("unexpected message")

        other = Outbox(broken, closed.append)
        other.start()
        other.put("y")
        await until(lambda: other.closed, what="the writer to stop on the error")
        assert isinstance(other.error, AssertionError)

    asyncio.run(go())
