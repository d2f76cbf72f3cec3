"""`twilio-stream`: a phone agent reached over the Twilio Media Streams WebSocket protocol.

Spec: `twilio-stream?url=ws://host:port/path[&param.NAME=VALUE...][&dtmf=DIGITS]`
(options: `OPTIONS`). duplexbench plays the telephone network: it dials the
agent's WebSocket and speaks Twilio's bidirectional stream protocol
(https://www.twilio.com/docs/voice/media-streams/websocket-messages), as
`<Connect><Stream>` does for a live call, so a production phone agent (a
pipecat bot with its Twilio serializer, a hosted phone-agent platform's
media endpoint) runs unchanged.

To the agent: `connected`, `start` (account, call and stream ids, the
`customParameters` given as `param.NAME=VALUE` options, `mediaFormat`
audio/x-mulaw 8000 Hz mono), one `media` message per 20 ms of caller audio
(G.711 mu-law, base64; `chunk` and `timestamp` count from the stream's start),
`dtmf` for each digit of the `dtmf` option right after `start` (a caller
pressing keys, e.g. to pass an IVR menu), `mark` echoes, and `stop` at the end.

From the agent: `media` (mu-law 8 kHz: `AudioDelta`), `mark` (echoed back
once the audio queued before it has played on the harness's playback clock,
or at once when a `clear` drops it, as Twilio does), `clear` (barge-in: the
queued audio is dropped: `SpeechCancelled`). The protocol has no end of a
reply: once the agent has been silent for `turn_gap_ms` (default 500: none of
its audio playing or arriving), its turn is over (`ResponseDone`). The agent hanging up (closing
the socket normally, code 1000 or 1001) is `EndCall`; any other close, a
message that is not JSON, or audio that is not base64 is an `AgentFailure`.
Unknown events are ignored and counted in `unknown_events`.

The protocol carries audio only: no instructions (unless `instructions=on`
puts them in `customParameters`), no tools (a phone agent calls its own
back end, not the Workbench), no transcript (the user hears the agent through
the harness's ASR). docs/agents.md, "A Twilio Media Streams agent".
"""

from __future__ import annotations

import base64
import hashlib
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._events import AudioDelta, EndCall, ResponseDone, SpeechCancelled
from duplexbench.agents._protocol import ToolResultMessage
from duplexbench.agents._providers.openai_realtime_protocol import StreamResampler
from duplexbench.agents._providers.transport import Message, Transport, TransportClosed
from duplexbench.agents._providers.ws_session import Connector, WebSocketSession
from duplexbench.agents._registry import AgentSpec, Channel, register_agent
from duplexbench.audio import AudioFrame, mulaw_decode, mulaw_encode

__all__ = ["OPTIONS", "PHONE_RATE", "TwilioStreamAgent", "TwilioStreamConfig"]

PHONE_RATE = 8_000
CHUNK_BYTES = 160  # 20 ms of 8 kHz mu-law: what Twilio sends per media message
HANG_UP_CODES = frozenset({1000, 1001})
DTMF_DIGITS = frozenset("0123456789*#")
OPTIONS = ("url", "dtmf", "instructions", "account_sid", "turn_gap_ms", "param.NAME")


@dataclass(frozen=True)
class TwilioStreamConfig:
    url: str
    parameters: dict[str, str] = field(default_factory=dict)
    dtmf: str = ""
    instructions: bool = False
    account_sid: str = "AC" + "0" * 32
    turn_gap_ms: int = 500

    @classmethod
    def from_spec(cls, spec: AgentSpec) -> TwilioStreamConfig:
        opts = dict(spec.options)
        params = {k[6:]: v for k, v in opts.items() if k.startswith("param.") and k[6:]}
        unknown = sorted(k for k in opts if k not in OPTIONS and k[6:] not in params)
        if unknown:
            known = ", ".join(OPTIONS)
            raise ValueError(
                f"twilio-stream: unknown option(s) {', '.join(unknown)}; known: {known}"
            )
        url = opts.get("url", "")
        if not url.startswith(("ws://", "wss://")):
            raise ValueError("twilio-stream: url=ws://... or wss://... (the agent's stream URL)")
        dtmf = opts.get("dtmf", "")
        if set(dtmf) - DTMF_DIGITS:
            raise ValueError(f"twilio-stream: dtmf takes the keys 0-9, * and #, not {dtmf!r}")
        flag = opts.get("instructions", "off")
        if flag not in ("on", "off"):
            raise ValueError("twilio-stream: instructions must be 'on' or 'off'")
        account = opts.get("account_sid") or cls.account_sid
        gap = opts.get("turn_gap_ms", "500")
        if not gap.isdigit() or not 20 <= int(gap) <= 10_000:
            raise ValueError("twilio-stream: turn_gap_ms must be a whole number from 20 to 10000")
        return cls(url, params, dtmf, flag == "on", account, int(gap))


