"""The OpenAI Realtime protocol: event names, message builders and parsers.

Shared by the client adapter (`openai_realtime.py`) and the server
(`_serve/server.py`). Audio on the wire is base64 PCM16 (little-endian, mono) at
24 kHz. Server event names exist in two spellings: the GA names
(`response.output_audio.delta`) and the beta ones (`response.audio.delta`);
:func:`canonical` maps beta names to GA names so both sides read either.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, fields
from math import gcd
from typing import Any
from urllib.parse import urlencode, urlparse

import numpy as np

from duplexbench.agents._events import UsageDelta, token_count
from duplexbench.agents._protocol import ToolSpec
from duplexbench.agents._providers import secrets
from duplexbench.agents._registry import AgentSpec
from duplexbench.audio import Int16Array, to_int16

Message = dict[str, Any]
WIRE_RATE = 24_000
"""Sample rate of PCM16 audio on the wire, both directions."""

KNOWN_VOICES = frozenset(
    ("alloy", "ash", "ballad", "coral", "echo", "sage", "shimmer", "verse", "marin", "cedar")
)
"""Voices the Realtime API accepts; an unknown voice silently drops a whole session.update."""

BENIGN_ERROR_CODES = frozenset(
    ("response_cancel_not_active", "conversation_already_has_active_response")
)
"""Error codes that follow from races the client cannot avoid (never an AgentFailure)."""

# Server events (GA names).
SESSION_CREATED = "session.created"
SESSION_UPDATED = "session.updated"
ERROR = "error"
SPEECH_STARTED = "input_audio_buffer.speech_started"
SPEECH_STOPPED = "input_audio_buffer.speech_stopped"
COMMITTED = "input_audio_buffer.committed"
RESPONSE_CREATED = "response.created"
RESPONSE_DONE = "response.done"
OUTPUT_ITEM_ADDED = "response.output_item.added"
OUTPUT_ITEM_DONE = "response.output_item.done"
OUTPUT_AUDIO_CLEARED = "output_audio_buffer.cleared"
CONTENT_PART_ADDED = "response.content_part.added"
CONTENT_PART_DONE = "response.content_part.done"
AUDIO_DELTA = "response.output_audio.delta"
AUDIO_DONE = "response.output_audio.done"
TRANSCRIPT_DELTA = "response.output_audio_transcript.delta"
TRANSCRIPT_DONE = "response.output_audio_transcript.done"
ARGUMENTS_DONE = "response.function_call_arguments.done"
ITEM_CREATED = "conversation.item.created"
ITEM_TRUNCATED = "conversation.item.truncated"

# Client events (the same names in GA and beta).
SESSION_UPDATE = "session.update"
APPEND = "input_audio_buffer.append"
COMMIT = "input_audio_buffer.commit"
CLEAR = "input_audio_buffer.clear"
ITEM_CREATE = "conversation.item.create"
ITEM_TRUNCATE = "conversation.item.truncate"
RESPONSE_CREATE = "response.create"
RESPONSE_CANCEL = "response.cancel"

_BETA_TO_GA = {
    "response.audio.delta": AUDIO_DELTA,
    "response.audio.done": AUDIO_DONE,
    "response.audio_transcript.delta": TRANSCRIPT_DELTA,
    "response.audio_transcript.done": TRANSCRIPT_DONE,
    "response.text.delta": "response.output_text.delta",
    "response.text.done": "response.output_text.done",
}


def canonical(event_type: str) -> str:
    """The GA name of a server event type (beta names are mapped, others kept)."""
    return _BETA_TO_GA.get(event_type, event_type)


# --- client options ------------------------------------------------------

_LOOPBACK = frozenset(("127.0.0.1", "localhost", "::1"))
IGNORED_SERVER_EVENTS = frozenset(
    (
        SESSION_CREATED,
        COMMITTED,
        "input_audio_buffer.cleared",
        "conversation.created",
        ITEM_CREATED,
        "conversation.item.added",
        "conversation.item.done",
        ITEM_TRUNCATED,
        "conversation.item.deleted",
        "conversation.item.input_audio_transcription.delta",
        "conversation.item.input_audio_transcription.completed",
        "conversation.item.input_audio_transcription.failed",
        OUTPUT_ITEM_ADDED,
        CONTENT_PART_ADDED,
        CONTENT_PART_DONE,
        AUDIO_DONE,
        TRANSCRIPT_DONE,
        "response.output_text.delta",
        "response.output_text.done",
        "response.function_call_arguments.delta",
        "rate_limits.updated",
        "output_audio_buffer.started",
        "output_audio_buffer.stopped",
        # informational: transcription segments of the user's audio (diarization models)
        "conversation.item.input_audio_transcription.segment",
        # answers to requests the adapter never sends (conversation.item.retrieve)
        "conversation.item.retrieved",
        # SIP calls only (the adapter speaks WebSocket)
        "input_audio_buffer.dtmf_event_received",
        # server VAD's idle timeout fired; the response it starts arrives as usual
        "input_audio_buffer.timeout_triggered",
        # remote MCP tools: the adapter configures none (tools are the Workbench's), so a
        # provider cannot run one; these are ignored rather than failed
        "mcp_list_tools.in_progress",
        "mcp_list_tools.completed",
        "mcp_list_tools.failed",
        "response.mcp_call.in_progress",
        "response.mcp_call.completed",
        "response.mcp_call.failed",
        "response.mcp_call_arguments.delta",
        "response.mcp_call_arguments.done",
        # beta transcription-only sessions (the adapter opens conversation sessions)
        "transcription_session.updated",
        # xAI's keep-alive (`xai-realtime`; in neither SDK union)
        "ping",
    )
)
"""Server events the adapter reads past on purpose; every other type of the `openai`
SDK's GA and beta server-event unions is handled (a test checks both)."""


