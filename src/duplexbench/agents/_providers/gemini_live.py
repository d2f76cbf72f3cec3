"""`gemini-live`: Google's Gemini Live API (BidiGenerateContent over a WebSocket).

Spec: `gemini-live:MODEL?voice=Puck&base_url=wss://...&api_key_env=GEMINI_API_KEY`.

Protocol (https://ai.google.dev/gemini-api/docs/live-api/get-started-websocket):
the client sends one `setup` message (model, `generationConfig` with audio
output and the voice, `systemInstruction`, `tools[].functionDeclarations`,
`outputAudioTranscription`) and waits for `setupComplete`; user audio goes
out as `realtimeInput.audio` (base64 PCM16, `audio/pcm;rate=16000`). The
server sends `serverContent` (`modelTurn.parts[].inlineData` 24 kHz PCM16,
`outputTranscription`, `interrupted`, `turnComplete`, `turnCompleteReason`),
`toolCall` (`functionCalls[{id, name, args}]`, answered with `toolResponse`),
`toolCallCancellation`, `usageMetadata`, `voiceActivity` (the server's VAD:
`SpeechStarted` / `SpeechStopped`) and `goAway`; the other fields of
google-genai's `LiveServerMessage` are read past on purpose
(`SERVER_MESSAGE_KEYS`, `SERVER_CONTENT_READ`), keys it does not define are
counted in `unknown_keys`. Errors arrive as a close frame with a reason (the
message type has no error field), which ends the episode as an agent error,
as does a message the adapter cannot read (not JSON, a field of the wrong
type, audio that is not base64 PCM16 at 8-48 kHz). A turn that ends for
another reason than finishing (`turnCompleteReason`, e.g. a rejected
response or a malformed function call) is counted in `turn_complete_reasons`. Failure reasons are
cut to 1000 characters. The key never appears in a repr, an event or an error
message.
"""

from __future__ import annotations

import base64
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote

import numpy as np

from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._events import (
    AudioDelta,
    ResponseDone,
    SpeechCancelled,
    SpeechStarted,
    SpeechStopped,
    ToolCallRequest,
    TranscriptDelta,
    UsageDelta,
    token_count,
)
from duplexbench.agents._protocol import ToolResultMessage, ToolSpec
from duplexbench.agents._providers.secrets import api_key
from duplexbench.agents._providers.transport import (
    Message,
    Transport,
)
from duplexbench.agents._providers.ws_session import Connector, WebSocketSession
from duplexbench.agents._registry import AgentSpec, Channel, register_agent
from duplexbench.audio import AudioFormatError, AudioFrame, pcm16_bytes_to_array, resample

DEFAULT_URL = (
    "wss://generativelanguage.googleapis.com/ws/"
    "google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent"
)
DEFAULT_MODEL = "gemini-2.5-flash-native-audio-preview-12-2025"
INPUT_RATE = 16_000
OUTPUT_RATE = 24_000
AUDIO_RATES = range(8_000, 48_001)
"""Output audio rates accepted from the provider (`audio/pcm;rate=N`); others fail."""
_RATE = re.compile(r"rate=(\d+)")
SERVER_MESSAGE_KEYS = frozenset(
    (
        "setupComplete",
        "serverContent",
        "toolCall",
        "toolCallCancellation",
        "usageMetadata",
        "goAway",
        "sessionResumptionUpdate",  # no resumption: a session is one episode
        "voiceActivityDetectionSignal",  # informational
        "voiceActivity",
    )
)
"""`LiveServerMessage`'s fields (google-genai 3.3.0; a test checks them against the
installed SDK). Errors are not among them: the server closes the socket with a reason,
which ends the episode as an agent error with that reason."""
_VOICE_ACTIVITY: dict[str, type[SpeechStarted] | type[SpeechStopped]] = {
    "ACTIVITY_START": SpeechStarted,
    "ACTIVITY_END": SpeechStopped,
}
_ORDINARY_TURN_ENDS = ("TURN_COMPLETE_REASON_UNSPECIFIED", "NEED_MORE_INPUT")
SERVER_CONTENT_READ = frozenset(
    ("modelTurn", "turnComplete", "interrupted", "outputTranscription", "turnCompleteReason")
)
"""`LiveServerContent` fields the adapter reads."""
SERVER_CONTENT_IGNORED = frozenset(
    (
        "generationComplete",  # a turn ends at turnComplete
        "waitingForInput",
        "inputTranscription",  # the harness has its own transcripts of the caller
        "interimInputTranscription",
        "groundingMetadata",  # no search grounding is configured
        "urlContextMetadata",
        "interactionStatus",
    )
)
"""`LiveServerContent` fields read past on purpose (a test checks both sets against the
installed google-genai)."""
OPTIONS = (
    "voice",
    "base_url",
    "api_key_env",
    "auth",
    "setup_timeout",
    "temperature",
    "language",
    "schema",
)


