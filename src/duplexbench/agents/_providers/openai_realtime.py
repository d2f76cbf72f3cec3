"""`openai-realtime`: a streaming adapter for the OpenAI Realtime API (or any server speaking it).

Spec: `openai-realtime[:MODEL][?voice=marin&base_url=wss://api.openai.com/v1&...]`
(options: `RealtimeOptions`). The adapter connects to `{base_url}/realtime?model=MODEL`
with the key from the environment variable `api_key_env` (the key is never
stored, logged or put in an error), configures the session (instructions,
function tools, PCM16 24 kHz both ways, server VAD) and waits for
`session.updated`. The connection, the send queue, the reader and the
failure rule are `ws_session.WebSocketSession`'s; this module is the
protocol mapping. Server events become normalized events; `poll()` hands
over what arrived.

- Barge-in: `input_audio_buffer.speech_started` while a response is active or
  its audio still plays -> `SpeechStarted`, `SpeechCancelled`, `response.cancel`
  (if active) and `conversation.item.truncate` at the audio the user heard.
  *Heard* is approximated by modelling the harness's playback queue: audio
  plays in real time, in order, from the moment `poll()` hands it over. Every
  item with audio still queued is truncated at the milliseconds of it already
  played (never more than it received); items with nothing played (or never
  polled) are left alone, as the service rejects a truncate at 0 ms of some
  items. Deltas of a response we cancelled are dropped.
- Tool calls: every function call of a response becomes a `ToolCallRequest`
  (arguments parsed from JSON, or the raw string when malformed). Outputs go
  back as `function_call_output` items; once the response is done and every
  output is in, exactly one `response.create` follows (never while a response
  is active). Calls of a response we cancelled are dropped.
- Errors: `error` events become `AgentFailure` with the provider's code and
  message, except benign ones (:data:`BENIGN_ERROR_CODES`, and any error
  caused by our own `response.cancel` or `conversation.item.truncate`), which
  are only counted in `benign_errors`. A closed connection, a non-JSON message
  (or one nested too deeply), an event with fields of the wrong types,
  undecodable audio or an inbox over `max_inbox` events -> `AgentFailure`
  (reasons cut to 1000 characters; token counts that are not whole numbers
  >= 0 count as 0). Unknown event types are ignored and counted in
  `unknown_events`.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Sequence
from typing import Any

from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._events import (
    AgentEvent,
    AgentFailure,
    AudioDelta,
    ResponseDone,
    SpeechCancelled,
    SpeechStarted,
    SpeechStopped,
    ToolCallRequest,
    TranscriptDelta,
    clip_reason,
)
from duplexbench.agents._protocol import AgentError, ToolResultMessage
from duplexbench.agents._providers import openai_realtime_protocol as rt
from duplexbench.agents._providers.openai_realtime_protocol import RealtimeOptions
from duplexbench.agents._providers.transport import Message, Transport
from duplexbench.agents._providers.ws_session import Connector, WebSocketSession
from duplexbench.agents._registry import AgentSpec, Channel, register_agent
from duplexbench.audio import AudioFrame

__all__ = ["BENIGN_ERROR_CODES", "OpenAIRealtimeAgent", "RealtimeOptions"]

BENIGN_ERROR_CODES = rt.BENIGN_ERROR_CODES


class OpenAIRealtimeAgent(WebSocketSession):
    """A `StreamingAgent` over the Realtime protocol (`transport` given: tests, fakes)."""

    name = "openai-realtime"

    def __init__(
        self,
        options: RealtimeOptions,
        transport: Transport | None = None,
        connector: Connector | None = None,
    ) -> None:
        super().__init__(transport, connector)
        self.options = options
        self.name = options.agent_name  # a preset's own name (realtime_presets.py)
        self.max_events = options.max_inbox
        self.unknown_events: Counter[str] = Counter()
        self.benign_errors: list[str] = []
        self._resamplers: dict[int, rt.StreamResampler] = {}
        self._sent: dict[str, str] = {}
        self._seq = 0
        self._response_id: str | None = None
        self._cancelled: set[str] = set()
        self._stopped: set[str] = set()
        """Responses the server stopped whose SpeechCancelled has been passed on."""
        self._calls_seen: set[str] = set()
        self._response_calls: list[str] = []
        self._awaiting: set[str] = set()
        self._continue = False
        self._delta_items: deque[str | None] = deque()
        """The item of each AudioDelta waiting for `poll()`, in order."""
        self._playing: deque[list[Any]] = deque()  # [item id, samples handed over], in order
        self._playback_end = 0.0
        self._media_s = 0.0
        """Media time (s) at the end of the last frame sent: the harness's playback clock."""
        self._handlers: dict[str, Callable[[Message], Any]] = {
            rt.SESSION_UPDATED: lambda m: None,  # the setup answer (open_session waits for it)
            rt.ERROR: self._on_error,
            rt.SPEECH_STARTED: self._on_speech_started,
            rt.SPEECH_STOPPED: lambda m: self.push(SpeechStopped()),
            rt.RESPONSE_CREATED: self._on_response_created,
            rt.AUDIO_DELTA: self._on_audio,
            rt.TRANSCRIPT_DELTA: self._on_transcript,
            rt.ARGUMENTS_DONE: self._on_call,
            rt.OUTPUT_ITEM_DONE: self._on_item_done,
            rt.RESPONSE_DONE: self._on_response_done,
            rt.OUTPUT_AUDIO_CLEARED: self._on_audio_cleared,
        }

    def __repr__(self) -> str:
        return f"OpenAIRealtimeAgent(model={self.options.model!r}, url={self.options.url!r})"

    # --- the StreamingAgent interface ---------------------------------------

    async def connect(self, session: AudioSession) -> None:
        """Open the session and wait for `session.updated`; a setup that fails (an error
        event, a timeout, a closed connection) raises AgentError with the reason."""
        text = session.session
        update = rt.session_update(
            instructions=text.instructions,
            tools=text.tools,
            voice=self.options.voice,
            turn_detection=self.options.turn_detection(),
            transcription_model=self.options.transcription or None,
            api=self.options.api,
            item_id=text.item_id if self.options.episode_metadata == "on" else None,
        )
        timeout = self.options.connect_timeout
        await self.open_session(self._tracked(update), _session_updated, "session.updated", timeout)
        if not self.ready:
            failure = next(e for e in self._events if isinstance(e, AgentFailure))
            raise AgentError(
                clip_reason(failure.message.replace(": ", ": session setup failed: ", 1))
            )

    async def send_audio(self, frame: AudioFrame) -> None:
        self._media_s = frame.t_ms / 1000 + len(frame.samples) / frame.sample_rate
        if not self.ready or self._closing:
            return
        stream = self._resamplers.get(frame.sample_rate)
        if stream is None:
            stream = rt.StreamResampler(frame.sample_rate, rt.WIRE_RATE)
            self._resamplers[frame.sample_rate] = stream
        wire = stream.process(frame.samples)
        if len(wire):
            await self.send(rt.append_audio(wire))

    async def send_tool_result(self, result: ToolResultMessage) -> None:
        if not self.ready or self._closing:
            return
        self.post(self._tracked(rt.function_output(result.call_id, result.output)))
        self._awaiting.discard(result.call_id)
        self._maybe_continue()

    def poll(self) -> Sequence[AgentEvent]:
        now = self._media_s
        events = super().poll()
        for event in events:
            if isinstance(event, AudioDelta):
                self._hand_over(self._delta_items.popleft(), len(event.pcm), now)
            elif isinstance(event, SpeechCancelled):
                self._playing.clear()
                self._playback_end = now
        return events

    def _hand_over(self, item: str | None, samples: int, now: float) -> None:
        """Model the harness's playback: audio plays at media speed once polled (media time,
        not wall time: under `--realtime-speed N` the harness plays N times faster)."""
        self._playback_end = max(self._playback_end, now) + samples / rt.WIRE_RATE
        if self._playing and self._playing[-1][0] == item:
            self._playing[-1][1] += samples
        else:
            self._playing.append([item, samples])
        queued = (self._playback_end - now) * rt.WIRE_RATE
        total = sum(n for _, n in self._playing)
        while len(self._playing) > 1 and total - self._playing[0][1] >= queued:
            total -= self._playing.popleft()[1]  # fully played

    # --- the protocol mapping -------------------------------------------------

    def endpoint(self) -> tuple[str, dict[str, str]]:
        key = self.use_key(self.options.api_key())
        return self.options.url, self.options.headers(key)

    def on_message(self, message: Message) -> Any:
        kind = rt.canonical(str(message.get("type")))
        handler = self._handlers.get(kind)
        if handler is None:
            if kind not in rt.IGNORED_SERVER_EVENTS:
                self.unknown_events[kind] += 1
            return None
        return handler(message)

    def malformed(self, message: Message, exc: Exception) -> str:
        kind = rt.canonical(str(message.get("type")))
        return f"malformed {kind[:60]} event: {type(exc).__name__}: {exc}"

    def _tracked(self, message: Message) -> Message:
        """The message with an `event_id`, remembered so that an error it causes is known."""
        self._seq += 1
        message["event_id"] = f"evt_db_{self._seq}"
        self._sent[message["event_id"]] = message["type"]
        return message

    # --- server events ------------------------------------------------------

    def _on_error(self, message: Message) -> None:
        code, text, cause = rt.error_fields(message)
        caused_by = self._sent.get(cause or "")
        if code in BENIGN_ERROR_CODES or caused_by in (rt.RESPONSE_CANCEL, rt.ITEM_TRUNCATE):
            self.benign_errors.append(f"{code}: {text}")
        else:
            self.fail(f"provider error {code}: {text}")

    def _on_response_created(self, message: Message) -> None:
        response = message.get("response") or {}
        self._response_id = str(response.get("id") or "")
        self._response_calls = []

    def _on_audio(self, message: Message) -> None:
        if message.get("response_id") in self._cancelled:
            return
        try:
            pcm = rt.decode_pcm16(message.get("delta"))
        except ValueError as exc:
            self.fail(f"audio delta: {exc}")
            return
        item = message.get("item_id")
        if self.push(AudioDelta(pcm, rt.WIRE_RATE)):
            self._delta_items.append(item if isinstance(item, str) else None)

    def _on_transcript(self, message: Message) -> None:
        delta = message.get("delta")
        if message.get("response_id") not in self._cancelled and isinstance(delta, str) and delta:
            self.push(TranscriptDelta(delta))

    def _on_call(self, message: Message) -> None:
        call_id = str(message.get("call_id") or "")
        if message.get("response_id") in self._cancelled or call_id in self._calls_seen:
            return
        self._calls_seen.add(call_id)
        arguments = rt.tool_arguments(message.get("arguments"))
        self.push(ToolCallRequest(str(message.get("name") or ""), arguments, call_id or None))
        self._awaiting.add(call_id)
        self._response_calls.append(call_id)

    def _on_item_done(self, message: Message) -> None:
        item = message.get("item") or {}
        if item.get("type") == "function_call" and item.get("status") != "incomplete":
            self._on_call({**item, "response_id": message.get("response_id")})

    def _on_speech_started(self, message: Message) -> None:
        self.push(SpeechStarted())
        if self.options.interrupt_response == "off":
            return  # the server goes on; so does the playback
        now = self._media_s
        active = self._response_id
        if active is None and self._playback_end <= now:
            return
        self.push(SpeechCancelled())
        if active is not None:
            self._cancelled.add(active)
            cancel = {"type": rt.RESPONSE_CANCEL, **({"response_id": active} if active else {})}
            self.post(self._tracked(cancel))
        queued = max(0.0, self._playback_end - now) * rt.WIRE_RATE
        for item, samples in reversed(self._playing):  # each item cut short: what was heard
            if queued <= 0:
                break
            unplayed = min(queued, samples)
            queued -= unplayed
            heard_ms = int((samples - unplayed) * 1000 // rt.WIRE_RATE)
            if item is not None and heard_ms > 0:
                self.post(self._tracked(rt.truncate(item, heard_ms)))
        self._playing.clear()
        self._playback_end = now

    def _on_audio_cleared(self, message: Message) -> None:
        """The server cleared the output audio buffer (WebRTC clients get this when the agent
        stops; `serve-agent` sends it too): what is still queued is not played."""
        rid = str(message.get("response_id") or "")
        if rid in self._cancelled or rid in self._stopped:
            return  # our own cancel, or the response.done that stopped it said so already
        self._stopped.add(rid)
        self.push(SpeechCancelled())

    def _on_response_done(self, message: Message) -> None:
        response = message.get("response") or {}
        rid = str(response.get("id") or "")
        if rid == self._response_id or not rid:
            self._response_id = None
        self.push(ResponseDone())
        usage = rt.usage(response)
        if usage is not None:
            self.push(usage)
        status = response.get("status")
        if status == "failed":
            details = response.get("status_details") or {}
            error = details.get("error") if isinstance(details, dict) else None
            self.fail(f"response failed: {error or details}")
            return
        if (
            status == "cancelled"
            and rid not in self._cancelled
            and self._playback_end > self._media_s
        ):
            self.push(SpeechCancelled())  # the server stopped a response whose audio still plays
            self._stopped.add(rid)
        self._cancelled.discard(rid)
        if self._response_calls:
            self._response_calls = []
            self._continue = True
        self._maybe_continue()

    def _maybe_continue(self) -> None:
        """One `response.create` once the response is done and all its outputs are in."""
        if self._continue and not self._awaiting and self._response_id is None:
            self._continue = False
            self.post(self._tracked({"type": rt.RESPONSE_CREATE}))


def _session_updated(message: Message) -> bool:
    return rt.canonical(str(message.get("type"))) == rt.SESSION_UPDATED


@register_agent(
    "openai-realtime",
    description="OpenAI Realtime API over WebSocket (or any server speaking it, e.g. serve-agent).",
    channels=("audio",),
)
def _factory(spec: AgentSpec, channel: Channel) -> Any:  # a StreamingAgent
    return OpenAIRealtimeAgent(RealtimeOptions.from_spec(spec))
