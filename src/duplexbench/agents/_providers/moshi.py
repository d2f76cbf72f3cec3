"""`moshi`: open full-duplex speech models served with Kyutai's Moshi websocket protocol.

Spec: `moshi?url=ws://localhost:8998/api/chat` (the default URL: `python -m
moshi.server`'s). Kyutai's servers (`moshi.server`, moshi-backend) and
compatible successors (e.g. NVIDIA PersonaPlex) speak it; the framing and the
kinds of message are in `moshi_protocol.py`, the Ogg Opus codec in
`moshi_opus.py`.

The client opens the URL (sampling settings as query parameters, which
moshi-backend reads and `moshi.server` ignores) and sends nothing until the
server's handshake (PersonaPlex reads and drops what arrives before it); no
handshake within `setup_timeout` ends the episode as an `AgentFailure`. Then
user audio goes out as one Ogg Opus stream (resampled to 24 kHz, 20 ms
packets, one page each), and the model's audio and text stream back:

- audio (`\\x01`, Ogg Opus) is decoded as it arrives and passed on as
  `AudioDelta` at 48 kHz (libopus's rate) through a speech gate. Moshi streams
  audio all the time, silence included, while the harness counts any queued
  agent audio as the agent talking; so a streaming VAD
  (`duplexbench.audio._vad.StreamingVad`: `gate_dbfs`, default -45 dBFS; opens
  on one loud packet, closes after `hangover_ms` of quiet, default 300) lets
  only the model's speech through, and `ResponseDone` marks each close
  (`gate_dbfs=off` passes every sample and never sends `ResponseDone`);
- text (`\\x02`) is a `TranscriptDelta` per piece, as the model emits it (a
  word the tokenizer splits is heard in pieces); `coloredtext` (`\\x07`) too;
- `error` (`\\x05`) ends the episode as an `AgentFailure` with its text;
  `metadata` (`\\x04`) is kept in `agent.metadata`; `control`, `ping`, `image`,
  `codes` and a second handshake are counted in `agent.ignored`; a kind byte
  the protocol does not define fails the episode (`unknown_kinds=ignore`
  counts it instead, as the protocol document asks of clients).

Moshi has no function calls, no instructions and no server VAD events: the
adapter never sends a `ToolCallRequest` (tool-based work is never done), the
session instructions reach the model only when `instructions_param` names a
query parameter that carries them (PersonaPlex: `text_prompt`), and it never
sends `SpeechStarted`, `SpeechStopped` or `SpeechCancelled`: the model hears
the caller all the time and yields, or not, in its own audio, which the
harness times like any other agent's audio.

A frame that cannot be read (no kind byte, an undecodable Ogg Opus stream,
text that is not UTF-8) ends the episode as an `AgentFailure` saying so.
"""

from __future__ import annotations

import json
import math
import re
import struct
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlencode

import numpy as np
import soxr

from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._events import AudioDelta, ResponseDone, TranscriptDelta
from duplexbench.agents._protocol import ToolResultMessage
from duplexbench.agents._providers.moshi_opus import (
    MOSHI_RATE,
    OPUS_RATE,
    PYAV_MISSING,
    OggOpusDecoder,
    OggOpusEncoder,
)
from duplexbench.agents._providers.moshi_protocol import connect as moshi_connect
from duplexbench.agents._providers.transport import Message, Transport
from duplexbench.agents._providers.ws_session import Connector, WebSocketSession
from duplexbench.agents._registry import AgentSpec, Channel, register_agent
from duplexbench.audio import AudioFrame, Int16Array, StreamingVad, VadConfig

DEFAULT_URL = "ws://localhost:8998/api/chat"
OPTIONS = (
    "url",
    "setup_timeout",
    "gate_dbfs",
    "hangover_ms",
    "unknown_kinds",
    "instructions_param",
)
QUERY_OPTIONS = (
    "text_temperature",
    "text_topk",
    "audio_temperature",
    "audio_topk",
    "pad_mult",
    "repetition_penalty",
    "repetition_penalty_context",
    "text_seed",
    "audio_seed",
    "max_steps",
    "seed",
    "text_prompt",
    "voice_prompt",
)
"""Passed on verbatim as query parameters (moshi-backend's session settings and
PersonaPlex's prompts); any other parameter: `param.NAME=value`."""
PARAM_PREFIX = "param."
MAX_METADATA = 100
IGNORED_KINDS = frozenset({"handshake", "control", "ping", "image", "codes"})
_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")
NOT_APPLICABLE = {
    "tool_call": "the Moshi protocol has no function calls: the model never calls a tool",
    "barge_in": "the Moshi protocol has no VAD or interruption event: the model hears the "
    "caller all the time and yields (or not) in its own audio, which the harness times; "
    "the adapter never claims a cancel it did not see",
}
"""Conformance scenarios (`duplexbench.testing._conformance`) the protocol cannot have."""


