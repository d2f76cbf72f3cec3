"""`serve-agent`: a local audio agent (a `StepAgent`) behind the OpenAI Realtime protocol.

Each WebSocket connection to `ws://HOST:PORT/v1/realtime` gets a fresh agent
from the spec. The agent runs on a virtual timeline driven by the audio the
client sends: every `frame_ms` of received input audio (24 kHz PCM16,
resampled to 16 kHz) is one `step`. Its events become Realtime server events
(GA names; beta names are accepted on input where they differ): transcript and
audio deltas inside a response, function calls as `function_call` items, and
`response.done` with a synthetic usage block. `function_call_output` items come
back to the agent as `ToolResultMessage`s on its next step. An energy VAD
reports `input_audio_buffer.speech_started` / `speech_stopped` (off when
`turn_detection` is null). The conversation's items are announced and can be
retrieved and deleted (`conversation_items.py`); when the session asks for input
transcription, each user audio item is transcribed by the agent's own ASR
(`input_transcription.py`); `response.create` opens a response
the local agent's next words go into (closed empty after
`REQUESTED_RESPONSE_WAIT_MS` of input audio without any). A session is beta
shaped (beta session object, `conversation.item.created`) when the client
connects with `OpenAI-Beta: realtime=v1` or configures it with beta names
(`session_settings.py`, `conversation_items.py`). `EndCall` has no
Realtime equivalent and is counted. Malformed client messages get an `error`
event (the service's codes where it has one) and the session goes on; idle
or over-long sessions are closed after an `error` event. Each session's
stats go to `ServeConfig.on_session_end` (the CLI's log line).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from http import HTTPStatus
from ipaddress import ip_address
from typing import Any, NamedTuple, cast

import numpy as np
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from duplexbench.agents._audio_protocol import AudioSession, SpeechKit, StepAgent
from duplexbench.agents._events import AgentEvent, clip_reason
from duplexbench.agents._protocol import AgentSession, ToolResultMessage
from duplexbench.agents._providers import openai_realtime_protocol as rt
from duplexbench.agents._providers.transport import Outbox
from duplexbench.agents._registry import AgentInfo, AgentSpec, get_agent
from duplexbench.agents._serve.conversation_items import Conversation
from duplexbench.agents._serve.input_transcription import InputTranscription
from duplexbench.agents._serve.privileged import HeardCue, served_session
from duplexbench.agents._serve.response_events import AgentFault, ResponseWriter, ServerEvents
from duplexbench.agents._serve.session_settings import SessionSettings
from duplexbench.agents._serve.session_stats import SessionStats
from duplexbench.audio import SAMPLE_RATE, AudioFrame, Int16Array, StreamingVad
from duplexbench.items import ActionItem

__all__ = ["RealtimeServer", "ServeConfig", "is_loopback"]
Message = rt.Message
MIN_COMMIT_MS = 100
"""The least input audio a client's `input_audio_buffer.commit` accepts (as the service)."""
REQUESTED_RESPONSE_WAIT_MS = 3_000
"""Input audio after a client's `response.create` in which the local agent may start
speaking into the opened response; past it, the response is closed empty."""


@dataclass(frozen=True)
class ServeConfig:
    """What to serve and the limits of each session."""

    agent: str
    host: str = "127.0.0.1"
    port: int = 8765
    frame_ms: int = 20
    allow_remote: bool = False
    max_message_bytes: int = 16 * 1024 * 1024
    max_session_s: float = 1800.0
    idle_timeout_s: float = 60.0
    speech: SpeechKit | None = None
    items: Mapping[str, ActionItem] = field(default_factory=dict)
    """Action items a privileged agent (ideal-floor) may be asked about (`privileged.py`)."""
    on_session_end: Callable[[SessionStats], None] | None = None
    """Called with each session's stats when it ends (the CLI's per-session log line)."""


def is_loopback(host: str) -> bool:
    try:
        return host == "localhost" or ip_address(host).is_loopback
    except ValueError:
        return False


class _Stepped(NamedTuple):
    """One frame through the VAD and the agent (`_Session._step_frames`)."""

    samples: Int16Array
    vad: tuple[bool, int] | None
    """A change the server VAD heard: (speaking now, at media ms)."""
    events: Sequence[AgentEvent]
    heard: tuple[str, ...]
    """What the agent recognised of the user in the step (`input_transcription.py`)."""


class _End(Exception):
    """Close the session with this reason."""


