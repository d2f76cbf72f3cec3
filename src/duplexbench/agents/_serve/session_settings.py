"""`serve-agent`'s session: what the client configured, and the session object it gets back.

`SessionSettings` reads `session.update` in the GA shape (`audio.input`,
`audio.output`) or the beta one (`voice`, `turn_detection`, `*_audio_format`,
`input_audio_transcription`); only PCM16 at 24 kHz is accepted, and an update
that asks for anything else, or whose turn detection or input transcription
is malformed, is rejected whole (ValueError: the `invalid_value` error).

`to_object` is the session of `session.created` / `session.updated`: GA shaped
(`type: "realtime"`, `audio.input` / `audio.output`), or, in a beta session,
beta shaped (flat `modalities`, `voice`, `input_audio_format`,
`output_audio_format`, `input_audio_transcription`, `turn_detection`, as the
`openai` SDK's `openai.types.beta.realtime.Session`, plus the service's
`object: "realtime.session"`). The beta shape leaves out `model`: the SDK's
beta type admits only OpenAI's model names, and the served agent is none.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass, field
from typing import Any

from duplexbench.agents._protocol import ToolSpec
from duplexbench.agents._providers import openai_realtime_protocol as rt

Message = rt.Message
DEFAULT_TURN_DETECTION: Message = {"type": "server_vad", "silence_duration_ms": 500}
MAX_SILENCE_MS = 600_000
_PCM = ("audio/pcm", rt.WIRE_RATE)
_TRANSCRIPTION_TEXT = ("model", "language", "prompt", "delay")
_TRANSCRIPTION_LISTS = ("keywords", "languages")
"""The fields of the GA `audio.input.transcription` (text, and lists of text)."""
_BETA_TRANSCRIPTION = ("model", "language", "prompt")
_BETA_TURN_DETECTION = (
    "type",
    "threshold",
    "prefix_padding_ms",
    "silence_duration_ms",
    "create_response",
    "interrupt_response",
    "eagerness",
)


@dataclass
class SessionSettings:
    """The session as the client configured it (`session.update`, GA or beta shape)."""

    model: str = ""
    instructions: str = ""
    tools: tuple[ToolSpec, ...] = ()
    voice: str = "marin"
    turn_detection: Message | None = field(default_factory=lambda: dict(DEFAULT_TURN_DETECTION))
    transcription: Message | None = None
    """The input transcription asked for (None: off); its fields are echoed, not used."""
    episode_item: str | None = None
    """`tracing.metadata.duplexbench_item` (`privileged.py`)."""
    id: str = field(default_factory=lambda: f"sess_{secrets.token_hex(8)}")

    @property
    def silence_ms(self) -> int:
        return int((self.turn_detection or {}).get("silence_duration_ms", 500))

    def apply(self, s: Message) -> bool:
        """Apply a `session` object (all or nothing: ValueError); True if turn detection changed."""
        audio = s.get("audio") or {}
        audio_in, audio_out = audio.get("input") or {}, audio.get("output") or {}
        for fmt in (audio_in.get("format"), audio_out.get("format")):
            if fmt is not None and (fmt.get("type"), fmt.get("rate", rt.WIRE_RATE)) != _PCM:
                raise ValueError(f"unsupported audio format {fmt}; only audio/pcm at 24000 Hz")
        for key in ("input_audio_format", "output_audio_format"):
            if s.get(key, "pcm16") != "pcm16":
                raise ValueError(f"unsupported {key} {s[key]!r}; only pcm16")
        tools = tuple(
            ToolSpec(str(t["name"]), str(t.get("description", "")), dict(t.get("parameters") or {}))
            for t in s.get("tools", self.tool_dicts())
        )
        changed = "turn_detection" in audio_in or "turn_detection" in s
        detection = audio_in.get("turn_detection", s.get("turn_detection"))
        if changed:
            _check_turn_detection(detection)  # before anything changes
        transcription = self.transcription
        if "transcription" in audio_in:
            transcription = _transcription(audio_in["transcription"], "audio.input.transcription")
        elif "input_audio_transcription" in s:
            transcription = _transcription(
                s["input_audio_transcription"], "input_audio_transcription"
            )
        if changed:  # the type the service defaults to (and the SDK's types require)
            self.turn_detection = None if detection is None else {"type": "server_vad"} | detection
        self.transcription = transcription
        self.tools = tools
        self.instructions = str(s.get("instructions", self.instructions))
        self.voice = str(audio_out.get("voice") or s.get("voice") or self.voice)
        tracing = s.get("tracing")
        metadata = tracing.get("metadata") if isinstance(tracing, dict) else None
        if isinstance(metadata, dict) and isinstance(metadata.get(rt.EPISODE_ITEM_KEY), str):
            self.episode_item = metadata[rt.EPISODE_ITEM_KEY]
        return changed

    def tool_dicts(self) -> list[Message]:
        return [rt.function_tool(t) for t in self.tools]

    def to_object(self, beta: bool = False) -> Message:
        """The session object, GA shaped or (`beta`) beta shaped (module docstring)."""
        if beta:
            return self._beta_object()
        pcm = {"type": "audio/pcm", "rate": rt.WIRE_RATE}
        audio_in = {
            "format": pcm,
            "transcription": self.transcription,
            "turn_detection": self.turn_detection,
        }
        return {
            "type": "realtime",
            "object": "realtime.session",
            "id": self.id,
            "model": self.model,
            "instructions": self.instructions,
            "tools": self.tool_dicts(),
            "tool_choice": "auto",
            "output_modalities": ["audio"],
            "audio": {"input": audio_in, "output": {"format": pcm, "voice": self.voice}},
        }

    def _beta_object(self) -> Message:
        detection, transcription = self.turn_detection, self.transcription
        return {
            "object": "realtime.session",
            "id": self.id,
            "modalities": ["text", "audio"],
            "instructions": self.instructions,
            "voice": self.voice,
            "input_audio_format": "pcm16",
            "output_audio_format": "pcm16",
            "input_audio_transcription": None
            if transcription is None
            else {k: v for k, v in transcription.items() if k in _BETA_TRANSCRIPTION},
            "turn_detection": None
            if detection is None
            else {k: v for k, v in detection.items() if k in _BETA_TURN_DETECTION},
            "tools": self.tool_dicts(),
            "tool_choice": "auto",
        }


def _check_turn_detection(value: Any) -> None:
    """ValueError unless `value` is null or an object with a usable `silence_duration_ms`."""
    if value is None:
        return
    if not isinstance(value, dict):
        raise ValueError(f"turn_detection must be an object or null, not {type(value).__name__}")
    ms = value.get("silence_duration_ms", 500)
    number = isinstance(ms, int | float) and not isinstance(ms, bool)
    if not number or not math.isfinite(ms) or not 0 <= ms <= MAX_SILENCE_MS:
        raise ValueError(f"silence_duration_ms must be a number from 0 to {MAX_SILENCE_MS}")


def _transcription(value: Any, where: str) -> Message | None:
    """An input transcription config (null: off); ValueError for a wrong type or field."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be an object or null, not {type(value).__name__}")
    for key, item in value.items():
        if key in _TRANSCRIPTION_TEXT:
            ok = item is None or isinstance(item, str)
        elif key in _TRANSCRIPTION_LISTS:
            ok = item is None or (isinstance(item, list) and all(isinstance(x, str) for x in item))
        else:
            raise ValueError(f"unknown parameter {where}.{str(key)[:40]}")
        if not ok:
            kind = "a string" if key in _TRANSCRIPTION_TEXT else "a list of strings"
            raise ValueError(f"{where}.{key} must be {kind}, not {type(item).__name__}")
    return {key: item for key, item in value.items() if item is not None}