@dataclass(frozen=True)
class MoshiConfig:
    url: str = DEFAULT_URL
    setup_timeout_s: float = 30.0
    query: tuple[tuple[str, str], ...] = ()
    gate_dbfs: float | None = -45.0
    """The speech gate's threshold; None passes all audio."""
    hangover_ms: int = 300
    unknown_kinds: Literal["fail", "ignore"] = "fail"
    instructions_param: str | None = None
    model: str | None = None
    """A label for the served model (the spec's `:MODEL`); never sent."""

    @classmethod
    def from_spec(cls, spec: AgentSpec) -> MoshiConfig:
        opts = dict(spec.options)
        query, unknown = _split_options(opts)
        if unknown:
            known = ", ".join((*OPTIONS, *QUERY_OPTIONS, f"{PARAM_PREFIX}NAME"))
            raise ValueError(f"moshi: unknown option(s) {', '.join(unknown)}; known: {known}")
        url = opts.get("url") or DEFAULT_URL
        if not url.startswith(("ws://", "wss://")):
            raise ValueError(f"moshi: url must start with ws:// or wss://, got {url!r}")
        kinds = opts.get("unknown_kinds", "fail")
        if kinds not in ("fail", "ignore"):
            raise ValueError("moshi: unknown_kinds must be 'fail' or 'ignore'")
        param = opts.get("instructions_param") or None
        if param is not None and not _NAME.match(param):
            raise ValueError(f"moshi: instructions_param {param!r} is not a parameter name")
        try:
            timeout = float(opts.get("setup_timeout", "30"))
            gate = opts.get("gate_dbfs", "-45")
            gate_dbfs = None if gate == "off" else float(gate)
            hangover = int(opts.get("hangover_ms", "300"))
        except ValueError as exc:
            raise ValueError(f"moshi: bad number: {exc}") from None
        finite = math.isfinite(timeout) and (gate_dbfs is None or math.isfinite(gate_dbfs))
        if not finite or timeout <= 0 or hangover < 0:
            raise ValueError("moshi: setup_timeout must be > 0, gate_dbfs finite, hangover_ms >= 0")
        return cls(
            url=url,
            setup_timeout_s=timeout,
            query=query,
            gate_dbfs=gate_dbfs,
            hangover_ms=hangover,
            unknown_kinds="ignore" if kinds == "ignore" else "fail",
            instructions_param=param,
            model=spec.model,
        )


def _split_options(opts: dict[str, str]) -> tuple[tuple[tuple[str, str], ...], list[str]]:
    """(the query parameters to pass on, the options nobody knows)."""
    query: list[tuple[str, str]] = []
    unknown: list[str] = []
    for key, value in opts.items():
        name = key.removeprefix(PARAM_PREFIX)
        if key in QUERY_OPTIONS or (name != key and _NAME.match(name)):
            query.append((name, value))
        elif key not in OPTIONS:
            unknown.append(key)
    return tuple(query), sorted(unknown)


class SpeechGate:
    """Passes the model's speech, drops the silence it streams between (module docstring)."""

    def __init__(self, threshold_dbfs: float | None, hangover_ms: int, rate: int) -> None:
        self._vad = (
            None
            if threshold_dbfs is None
            else StreamingVad(VadConfig(threshold_dbfs=threshold_dbfs), rate, 1, hangover_ms)
        )
        self.open = False

    def push(self, pcm: Int16Array) -> tuple[bool, bool]:
        """(pass this audio on, the gate just closed)."""
        if self._vad is None:
            return True, False
        was, self.open = self.open, self._vad.push(pcm)
        return self.open, was and not self.open