EPISODE_ITEM_KEY = "duplexbench_item"
"""Key of the item id in `session.tracing.metadata` (`episode_metadata=on`)."""
XAI_TURN_DETECTION = frozenset(("type", "threshold", "prefix_padding_ms", "silence_duration_ms"))
"""The `turn_detection` fields xAI documents (the `xai` session shape sends only these)."""


def websocket_url(base: str) -> str:
    """`base` without a trailing slash, http(s):// mapped to ws(s)://."""
    base = base.rstrip("/")
    for plain, ws in (("http://", "ws://"), ("https://", "wss://")):
        if base.startswith(plain):
            return ws + base[len(plain) :]
    return base


@dataclass(frozen=True)
class RealtimeOptions:
    """Adapter settings (each is a spec option of the same name, `model` aside)."""

    model: str = "gpt-realtime"
    voice: str = "marin"
    voice_check: str = "on"
    base_url: str = "wss://api.openai.com/v1"
    api_key_env: str = "OPENAI_API_KEY"
    api: str = "ga"
    transcription: str = ""
    vad_threshold: float = 0.5
    vad_silence_ms: int = 500
    connect_timeout: float = 10.0
    max_inbox: int = 10_000
    interrupt_response: str = "on"
    """`off`: the server's VAD does not stop the agent's answer when the caller speaks (nor
    does the adapter stop its playback): the agent alone decides whether to yield."""
    episode_metadata: str = "off"
    """`on`: `session.tracing.metadata` names the episode's item (`duplexbench_item`), for a
    privileged test agent behind `serve-agent --suite` (never for an agent under test:
    an agent that knows the item id can look its answers up)."""

    @classmethod
    def from_spec(cls, spec: AgentSpec) -> RealtimeOptions:
        """Options from an agent spec; ValueError for unknown options or voices."""
        known = {f.name: f.type for f in fields(cls) if f.name != "model"}
        unknown = sorted(set(spec.options) - set(known))
        if unknown:
            raise ValueError(
                f"openai-realtime: unknown option(s) {', '.join(unknown)}; known: "
                + ", ".join(sorted(known))
            )
        values: dict[str, Any] = {"model": spec.model or cls.model}
        for name, value in spec.options.items():
            kind = {"float": float, "int": int}.get(str(known[name]), str)
            try:
                values[name] = kind(value)
            except ValueError:
                raise ValueError(
                    f"openai-realtime: option {name}={value!r} is not a {kind.__name__}"
                ) from None
        if str(values.get("voice", "")).lower() in KNOWN_VOICES:
            values["voice"] = values["voice"].lower()  # `Marin` -> `marin`
        options = cls(**values)
        options.validate()
        return options

    @property
    def agent_name(self) -> str:
        """The agent these options configure (the prefix of errors and failures)."""
        return "openai-realtime"

    def known_voices(self) -> frozenset[str]:
        """The voices `voice_check=on` accepts."""
        return KNOWN_VOICES

    def validate(self, apis: tuple[str, ...] = ("ga", "beta")) -> None:
        name = self.agent_name
        if self.api not in apis:
            raise ValueError(
                f"{name}: api must be {' or '.join(map(repr, apis))}, got {self.api!r}"
            )
        for option in ("voice_check", "interrupt_response", "episode_metadata"):
            if getattr(self, option) not in ("on", "off"):
                raise ValueError(f"{name}: {option} must be 'on' or 'off'")
        voices = self.known_voices()
        if self.voice_check == "on" and self.voice not in voices:
            raise ValueError(
                f"{name}: unknown voice {self.voice!r} (the service would silently "
                "ignore the whole session.update); known voices: "
                + ", ".join(sorted(voices))
                + "; add voice_check=off to send it anyway"
            )
        if urlparse(self.base_url).scheme not in ("ws", "wss", "http", "https"):
            raise ValueError(
                f"{name}: base_url must be ws(s):// or http(s)://, got {self.base_url!r}"
            )
        if self.max_inbox < 1 or self.connect_timeout <= 0:
            raise ValueError(f"{name}: max_inbox and connect_timeout must be positive")

    @property
    def url(self) -> str:
        return f"{websocket_url(self.base_url)}/realtime?{urlencode({'model': self.model})}"

    def api_key(self) -> str | None:
        """The key (environment or secrets file); None for a loopback server without one.

        Raises `SecretError` (naming the variable, never a value) otherwise.
        """
        try:
            return secrets.api_key(self.api_key_env)
        except secrets.SecretError:
            if urlparse(self.base_url).hostname in _LOOPBACK:
                return None
            raise

    def headers(self, key: str | None) -> dict[str, str]:
        headers = {"OpenAI-Beta": "realtime=v1"} if self.api == "beta" else {}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def turn_detection(self) -> Message:
        return {
            "type": "server_vad",
            "threshold": self.vad_threshold,
            "prefix_padding_ms": 300,
            "silence_duration_ms": self.vad_silence_ms,
            "create_response": True,
            "interrupt_response": self.interrupt_response == "on",
        }


