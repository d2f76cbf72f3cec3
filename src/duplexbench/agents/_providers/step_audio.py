"""`step-audio`: StepFun's Realtime API (Step-Audio 2 / step-1o-audio) over a WebSocket.

Spec: `step-audio:step-audio-2?voice=qingchunshaonv&api_key_env=STEPFUN_API_KEY`.

The protocol follows the OpenAI Realtime *beta* event set
(https://platform.stepfun.com/docs/zh/api-reference/realtime/chat, the guide
https://platform.stepfun.com/docs/zh/guides/developer/realtime and StepFun's
reference client https://github.com/stepfun-ai/Step-Realtime-Console):
`wss://api.stepfun.com/v1/realtime?model=MODEL` with `Authorization: Bearer`,
`session.update` with flat fields (`modalities` fixed to text+audio,
`instructions`, `voice`, `input_audio_format`/`output_audio_format` `pcm16`,
`turn_detection`, `tools`), `input_audio_buffer.append`, `response.audio.delta`,
`response.audio_transcript.delta`, `input_audio_buffer.speech_started`,
`response.function_call_arguments.done`, `conversation.item.create`
(`function_call_output`) + `response.create`, `response.done`, `error`.

Differences from OpenAI handled here: server VAD is *off* unless
`turn_detection` is sent (we always send it); audio is PCM16 at 24 kHz both
ways (the reference client's rate); tools are declared Chat-Completions style
(`{"type": "function", "function": {...}}`, `tool_format=flat` sends the
OpenAI-Realtime shape instead); a barge-in is cancelled by the client
(`response.cancel`), as the reference client does. This module keeps its own
small event mapping; it could later share code with `openai_realtime`.

A message the adapter cannot read (not JSON, a field of the wrong type, audio
that is not base64 PCM16) ends the episode as an error, like a provider error
or a dropped connection; failure reasons are cut to 1000 characters.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote

import numpy as np
import soxr

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
from duplexbench.audio import AudioFormatError, AudioFrame, pcm16_bytes_to_array

DEFAULT_URL = "wss://api.stepfun.com/v1/realtime"
DEFAULT_MODEL = "step-audio-2"
DEFAULT_VOICE = "qingchunshaonv"
STEP_RATE = 24_000
BENIGN_ERRORS = frozenset({"response_cancel_not_active"})
OPTIONS = ("voice", "base_url", "api_key_env", "setup_timeout", "temperature", "tool_format")


@dataclass(frozen=True)
class StepAudioConfig:
    model: str = DEFAULT_MODEL
    voice: str = DEFAULT_VOICE
    base_url: str = DEFAULT_URL
    api_key_env: str = "STEPFUN_API_KEY"
    setup_timeout_s: float = 10.0
    temperature: float | None = None
    tool_format: Literal["nested", "flat"] = "nested"

    @classmethod
    def from_spec(cls, spec: AgentSpec) -> StepAudioConfig:
        opts = dict(spec.options)
        unknown = sorted(set(opts) - set(OPTIONS))
        if unknown:
            raise ValueError(
                f"step-audio: unknown option(s) {', '.join(unknown)}; known: {', '.join(OPTIONS)}"
            )
        tool_format = opts.get("tool_format", "nested")
        if tool_format not in ("nested", "flat"):
            raise ValueError("step-audio: tool_format must be 'nested' or 'flat'")
        try:
            timeout = float(opts.get("setup_timeout", "10"))
            temperature = float(opts["temperature"]) if "temperature" in opts else None
        except ValueError as exc:
            raise ValueError(f"step-audio: bad number: {exc}") from None
        return cls(
            model=spec.model or DEFAULT_MODEL,
            voice=opts.get("voice") or DEFAULT_VOICE,
            base_url=opts.get("base_url") or DEFAULT_URL,
            api_key_env=opts.get("api_key_env") or "STEPFUN_API_KEY",
            setup_timeout_s=timeout,
            temperature=temperature,
            tool_format="flat" if tool_format == "flat" else "nested",
        )


def session_update(config: StepAudioConfig, session: AudioSession) -> Message:
    body: dict[str, Any] = {
        "modalities": ["text", "audio"],
        "instructions": session.session.instructions,
        "voice": config.voice,
        "input_audio_format": "pcm16",
        "output_audio_format": "pcm16",
        "turn_detection": {"type": "server_vad"},
        "tools": [_tool(t, config.tool_format) for t in session.session.tools],
        "tool_choice": "auto",
    }
    if config.temperature is not None:
        body["temperature"] = config.temperature
    return {"type": "session.update", "session": body}


def _tool(tool: ToolSpec, form: str) -> dict[str, Any]:
    fn = {"name": tool.name, "description": tool.description, "parameters": tool.parameters}
    return {"type": "function", "function": fn} if form == "nested" else {"type": "function", **fn}


def _usage(usage: dict[str, Any]) -> UsageDelta:
    def audio(details: Any) -> int:
        return token_count(details.get("audio_tokens")) if isinstance(details, dict) else 0

    return UsageDelta(
        input_tokens=token_count(usage.get("input_tokens")),
        output_tokens=token_count(usage.get("output_tokens")),
        input_audio_tokens=audio(usage.get("input_token_details")),
        output_audio_tokens=audio(usage.get("output_token_details")),
    )


def _arguments(raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw if raw is not None else {}
    try:
        return json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError):  # RecursionError: nested too deeply
        return raw  # the workbench rejects it and tells the model


class StepAudioAgent(WebSocketSession):
    """A `StreamingAgent` speaking StepFun's realtime protocol."""

    def __init__(
        self,
        config: StepAudioConfig | None = None,
        *,
        transport: Transport | None = None,
        connector: Connector | None = None,
    ) -> None:
        super().__init__(transport, connector)
        self.config = config or StepAudioConfig()
        self._active = False  # a response is in progress
        self._outstanding: set[str] = set()  # tool calls awaiting their result
        self._seen: set[str] = set()
        self._continue = False  # results were sent: ask for the next response
        self._resampler: Any = None

    def __repr__(self) -> str:
        return (
            f"StepAudioAgent(model={self.config.model!r}, voice={self.config.voice!r}, "
            f"base_url={self.config.base_url!r}, api_key_env={self.config.api_key_env!r})"
        )

    # ------------------------------------------------------------ streaming API

    name = "step-audio"

    async def connect(self, session: AudioSession) -> None:
        first = session_update(self.config, session)
        timeout = self.config.setup_timeout_s
        await self.open_session(first, _session_updated, "session.updated", timeout)

    def endpoint(self) -> tuple[str, dict[str, str]]:
        key = self.use_key(api_key(self.config.api_key_env))
        sep = "&" if "?" in self.config.base_url else "?"
        url = f"{self.config.base_url}{sep}model={quote(self.config.model, safe='')}"
        return url, {"Authorization": f"Bearer {key}"}

    async def send_audio(self, frame: AudioFrame) -> None:
        if not self.ready:
            return
        pcm = frame.samples
        if frame.sample_rate != STEP_RATE:
            if self._resampler is None:
                self._resampler = soxr.ResampleStream(
                    frame.sample_rate, STEP_RATE, 1, dtype="int16", quality="HQ"
                )
            pcm = self._resampler.resample_chunk(np.asarray(pcm, dtype=np.int16))
        if len(pcm):
            data = base64.b64encode(np.asarray(pcm).astype("<i2").tobytes()).decode("ascii")
            await self.send({"type": "input_audio_buffer.append", "audio": data})

    async def send_tool_result(self, result: ToolResultMessage) -> None:
        if self._failed or self._transport is None:
            return
        item = {
            "type": "function_call_output",
            "call_id": result.call_id,
            "output": json.dumps(result.output),
        }
        await self.send({"type": "conversation.item.create", "item": item})
        self._outstanding.discard(result.call_id)
        self._continue = True
        await self._maybe_continue()

    # ------------------------------------------------------------ internals

    async def _maybe_continue(self) -> None:
        """After tool results: one `response.create` once no call or response is pending."""
        if self._continue and not self._outstanding and not self._active and not self._failed:
            self._continue = False
            await self.send({"type": "response.create"})

    def malformed(self, message: Message, exc: Exception) -> str:
        kind = str(message.get("type"))[:60]
        return f"malformed {kind} event: {type(exc).__name__}: {exc}"

    async def on_message(self, message: Message) -> None:
        kind = message.get("type")
        if kind == "response.created":
            self._active = True
        elif kind == "response.audio.delta":
            self._audio(message.get("delta", ""))
        elif kind == "response.audio_transcript.delta" and message.get("delta"):
            self.push(TranscriptDelta(str(message["delta"])))
        elif kind == "input_audio_buffer.speech_started":
            self.push(SpeechStarted())
            self.push(SpeechCancelled())
            if self._active:
                self.post({"type": "response.cancel"})  # from the reader: never waits
        elif kind == "input_audio_buffer.speech_stopped":
            self.push(SpeechStopped())
        elif kind == "response.function_call_arguments.done":
            self._call(message.get("call_id"), message.get("name"), message.get("arguments"))
        elif kind == "response.output_item.done":
            item = message.get("item")
            if isinstance(item, dict) and item.get("type") == "function_call":
                self._call(item.get("call_id"), item.get("name"), item.get("arguments"))
        elif kind == "response.done":
            await self._done(message.get("response"))
        elif kind == "error":
            error = message.get("error")
            error = error if isinstance(error, dict) else {"message": str(error)}
            if str(error.get("code")) not in BENIGN_ERRORS:
                code = error.get("code") or error.get("type") or "error"
                self.fail(f"provider error {code}: {error.get('message', '')}")

    async def _done(self, response: Any) -> None:
        self._active = False
        response = response if isinstance(response, dict) else {}
        usage = response.get("usage")
        if isinstance(usage, dict):
            self.push(_usage(usage))
        if response.get("status") == "failed":
            details = response.get("status_details") or {}
            error = details.get("error") if isinstance(details, dict) else None
            message = error.get("message") if isinstance(error, dict) else details
            self.fail(f"response failed: {message}")
            return
        self.push(ResponseDone())
        await self._maybe_continue()

    def _audio(self, delta: Any) -> None:
        if not isinstance(delta, str):
            self.fail(f"bad audio from the provider: a delta of type {type(delta).__name__}")
            return
        try:
            pcm = pcm16_bytes_to_array(base64.b64decode(delta, validate=True))
        except (ValueError, AudioFormatError) as exc:
            self.fail(f"bad audio from the provider: {exc}")
            return
        if pcm.size:
            self.push(AudioDelta(pcm, STEP_RATE))

    def _call(self, call_id: Any, name: Any, arguments: Any) -> None:
        if not call_id or not name or str(call_id) in self._seen:
            return
        self._seen.add(str(call_id))
        self._outstanding.add(str(call_id))
        self.push(ToolCallRequest(str(name), _arguments(arguments), str(call_id)))


def _session_updated(message: Message) -> bool:
    return message.get("type") == "session.updated"


@register_agent(
    "step-audio",
    description="StepFun Realtime API (Step-Audio 2, WebSocket); needs STEPFUN_API_KEY.",
    channels=("audio",),
)
def _factory(spec: AgentSpec, channel: Channel) -> Any:
    # A StreamingAgent; the registry's factory type names TextAgent | StepAgent only.
    return StepAudioAgent(StepAudioConfig.from_spec(spec))