class MoshiAgent(WebSocketSession):
    """A `StreamingAgent` speaking the Moshi websocket protocol."""

    name = "moshi"

    def __init__(
        self,
        config: MoshiConfig | None = None,
        *,
        transport: Transport | None = None,
        connector: Connector | None = None,
    ) -> None:
        super().__init__(transport, connector or moshi_connect)
        self.config = config or MoshiConfig()
        self.ignored: Counter[str] = Counter()
        """Frames read past on purpose, by kind."""
        self.metadata: list[Any] = []
        """The server's first `MAX_METADATA` metadata messages (JSON, or the text)."""
        self.versions: tuple[int, int] | None = None
        """(protocol, model) from a handshake that carries them (moshi-backend)."""
        self._instructions = ""
        self._encoder: OggOpusEncoder | None = None
        self._decoder: OggOpusDecoder | None = None
        self._resampler: Any = None
        self._gate = SpeechGate(self.config.gate_dbfs, self.config.hangover_ms, OPUS_RATE)

    def __repr__(self) -> str:
        return f"MoshiAgent(url={self.config.url!r}, model={self.config.model!r})"

    # ------------------------------------------------------------ streaming API

    async def connect(self, session: AudioSession) -> None:
        if PYAV_MISSING is not None:
            self.fail(PYAV_MISSING)
            return
        self._instructions = session.session.instructions
        self._encoder, self._decoder = OggOpusEncoder(MOSHI_RATE), OggOpusDecoder()
        timeout = self.config.setup_timeout_s
        await self.open_session(None, self._handshake, "handshake", timeout)  # it speaks first

    def endpoint(self) -> tuple[str, dict[str, str]]:
        query = list(self.config.query)
        if self.config.instructions_param is not None:
            query.append((self.config.instructions_param, self._instructions))
        if not query:
            return self.config.url, {}
        sep = "&" if "?" in self.config.url else "?"
        return f"{self.config.url}{sep}{urlencode(query)}", {}

    async def send_audio(self, frame: AudioFrame) -> None:
        if not self.ready or self._encoder is None:
            return
        pcm = np.asarray(frame.samples, dtype=np.int16)
        if frame.sample_rate != MOSHI_RATE:
            if self._resampler is None:
                self._resampler = soxr.ResampleStream(
                    frame.sample_rate, MOSHI_RATE, 1, dtype="int16", quality="HQ"
                )
            pcm = self._resampler.resample_chunk(pcm)
        pages = self._encoder.encode(pcm)
        if pages:
            await self.send({"type": "audio", "data": pages})

    async def send_tool_result(self, result: ToolResultMessage) -> None:
        """Never asked: Moshi makes no tool calls."""

    # ------------------------------------------------------------ internals

    def _handshake(self, message: Message) -> bool:
        if message.get("type") != "handshake":
            return False
        data = message.get("data", b"")
        if isinstance(data, bytes) and len(data) >= 8:
            self.versions = struct.unpack_from("<II", data)
        return True

    def malformed(self, message: Message, exc: Exception) -> str:
        return f"malformed {str(message.get('type'))[:40]} frame: {type(exc).__name__}: {exc}"

    def on_message(self, message: Message) -> None:
        kind, data = message.get("type"), message.get("data", b"")
        if not isinstance(data, bytes):
            raise TypeError(f"payload of type {type(data).__name__}")
        if kind == "audio":
            assert self._decoder is not None
            for pcm in self._decoder.feed(data):
                self._play(pcm)
        elif kind == "text":
            self._text(data)
        elif kind == "coloredtext":
            if not data:
                raise ValueError("no color byte")
            self._text(data[1:])
        elif kind == "error":
            self.fail(f"server error: {data.decode('utf-8', 'replace')}")
        elif kind == "metadata":
            if len(self.metadata) < MAX_METADATA:
                self.metadata.append(_json_or_text(data))
        elif kind in IGNORED_KINDS or self.config.unknown_kinds == "ignore":
            self.ignored[str(kind)] += 1
        else:
            self.fail(f"unknown message kind {message.get('kind')!r}")

    def _play(self, pcm: Int16Array) -> None:
        passed, closed = self._gate.push(pcm)
        if passed:
            self.push(AudioDelta(pcm, OPUS_RATE))
        elif closed:
            self.push(ResponseDone())

    def _text(self, data: bytes) -> None:
        text = data.decode("utf-8")
        if text:
            self.push(TranscriptDelta(text))


def _json_or_text(data: bytes) -> Any:
    text = data.decode("utf-8", "replace")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


@register_agent(
    "moshi",
    description="Open full-duplex speech models over the Moshi websocket protocol "
    "(moshi.server, PersonaPlex); no tools.",
    channels=("audio",),
)
def _factory(spec: AgentSpec, channel: Channel) -> Any:
    # A StreamingAgent; the registry's factory type names TextAgent | StepAgent only.
    if PYAV_MISSING is not None:
        raise ValueError(f"moshi: {PYAV_MISSING}")
    return MoshiAgent(MoshiConfig.from_spec(spec))