# --- audio -----------------------------------------------------------------


def encode_pcm16(samples: Int16Array) -> str:
    """Mono int16 samples as base64 little-endian PCM16."""
    return base64.b64encode(to_int16(samples).astype("<i2").tobytes()).decode("ascii")


def decode_pcm16(data: Any) -> Int16Array:
    """Base64 PCM16 to int16 samples; ValueError for anything else."""
    if not isinstance(data, str):
        raise ValueError("audio must be a base64 string")
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("audio is not valid base64") from None
    if len(raw) % 2:
        raise ValueError(f"{len(raw)} bytes of audio is not whole PCM16 samples")
    return np.frombuffer(raw, dtype="<i2").astype(np.int16)


class StreamResampler:
    """Streaming rational resampler for 16 <-> 24 kHz (polyphase windowed sinc, numpy only).

    Each chunk comes out at once (exactly `len * up / down` samples when that is
    whole) with about 1 ms of delay; soxr's streaming mode holds back up to a
    frame, which adds 20-40 ms to every turn.
    """

    def __init__(self, from_rate: int, to_rate: int, taps_per_phase: int = 24) -> None:
        g = gcd(from_rate, to_rate)
        self.up, self.down = to_rate // g, from_rate // g
        n = taps_per_phase * self.up + 1
        cutoff = 0.5 / max(self.up, self.down)  # of the upsampled rate
        t = np.arange(n) - (n - 1) / 2
        self._h = (2 * cutoff * self.up) * np.sinc(2 * cutoff * t) * np.kaiser(n, 8.0)
        self._tail = np.zeros(n - 1)
        self._offset = 0  # index of the next output in the current upsampled chunk

    MAX_CHUNK = 24_000
    """Longer inputs go through in pieces (the same output): the filter's working set
    grows with the chunk, and a 16 MB audio message would otherwise take gigabytes."""

    def process(self, samples: Int16Array) -> Int16Array:
        if not len(samples):  # nothing in, nothing out (the filter needs a whole window)
            return np.zeros(0, dtype=np.int16)
        if len(samples) <= self.MAX_CHUNK:
            return self._process(samples)
        step = self.MAX_CHUNK
        parts = [self._process(samples[i : i + step]) for i in range(0, len(samples), step)]
        return np.concatenate(parts).astype(np.int16)

    def _process(self, samples: Int16Array) -> Int16Array:
        upsampled = np.zeros(len(samples) * self.up)
        upsampled[:: self.up] = samples
        full = np.concatenate([self._tail, upsampled])
        self._tail = full[len(full) - len(self._tail) :]
        picks = np.arange(self._offset, len(upsampled), self.down)
        self._offset += len(picks) * self.down - len(upsampled)
        window = np.lib.stride_tricks.sliding_window_view(full, len(self._h))
        out: Int16Array = np.clip(np.rint(window[picks] @ self._h[::-1]), -32768, 32767).astype(
            np.int16
        )
        return out