@dataclass(frozen=True)
class GeminiLiveConfig:
    model: str = DEFAULT_MODEL
    voice: str | None = None
    base_url: str = DEFAULT_URL
    api_key_env: str = "GEMINI_API_KEY"
    auth: Literal["query", "header"] = "query"
    """`query`: `?key=` as documented for raw WebSockets; `header`: `x-goog-api-key`."""
    setup_timeout_s: float = 10.0
    temperature: float | None = None
    language: str | None = None
    schema: Literal["json", "openapi"] = "json"
    """`json`: `parametersJsonSchema` (full JSON Schema); `openapi`: `parameters`."""

    @classmethod
    def from_spec(cls, spec: AgentSpec) -> GeminiLiveConfig:
        opts = dict(spec.options)
        unknown = sorted(set(opts) - set(OPTIONS))
        if unknown:
            raise ValueError(
                f"gemini-live: unknown option(s) {', '.join(unknown)}; known: {', '.join(OPTIONS)}"
            )
        auth = opts.get("auth", "query")
        schema = opts.get("schema", "json")
        if auth not in ("query", "header"):
            raise ValueError("gemini-live: auth must be 'query' or 'header'")
        if schema not in ("json", "openapi"):
            raise ValueError("gemini-live: schema must be 'json' or 'openapi'")
        try:
            timeout = float(opts.get("setup_timeout", "10"))
            temperature = float(opts["temperature"]) if "temperature" in opts else None
        except ValueError as exc:
            raise ValueError(f"gemini-live: bad number: {exc}") from None
        return cls(
            model=spec.model or DEFAULT_MODEL,
            voice=opts.get("voice") or None,
            base_url=opts.get("base_url") or DEFAULT_URL,
            api_key_env=opts.get("api_key_env") or "GEMINI_API_KEY",
            auth="header" if auth == "header" else "query",
            setup_timeout_s=timeout,
            temperature=temperature,
            language=opts.get("language") or None,
            schema="openapi" if schema == "openapi" else "json",
        )


def setup_message(config: GeminiLiveConfig, session: AudioSession) -> Message:
    """The first client message: model, audio output, voice, instructions, tools."""
    model = config.model if config.model.startswith("models/") else f"models/{config.model}"
    generation: dict[str, Any] = {"responseModalities": ["AUDIO"]}
    speech: dict[str, Any] = {}
    if config.voice:
        speech["voiceConfig"] = {"prebuiltVoiceConfig": {"voiceName": config.voice}}
    if config.language:
        speech["languageCode"] = config.language
    if speech:
        generation["speechConfig"] = speech
    if config.temperature is not None:
        generation["temperature"] = config.temperature
    setup: dict[str, Any] = {
        "model": model,
        "generationConfig": generation,
        "systemInstruction": {"parts": [{"text": session.session.instructions}]},
        "outputAudioTranscription": {},
    }
    if session.session.tools:
        declarations = [_declaration(t, config.schema) for t in session.session.tools]
        setup["tools"] = [{"functionDeclarations": declarations}]
    return {"setup": setup}


def _declaration(tool: ToolSpec, schema: str) -> dict[str, Any]:
    field = "parametersJsonSchema" if schema == "json" else "parameters"
    return {"name": tool.name, "description": tool.description, field: tool.parameters}


def _usage(meta: dict[str, Any]) -> UsageDelta:
    def by_modality(details: Any) -> int:
        if not isinstance(details, list):
            return 0
        return sum(
            token_count(d.get("tokenCount"))
            for d in details
            if isinstance(d, dict) and d.get("modality") == "AUDIO"
        )

    return UsageDelta(
        input_tokens=token_count(meta.get("promptTokenCount")),
        output_tokens=token_count(meta.get("responseTokenCount")),
        input_audio_tokens=by_modality(meta.get("promptTokensDetails")),
        output_audio_tokens=by_modality(meta.get("responseTokensDetails")),
    )