class RealtimeServer:
    """`async with RealtimeServer(config) as server:` serves until the block ends."""

    def __init__(self, config: ServeConfig) -> None:
        if not config.allow_remote and not is_loopback(config.host):
            raise ValueError(f"refusing to serve on {config.host}: not loopback (--allow-remote)")
        if not 10 <= config.frame_ms <= 1000 or SAMPLE_RATE * config.frame_ms % 1000:
            raise ValueError(f"bad frame size {config.frame_ms} ms")
        self.info, self.spec = get_agent(config.agent)
        if "audio" not in self.info.channels:
            raise ValueError(f"agent {self.info.name!r} has no audio channel")
        self.config = config
        self.sessions: list[SessionStats] = []
        self._server: Server | None = None

    async def start(self) -> str:
        limit = self.config.max_message_bytes
        self._server = await serve(
            self._handle,
            self.config.host,
            self.config.port,
            max_size=2 * limit + 1024,  # up to 2x: an `error` event; beyond: closed (1009)
            compression=None,
            process_request=_only_realtime,
        )
        return self.url

    @property
    def port(self) -> int:
        assert self._server is not None, "the server is not started"
        return int(self._server.sockets[0].getsockname()[1])

    @property
    def url(self) -> str:
        host = self.config.host
        return f"ws://{f'[{host}]' if ':' in host else host}:{self.port}/v1"

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def __aenter__(self) -> RealtimeServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _handle(self, ws: ServerConnection) -> None:
        stats = SessionStats()
        self.sessions.append(stats)
        await _Session(ws, self.config, self.info, self.spec, stats).run()


def _only_realtime(connection: ServerConnection, request: Request) -> Response | None:
    if request.path.partition("?")[0].rstrip("/").endswith("/realtime"):
        return None
    return connection.respond(HTTPStatus.NOT_FOUND, "the Realtime endpoint is /v1/realtime\n")