def call_ids(session: AudioSession) -> tuple[str, str]:
    """The call's and the stream's ids: Twilio's shapes (CA/MZ + 32 hex), one per episode."""
    key = f"{session.session.item_id}:{session.session.seed}".encode()
    digest = hashlib.sha256(key).hexdigest()
    return "CA" + digest[:32], "MZ" + digest[32:64]


@dataclass
class _Mark:
    name: str
    position_ms: float  # agent audio received before it
    due_ms: float | None = None  # when that audio has played (set once handed over)


class TwilioStreamAgent(WebSocketSession):
    """A `StreamingAgent` that is the telephone network to a Media Streams agent."""

    name = "twilio-stream"

    def __init__(
        self,
        config: TwilioStreamConfig,
        *,
        transport: Transport | None = None,
        connector: Connector | None = None,
    ) -> None:
        super().__init__(transport, connector)
        self.config = config
        self.unknown_events: Counter[str] = Counter()
        self.marks_echoed: list[str] = []
        self.hung_up = False
        self._call_sid = self._stream_sid = ""
        self._seq = 0
        self._chunk = 0
        self._pending = np.zeros(0, dtype=np.uint8)  # mu-law not yet sent (under 20 ms)
        self._resamplers: dict[int, StreamResampler] = {}
        self._received_ms = 0.0  # agent audio received
        self._handed_ms = 0.0  # of it handed to the harness by poll()
        self._playback_end = 0.0  # media ms at which the handed-over audio has played
        self._media_ms = 0.0
        self._marks: deque[_Mark] = deque()
        self._speaking = False  # audio arrived since the last ResponseDone
        self._last_audio_ms = 0.0  # media time when agent audio last arrived

    def __repr__(self) -> str:
        return f"TwilioStreamAgent(url={self.config.url!r})"

    # ------------------------------------------------------------ streaming API

    async def connect(self, session: AudioSession) -> None:
        self._call_sid, self._stream_sid = call_ids(session)
        connected = {"event": "connected", "protocol": "Call", "version": "1.0.0"}
        await self.open_session(connected, None, "", 0.0)
        if not self.ready:
            return
        self.post(self._start(session))
        for digit in self.config.dtmf:
            self.send_dtmf(digit)

    def endpoint(self) -> tuple[str, dict[str, str]]:
        return self.config.url, {}

    def send_dtmf(self, digit: str) -> None:
        """The caller presses a key (0-9, *, #)."""
        if digit not in DTMF_DIGITS:
            raise ValueError(f"not a DTMF key: {digit!r}")
        self.post(self._message("dtmf", dtmf={"track": "inbound_track", "digit": digit}))

    async def send_audio(self, frame: AudioFrame) -> None:
        self._media_ms = frame.t_ms + len(frame.samples) * 1000 / frame.sample_rate
        self._echo_due_marks()
        self._maybe_turn_over()
        if not self.ready or self._closing:
            return
        pcm = np.asarray(frame.samples, dtype=np.int16)
        if frame.sample_rate != PHONE_RATE:  # about 1 ms of delay (soxr's stream: 85 ms)
            stream = self._resamplers.get(frame.sample_rate)
            if stream is None:
                stream = self._resamplers[frame.sample_rate] = StreamResampler(
                    frame.sample_rate, PHONE_RATE
                )
            pcm = stream.process(pcm)
        self._pending = np.concatenate([self._pending, mulaw_encode(pcm)])
        while len(self._pending) >= CHUNK_BYTES:
            chunk, self._pending = self._pending[:CHUNK_BYTES], self._pending[CHUNK_BYTES:]
            await self.send(self._media(chunk))

    async def send_tool_result(self, result: ToolResultMessage) -> None:
        return None  # the protocol has no tools: a phone agent never asks for one

    def poll(self) -> list[Any]:
        events = list(super().poll())
        for event in events:
            if isinstance(event, AudioDelta):
                ms = len(event.pcm) * 1000 / event.sample_rate
                self._handed_ms += ms
                self._playback_end = max(self._playback_end, self._media_ms) + ms
            elif isinstance(event, SpeechCancelled):
                self._playback_end, self._speaking = self._media_ms, False
        for mark in self._marks:
            if mark.due_ms is None and mark.position_ms <= self._handed_ms + 1e-6:
                mark.due_ms = self._playback_end - (self._handed_ms - mark.position_ms)
        self._echo_due_marks()
        return events

    async def close(self) -> None:
        if self.ready and not self.hung_up:
            stop = {"accountSid": self.config.account_sid, "callSid": self._call_sid}
            self.post(self._message("stop", stop=stop))
        await super().close()

    # ------------------------------------------------------------ from the agent

    def on_message(self, message: Message) -> None:
        kind = message.get("event")
        if kind == "media":
            self._on_media(message.get("media"))
        elif kind == "mark":
            mark = message.get("mark")
            name = mark.get("name") if isinstance(mark, dict) else None
            if isinstance(name, str):
                self._marks.append(_Mark(name, self._received_ms))
        elif kind == "clear":
            self.push(SpeechCancelled())
            for mark in self._marks:  # the dropped audio's marks come back at once
                self._echo(mark.name)
            self._marks.clear()
        else:
            self.unknown_events[str(kind)[:60]] += 1

    def peer_closed(self, exc: TransportClosed) -> None:
        if exc.code in HANG_UP_CODES and not self._failed:
            self.hung_up, self._closing = True, True
            self.push(EndCall())
        else:
            super().peer_closed(exc)

    def malformed(self, message: Message, exc: Exception) -> str:
        kind = str(message.get("event"))[:60]
        return f"malformed {kind} message: {type(exc).__name__}: {exc}"

    # ------------------------------------------------------------ internals

    def _on_media(self, media: Any) -> None:
        payload = media.get("payload") if isinstance(media, dict) else None
        if not isinstance(payload, str):
            self.fail("bad audio from the agent: a media message without a payload string")
            return
        try:
            codes = np.frombuffer(base64.b64decode(payload, validate=True), dtype=np.uint8)
        except ValueError as exc:
            self.fail(f"bad audio from the agent: {exc}")
            return
        if codes.size:
            self._received_ms += codes.size * 1000 / PHONE_RATE
            self._speaking, self._last_audio_ms = True, self._media_ms
            self.push(AudioDelta(mulaw_decode(codes), PHONE_RATE))

    def _maybe_turn_over(self) -> None:
        """The agent silent for `turn_gap_ms` (nothing playing, nothing arriving): its turn
        is over."""
        if not self._speaking or self._handed_ms < self._received_ms - 1e-6:
            return
        silent_since = max(self._last_audio_ms, self._playback_end)
        if self._media_ms - silent_since >= self.config.turn_gap_ms - 1e-6:
            self._speaking = False
            self.push(ResponseDone())

    def _echo_due_marks(self) -> None:
        while self._marks and self._marks[0].due_ms is not None:
            if self._marks[0].due_ms > self._media_ms + 1e-6:
                break
            self._echo(self._marks.popleft().name)

    def _echo(self, name: str) -> None:
        self.marks_echoed.append(name)
        self.post(self._message("mark", mark={"name": name}))

    def _start(self, session: AudioSession) -> Message:
        parameters = dict(self.config.parameters)
        if self.config.instructions:
            parameters["instructions"] = session.session.instructions
        start = {
            "accountSid": self.config.account_sid,
            "streamSid": self._stream_sid,
            "callSid": self._call_sid,
            "tracks": ["inbound"],
            "customParameters": parameters,
            "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": PHONE_RATE, "channels": 1},
        }
        return self._message("start", start=start)

    def _media(self, chunk: np.ndarray[Any, Any]) -> Message:
        self._chunk += 1
        media = {
            "track": "inbound",
            "chunk": str(self._chunk),
            "timestamp": str((self._chunk - 1) * 20),
            "payload": base64.b64encode(chunk.tobytes()).decode("ascii"),
        }
        return self._message("media", media=media)

    def _message(self, event: str, **body: Any) -> Message:
        self._seq += 1
        return {
            "event": event,
            "sequenceNumber": str(self._seq),
            **body,
            "streamSid": self._stream_sid,
        }


@register_agent(
    "twilio-stream",
    description="A phone agent over the Twilio Media Streams WebSocket (url=ws://...).",
    channels=("audio",),
)
def _factory(spec: AgentSpec, channel: Channel) -> Any:
    # A StreamingAgent; the registry's factory type names TextAgent | StepAgent only.
    return TwilioStreamAgent(TwilioStreamConfig.from_spec(spec))
