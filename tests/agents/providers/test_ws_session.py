"""The WebSocket session base every network adapter stands on (agents/_providers/ws_session.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from duplexbench.agents._events import AgentEvent, AgentFailure
from duplexbench.agents._providers.gemini_live import GeminiLiveAgent, GeminiLiveConfig
from duplexbench.agents._providers.openai_realtime import OpenAIRealtimeAgent, RealtimeOptions
from duplexbench.agents._providers.step_audio import StepAudioAgent, StepAudioConfig
from duplexbench.agents._providers.transport import ConnectionNotOpened, Message, Transport
from duplexbench.agents._providers.ws_session import WebSocketSession
from support.waiting import until

KEY = "sk-do-not-show-4242"


class Echo(WebSocketSession):
    """A minimal protocol: `ping` from the server is answered with `pong`."""

    name = "echo"

    def endpoint(self) -> tuple[str, dict[str, str]]:
        key = self.use_key(KEY)
        return "ws://example.invalid", {"Authorization": f"Bearer {key}"}

    def on_message(self, message: Message) -> None:
        if message["type"] == "ping":
            self.post({"type": "pong"})  # from the reader
        elif message["type"] == "flood":
            self.push(AgentFailure("x"))


class StubbornPeer:
    """Answers the setup, then accepts no write until the client has read `unblock`."""

    def __init__(self, script: list[Message]) -> None:
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        for message in [{"type": "ready"}, *script]:
            self.inbox.put_nowait(message)
        self.unblocked = asyncio.Event()
        self.sent: list[Message] = []

    async def send(self, message: Message) -> None:
        if message["type"] != "hello":
            await self.unblocked.wait()  # a peer whose socket buffers are full
        self.sent.append(message)

    async def recv(self, timeout: float | None = None) -> Message | None:
        try:
            message = await asyncio.wait_for(self.inbox.get(), timeout)
        except TimeoutError:
            return None
        if message["type"] == "unblock":
            self.unblocked.set()
        return message

    async def close(self) -> None:
        return None


def _open(session: WebSocketSession, done: Callable[[], bool]) -> None:
    """Open the session; close it once `done()`, an event comes or the session ends."""

    async def go() -> None:
        await session.open_session({"type": "hello"}, lambda m: m["type"] == "ready", "ready", 5)
        await until(lambda: done() or session.poll() or not session.ready, 3, "the exchange")
        await session.close()

    asyncio.run(asyncio.wait_for(go(), 5))


def test_the_reader_never_waits_on_its_own_writes() -> None:
    peer = StubbornPeer([{"type": "ping"}, {"type": "unblock"}])
    session = Echo(peer, None)
    _open(session, lambda: peer.unblocked.is_set() and {"type": "pong"} in peer.sent)
    assert peer.unblocked.is_set() and {"type": "pong"} in peer.sent


def test_events_waiting_for_poll_are_bounded() -> None:
    session = Echo(StubbornPeer([{"type": "flood"}] * 5), None)
    session.max_events = 2

    async def go() -> list[AgentEvent]:
        await session.open_session({"type": "hello"}, lambda m: m["type"] == "ready", "ready", 5)
        await until(lambda: not session.ready, 3, "the session to fail on the flood")
        events = list(session.poll())
        await session.close()
        return events

    events = asyncio.run(asyncio.wait_for(go(), 5))
    assert len(events) == 3 and "more than 2 events waiting" in str(events[-1])


def test_a_connection_that_never_opened_is_the_harness_s_error_without_the_key() -> None:
    async def refuse(url: str, headers: dict[str, str]) -> Transport:
        raise ConnectionNotOpened(f"cannot connect with {headers['Authorization']}")

    with pytest.raises(ConnectionNotOpened) as caught:
        asyncio.run(Echo(None, refuse).open_session({"type": "hello"}, bool, "ready", 1))
    assert KEY not in str(caught.value) and "echo: cannot connect" in str(caught.value)


@pytest.mark.parametrize(
    "make",
    [
        lambda: OpenAIRealtimeAgent(RealtimeOptions(api_key_env="DB_WS_KEY")),
        lambda: GeminiLiveAgent(GeminiLiveConfig(api_key_env="DB_WS_KEY")),
        lambda: StepAudioAgent(StepAudioConfig(api_key_env="DB_WS_KEY")),
    ],
)
def test_no_adapter_shows_its_key(
    make: Callable[[], OpenAIRealtimeAgent | GeminiLiveAgent | StepAudioAgent],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The key is kept for redaction in a Secret: a repr of the adapter's attributes
    (as a crash report or a debugger prints them) never holds it."""
    monkeypatch.setenv("DB_WS_KEY", KEY)
    agent = make()
    agent.endpoint()  # reads the key, as connecting does
    assert KEY not in repr(vars(agent)) and KEY not in repr(agent)