# --- client messages -------------------------------------------------------


def function_tool(tool: ToolSpec) -> Message:
    return {
        "type": "function",
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.parameters,
    }


def session_update(
    *,
    instructions: str,
    tools: tuple[ToolSpec, ...],
    voice: str,
    turn_detection: Message,
    transcription_model: str | None = None,
    api: str = "ga",
    item_id: str | None = None,
) -> Message:
    """`session.update` for PCM16 24 kHz in and out, server VAD and function tools
    (`item_id`: named in `tracing.metadata.duplexbench_item`, see `episode_metadata`).

    `api`: the session shape: `ga`, `beta`, or `xai` (xAI's voice agent API: voice and
    turn detection at the top, only the turn detection fields it documents, no
    `tool_choice`: https://docs.x.ai/docs/guides/voice/agent)."""
    transcription = {"model": transcription_model} if transcription_model else None
    common: Message = {"instructions": instructions, "tools": [function_tool(t) for t in tools]}
    if item_id is not None:
        common["tracing"] = {
            "workflow_name": "duplexbench",
            "metadata": {EPISODE_ITEM_KEY: item_id},
        }
    pcm = {"type": "audio/pcm", "rate": WIRE_RATE}
    audio_in: Message = {"format": pcm}
    if transcription is not None:
        audio_in["transcription"] = transcription
    if api == "xai":
        detection = {k: v for k, v in turn_detection.items() if k in XAI_TURN_DETECTION}
        audio = {"input": audio_in, "output": {"format": pcm}}
        session = common | {"voice": voice, "turn_detection": detection, "audio": audio}
        return {"type": SESSION_UPDATE, "session": session}
    common["tool_choice"] = "auto"
    if api == "beta":
        session = common | {
            "modalities": ["audio", "text"],
            "voice": voice,
            "input_audio_format": "pcm16",
            "output_audio_format": "pcm16",
            "turn_detection": turn_detection,
            "input_audio_transcription": transcription,
        }
    else:
        audio_in["turn_detection"] = turn_detection
        session = {"type": "realtime", "output_modalities": ["audio"], **common}
        session["audio"] = {"input": audio_in, "output": {"format": pcm, "voice": voice}}
    return {"type": SESSION_UPDATE, "session": session}


def append_audio(samples: Int16Array) -> Message:
    return {"type": APPEND, "audio": encode_pcm16(samples)}


def function_output(call_id: str, output: Any) -> Message:
    item = {"type": "function_call_output", "call_id": call_id, "output": json.dumps(output)}
    return {"type": ITEM_CREATE, "item": item}


def truncate(item_id: str, audio_end_ms: int, content_index: int = 0) -> Message:
    return {
        "type": ITEM_TRUNCATE,
        "item_id": item_id,
        "content_index": content_index,
        "audio_end_ms": audio_end_ms,
    }


# --- parsing server messages -----------------------------------------------


def tool_arguments(raw: Any) -> Any:
    """Parsed JSON arguments, or the raw string when it is not valid JSON."""
    if not isinstance(raw, str):
        return raw if raw is not None else {}
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: nested too deeply
        return raw


def usage(response: Any) -> UsageDelta | None:
    """Token counts of a `response.done` response object, if it reports usage."""
    if not isinstance(response, dict) or not isinstance(response.get("usage"), dict):
        return None
    block = response["usage"]
    details_in = block.get("input_token_details") or {}
    details_out = block.get("output_token_details") or {}
    return UsageDelta(
        input_tokens=token_count(block.get("input_tokens")),
        output_tokens=token_count(block.get("output_tokens")),
        input_audio_tokens=token_count(details_in.get("audio_tokens"))
        if isinstance(details_in, dict)
        else 0,
        output_audio_tokens=token_count(details_out.get("audio_tokens"))
        if isinstance(details_out, dict)
        else 0,
    )


def error_fields(message: Message) -> tuple[str, str, str | None]:
    """(code, message, event_id of the client event that caused it) of an `error` event."""
    error = message.get("error")
    if not isinstance(error, dict):
        return "unknown", str(error)[:200], None
    code = error.get("code") or error.get("type") or "unknown"
    cause = error.get("event_id")
    return str(code), str(error.get("message") or ""), cause if isinstance(cause, str) else None