class _Session:
    def __init__(
        self,
        ws: ServerConnection,
        config: ServeConfig,
        info: AgentInfo,
        spec: AgentSpec,
        stats: SessionStats,
    ) -> None:
        self.ws, self.config, self.info, self.spec, self.stats = ws, config, info, spec, stats
        self.ids = ServerEvents()
        self.agent: StepAgent | None = None
        self.started = False
        self.cue: HeardCue | None = None
        self.settings = SessionSettings(model=spec.raw)
        self.vad = StreamingVad(hangover_ms=self.settings.silence_ms)
        self.resampler = rt.StreamResampler(rt.WIRE_RATE, SAMPLE_RATE)
        self.pending: Int16Array = np.zeros(0, dtype=np.int16)
        self.frame_n = SAMPLE_RATE * config.frame_ms // 1000
        self.t_ms = 0
        self.results: list[ToolResultMessage] = []
        self.user_item: str | None = None
        self.buffered_ms = 0
        """Input audio appended since the last commit or clear."""
        self.conversation = Conversation(self.send, self.error)
        beta = ws.request.headers.get("OpenAI-Beta", "") if ws.request is not None else ""
        self.conversation.beta = "realtime=v1" in beta  # the beta interface, as the service
        self.writer = ResponseWriter(self.send, self.ids, self.conversation)
        self.transcription = InputTranscription(self.send, self.conversation, config.speech)
        self.outbox = Outbox(self.ws.send, lambda reason: None)
        self.handlers: dict[str, Callable[[Message], Awaitable[None]]] = {
            rt.SESSION_UPDATE: self._session_update,
            rt.APPEND: self._append,
            rt.COMMIT: self._commit,
            rt.CLEAR: self._clear,
            rt.ITEM_CREATE: self._item_create,
            rt.ITEM_TRUNCATE: self._truncate,
            rt.RESPONSE_CANCEL: self._cancel,
            rt.RESPONSE_CREATE: self._response_create,
            "conversation.item.retrieve": self.conversation.retrieve,
            "conversation.item.delete": self.conversation.delete,
            "output_audio_buffer.clear": self._ignore,
        }

    # --- connection ---------------------------------------------------------

    async def run(self) -> None:
        self.stats.end = "client closed"
        self.outbox.start()
        try:
            await self._create_agent()
            session = self.settings.to_object(self.conversation.beta)
            await self.send(rt.SESSION_CREATED, session=session)
            deadline = time.monotonic() + self.config.max_session_s
            while True:
                await self._on_raw(await self._next(deadline))
        except _End as end:
            self.stats.end = str(end)
            await self.outbox.close()
            with contextlib.suppress(ConnectionClosed):
                await self.ws.close(1000, str(end)[:120])
        except ConnectionClosed:
            pass
        finally:
            await self.transcription.close()
            await self.outbox.close(timeout=0.5)
            self.stats.end_calls = self.writer.end_calls
            self.stats.duration_s = time.time() - self.stats.started
            if self.config.on_session_end is not None:
                self.config.on_session_end(self.stats)
            if self.agent is not None:
                with contextlib.suppress(Exception):
                    self.agent.close()

    async def _create_agent(self) -> None:
        try:
            agent = self.info.create(self.spec, "audio")
        except Exception as exc:  # a bad spec or a failing factory: tell the client
            await self.error("agent_error", f"{type(exc).__name__}: {exc}", kind="server_error")
            raise _End("agent_error") from None
        if not isinstance(agent, StepAgent):
            closing = cast(Any, agent).close()  # a streaming agent closes asynchronously
            if inspect.isawaitable(closing):
                await closing
            await self.error(
                "agent_error", "serve-agent runs step agents only", kind="server_error"
            )
            raise _End("agent_error")
        self.agent = agent

    async def _next(self, deadline: float) -> str | bytes:
        left = deadline - time.monotonic()
        try:
            if left <= 0:
                raise TimeoutError
            return await asyncio.wait_for(self.ws.recv(), min(left, self.config.idle_timeout_s))
        except TimeoutError:
            expired = time.monotonic() >= deadline
            code = "session_expired" if expired else "idle_timeout"
            await self.error(code, "session limit reached; closing")
            raise _End(code) from None

    async def send(self, event_type: str, **fields: Any) -> None:
        """Queue an event for the writer task: reading never waits on a slow client."""
        self.outbox.put(json.dumps(self.ids.event(event_type, **fields)))

    async def error(self, code: str, message: str, cause: Any = None, kind: str = "") -> None:
        self.stats.errors.append(code)
        text = clip_reason(message)  # a client's 16 MB event type is not echoed back
        event = self.ids.error(code, text, cause=cause, kind=kind or "invalid_request_error")
        self.outbox.put(json.dumps(event))

    async def _on_raw(self, raw: str | bytes) -> None:
        if len(raw) > self.config.max_message_bytes:
            await self.error("message_too_large", f"message of {len(raw)} bytes is over the limit")
            return
        try:
            message = json.loads(raw)
        except (ValueError, RecursionError):  # RecursionError: nested too deeply
            await self.error("invalid_json", "the message is not valid JSON")
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.error("invalid_event", "a client event is a JSON object with a type")
            return
        kind = message["type"]
        self.stats.client_events[kind] += 1
        handler = self.handlers.get(kind)
        if handler is None:
            await self.error(
                "unknown_event", f"unsupported event type {kind!r}", message.get("event_id")
            )
            return
        await handler(message)

    # --- client events ------------------------------------------------------

    async def _ignore(self, message: Message) -> None:
        return None

    async def _session_update(self, message: Message) -> None:
        session = message.get("session")
        try:
            if not isinstance(session, dict):
                raise ValueError("session must be an object")
            if session.get("type", "realtime") != "realtime":
                raise ValueError(f"session type {session['type']!r} is not served (realtime only)")
            if self.settings.apply(session):
                self.vad = StreamingVad(hangover_ms=self.settings.silence_ms)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            await self.error("invalid_value", f"session.update: {exc}", message.get("event_id"))
            return
        # the GA shape names its type; once an update did, the session is GA for good
        self.conversation.beta = self.conversation.beta_named and "type" not in session
        self.conversation.beta_named = self.conversation.beta
        await self.send(rt.SESSION_UPDATED, session=self.settings.to_object(self.conversation.beta))

    async def _append(self, message: Message) -> None:
        try:
            samples = rt.decode_pcm16(message.get("audio"))
        except ValueError as exc:
            await self.error("invalid_audio", str(exc), message.get("event_id"))
            return
        self.pending = np.concatenate([self.pending, self.resampler.process(samples)])
        self.buffered_ms += len(samples) * 1000 // rt.WIRE_RATE
        count = len(self.pending) // self.frame_n
        if not count:
            return
        frames = [self.pending[i * self.frame_n : (i + 1) * self.frame_n] for i in range(count)]
        self.pending = self.pending[count * self.frame_n :]
        try:
            outcomes = await asyncio.to_thread(self._step_frames, frames)
        except Exception as exc:  # the local agent broke: report it and end the session
            await self.error("agent_error", f"{type(exc).__name__}: {exc}", kind="server_error")
            raise _End("agent_error") from None
        for step in outcomes:
            self.transcription.hear(step.samples)
            if step.vad is not None:
                await self._vad(*step.vad)
            self.transcription.after_step(step.heard, self.config.frame_ms)
            try:
                await self.writer.write(step.events)
            except AgentFault as exc:
                await self.error("agent_error", str(exc), kind="server_error")
                raise _End("agent_error") from None
        await self.writer.idle(self.t_ms, REQUESTED_RESPONSE_WAIT_MS)

    def _step_frames(self, frames: list[Int16Array]) -> list[_Stepped]:
        """Runs in a worker thread: VAD and one agent step per frame."""
        assert self.agent is not None
        if not self.started:
            text = AgentSession(self.settings.instructions, self.settings.tools, "serve-agent", 0)
            if self.info.privileged and self.config.items:
                text, self.cue = served_session(text, self.config.items, self.settings.episode_item)
            self.agent.start(AudioSession(text, self.config.frame_ms, speech=self.config.speech))
            self.started = True
        outcomes: list[_Stepped] = []
        for samples in frames:
            was = self.vad.speaking
            now = self.vad.push(samples)
            vad = None
            if was != now:
                end = self.t_ms + self.config.frame_ms
                vad = (now, end - self.vad.speech_ms if now else end - self.vad.silence_ms)
            results, self.results = self.results, []
            frame = AudioFrame(self.t_ms, samples)
            if self.cue is not None:
                self.cue.hear(frame)
            events = self.agent.step(frame, results)
            heard = self.transcription.read_agent(self.agent)
            outcomes.append(_Stepped(samples, vad, events, heard))
            self.t_ms += self.config.frame_ms
            self.writer.input_ms += self.config.frame_ms
            self.stats.frames += 1
        return outcomes

    async def _vad(self, started: bool, at_ms: int) -> None:
        if started:
            self.transcription.user_speaks()
        if self.settings.turn_detection is None:
            return
        if started:
            self.user_item = self.ids.new_id("item")
            await self.send(rt.SPEECH_STARTED, audio_start_ms=at_ms, item_id=self.user_item)
            return
        item = self.user_item or self.ids.new_id("item")
        await self.send(rt.SPEECH_STOPPED, audio_end_ms=at_ms, item_id=item)
        await self._committed(item)

    async def _committed(self, item: str, speaking: bool = False) -> None:
        """The input audio is item `item` (committed by the VAD, or while `speaking`)."""
        previous = next(reversed(self.conversation.items), None)
        self.buffered_ms = 0
        await self.send(rt.COMMITTED, item_id=item, previous_item_id=previous)
        await self.transcription.committed(
            item,
            partial(self.conversation.user_audio, item),
            enabled=self.settings.transcription is not None,
            speaking=speaking,
        )

    async def _commit(self, message: Message) -> None:
        if self.buffered_ms < MIN_COMMIT_MS:
            text = (
                "Error committing input audio buffer: buffer too small. Expected at least "
                f"{MIN_COMMIT_MS}ms of audio, but buffer only has {self.buffered_ms}ms of audio."
            )
            await self.error("input_audio_buffer_commit_empty", text, message.get("event_id"))
            return
        await self._committed(self.ids.new_id("item"), speaking=self.vad.speaking)

    async def _clear(self, message: Message) -> None:
        self.pending = np.zeros(0, dtype=np.int16)
        self.buffered_ms = 0
        self.transcription.clear()
        await self.send("input_audio_buffer.cleared")

    async def _response_create(self, message: Message) -> None:
        if self.writer.out is not None:
            text = (
                f"Conversation already has an active response in progress: {self.writer.out.id}. "
                "Wait until the response is finished before creating a new one."
            )
            await self.error(
                "conversation_already_has_active_response", text, message.get("event_id")
            )
            return
        await self.writer.open(self.t_ms)

    async def _item_create(self, message: Message) -> None:
        item = message.get("item")
        if not isinstance(item, dict) or not isinstance(item.get("type"), str):
            await self.error(
                "invalid_value", "item must be an object with a type", message.get("event_id")
            )
            return
        if item["type"] == "function_call_output":
            call_id, raw = item.get("call_id"), item.get("output")
            if not isinstance(call_id, str) or not isinstance(raw, str):
                await self.error(
                    "invalid_value",
                    "function_call_output needs call_id and output strings",
                    message.get("event_id"),
                )
                return
            output = rt.tool_arguments(raw)
            output = output if isinstance(output, dict) else {"output": output}
            self.results.append(
                ToolResultMessage(call_id, self.writer.calls.get(call_id, ""), output)
            )
            self.stats.tool_results += 1
        done = {**item, "id": item.get("id") or self.ids.new_id("item"), "status": "completed"}
        await self.conversation.final(done)

    async def _truncate(self, message: Message) -> None:
        item, end = message.get("item_id"), message.get("audio_end_ms")
        if not isinstance(item, str) or not isinstance(end, int) or end < 0:
            await self.error(
                "invalid_value",
                "truncate needs item_id and audio_end_ms >= 0",
                message.get("event_id"),
            )
            return
        if await self.conversation.known(message) is None:
            return
        self.stats.truncations.append(end)
        index = message.get("content_index", 0)
        await self.send(rt.ITEM_TRUNCATED, item_id=item, content_index=index, audio_end_ms=end)

    async def _cancel(self, message: Message) -> None:
        if not self.writer.active:
            text = "Cancellation failed: no active response found"
            await self.error("response_cancel_not_active", text, message.get("event_id"))
        else:
            await self.writer.finish("cancelled")