class GeminiLiveAgent(WebSocketSession):
    """A `StreamingAgent` speaking the Gemini Live protocol.

    `transport` (tests, local servers) is used as given; otherwise `connector`
    (default: a WebSocket) opens `base_url` with the key from `api_key_env`.
    """

    def __init__(
        self,
        config: GeminiLiveConfig | None = None,
        *,
        transport: Transport | None = None,
        connector: Connector | None = None,
    ) -> None:
        super().__init__(transport, connector)
        self.config = config or GeminiLiveConfig()
        self._cancelled: set[str] = set()
        self._calls = 0
        self.unknown_keys: Counter[str] = Counter()
        """Top-level message keys the Live API does not define (counted, not read)."""
        self.turn_complete_reasons: Counter[str] = Counter()
        """Turns that ended for another reason than finishing (a rejected response, a
        malformed function call, a safety block): counted for diagnosis."""

    def __repr__(self) -> str:
        return (
            f"GeminiLiveAgent(model={self.config.model!r}, voice={self.config.voice!r}, "
            f"base_url={self.config.base_url!r}, api_key_env={self.config.api_key_env!r})"
        )

    # ------------------------------------------------------------ streaming API

    name = "gemini-live"

    async def connect(self, session: AudioSession) -> None:
        first = setup_message(self.config, session)
        timeout = self.config.setup_timeout_s
        await self.open_session(first, lambda m: "setupComplete" in m, "setupComplete", timeout)

    async def send_audio(self, frame: AudioFrame) -> None:
        if not self.ready:
            return
        pcm = frame.samples
        if frame.sample_rate != INPUT_RATE:
            pcm = resample(pcm, frame.sample_rate, INPUT_RATE)
        data = base64.b64encode(pcm.astype("<i2").tobytes()).decode("ascii")
        audio = {"data": data, "mimeType": f"audio/pcm;rate={INPUT_RATE}"}
        await self.send({"realtimeInput": {"audio": audio}})

    async def send_tool_result(self, result: ToolResultMessage) -> None:
        if self._failed or self._transport is None or result.call_id in self._cancelled:
            return
        response = {"id": result.call_id, "name": result.name, "response": result.output}
        await self.send({"toolResponse": {"functionResponses": [response]}})

    # ------------------------------------------------------------ internals

    def endpoint(self) -> tuple[str, dict[str, str]]:
        key = self.use_key(api_key(self.config.api_key_env))
        if self.config.auth == "header":
            return self.config.base_url, {"x-goog-api-key": key}
        sep = "&" if "?" in self.config.base_url else "?"
        return f"{self.config.base_url}{sep}key={quote(key, safe='')}", {}

    def on_message(self, message: Message) -> None:
        self.unknown_keys.update(k for k in message if k not in SERVER_MESSAGE_KEYS)
        content = message.get("serverContent")
        if isinstance(content, dict):
            self._content(content)
        call = message.get("toolCall")
        calls = call.get("functionCalls") if isinstance(call, dict) else None
        if isinstance(calls, list):
            self._tool_calls(calls)
        cancel = message.get("toolCallCancellation")
        ids = cancel.get("ids") if isinstance(cancel, dict) else None
        if isinstance(ids, list):
            self._cancelled.update(str(i) for i in ids)
        usage = message.get("usageMetadata")
        if isinstance(usage, dict):
            self.push(_usage(usage))
        activity = message.get("voiceActivity")
        kind = activity.get("voiceActivityType") if isinstance(activity, dict) else None
        if kind in _VOICE_ACTIVITY:
            self.push(_VOICE_ACTIVITY[kind]())
        if "goAway" in message:
            away = message["goAway"]
            left = away.get("timeLeft", "?") if isinstance(away, dict) else "?"
            self.fail(f"the server is ending the session (goAway, time left {left})")

    def _content(self, content: dict[str, Any]) -> None:
        if content.get("interrupted"):
            self.push(SpeechStarted())
            self.push(SpeechCancelled())
        turn = content.get("modelTurn")
        parts = turn.get("parts") if isinstance(turn, dict) else None
        for part in parts if isinstance(parts, list) else []:
            inline = part.get("inlineData") if isinstance(part, dict) else None
            if isinstance(inline, dict) and str(inline.get("mimeType", "")).startswith("audio/"):
                self._audio(inline)
        transcript = content.get("outputTranscription")
        if isinstance(transcript, dict) and transcript.get("text"):
            self.push(TranscriptDelta(str(transcript["text"])))
        if content.get("turnComplete"):
            reason = content.get("turnCompleteReason")
            if isinstance(reason, str) and reason not in _ORDINARY_TURN_ENDS:
                self.turn_complete_reasons[reason] += 1  # e.g. a rejected or malformed call
            self.push(ResponseDone())

    def _audio(self, inline: dict[str, Any]) -> None:
        match = _RATE.search(str(inline.get("mimeType", "")))
        digits = match.group(1) if match else str(OUTPUT_RATE)
        rate = int(digits) if len(digits) <= 6 else 0
        data = inline.get("data", "")
        if rate not in AUDIO_RATES or not isinstance(data, str):
            what = f"rate {digits[:12]} Hz" if rate not in AUDIO_RATES else "non-string data"
            self.fail(f"bad audio from the provider: {what}")
            return
        try:
            pcm = pcm16_bytes_to_array(base64.b64decode(data, validate=True))
        except (ValueError, AudioFormatError) as exc:
            self.fail(f"bad audio from the provider: {exc}")
            return
        if pcm.size:
            self.push(AudioDelta(np.asarray(pcm, dtype=np.int16), rate))

    def _tool_calls(self, calls: list[Any]) -> None:
        for call in calls:
            if not isinstance(call, dict) or not call.get("name"):
                continue
            self._calls += 1
            call_id = str(call.get("id") or f"gemini-call-{self._calls}")
            args = call.get("args")
            self.push(ToolCallRequest(str(call["name"]), args if args is not None else {}, call_id))


@register_agent(
    "gemini-live",
    description="Google Gemini Live API (native audio, WebSocket); needs GEMINI_API_KEY.",
    channels=("audio",),
)
def _factory(spec: AgentSpec, channel: Channel) -> Any:
    # A StreamingAgent; the registry's factory type names TextAgent | StepAgent only.
    return GeminiLiveAgent(GeminiLiveConfig.from_spec(spec))
