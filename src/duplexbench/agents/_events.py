"""Normalized events an agent sends to the harness (both audio interfaces).

Adapters translate provider messages into these; the harness stamps them on
the media clock and logs them. Audio is mono int16 at `sample_rate`; the
harness converts it to 16 kHz (or rejects it with a clear error).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duplexbench.audio import SAMPLE_RATE, Int16Array


@dataclass(frozen=True, slots=True)
class AudioDelta:
    """Agent speech to play, appended to the agent's playback buffer."""

    pcm: Int16Array
    sample_rate: int = SAMPLE_RATE


@dataclass(frozen=True, slots=True)
class TranscriptDelta:
    """Text of the agent speech that follows (or accompanies) it."""

    text: str


@dataclass(frozen=True, slots=True)
class ToolCallRequest:
    name: str
    arguments: Any = field(default_factory=dict)
    call_id: str | None = None


@dataclass(frozen=True, slots=True)
class ResponseDone:
    """The agent finished producing its current response."""


@dataclass(frozen=True, slots=True)
class SpeechCancelled:
    """The agent stopped speaking: audio buffered but not yet played is dropped."""


@dataclass(frozen=True, slots=True)
class SpeechStarted:
    """Provider VAD heard the user start (informational)."""


@dataclass(frozen=True, slots=True)
class SpeechStopped:
    """Provider VAD heard the user stop (informational)."""


@dataclass(frozen=True, slots=True)
class AgentFailure:
    """The agent reports an error it cannot recover from; the episode ends as `error`."""

    message: str


@dataclass(frozen=True, slots=True)
class UsageDelta:
    """Tokens the provider reports for a response (summed per episode); counts are >= 0."""

    input_tokens: int = 0
    output_tokens: int = 0
    input_audio_tokens: int = 0
    output_audio_tokens: int = 0


MAX_REASON_CHARS = 1000
"""A failure reason is cut to this length (a provider may send a megabyte of error text)."""


def clip_reason(text: str, limit: int = MAX_REASON_CHARS) -> str:
    """`text`, cut to `limit` characters (ending in `...`) when longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def token_count(value: Any) -> int:
    """A provider's token count as an int >= 0: a whole number (or a string of digits) as
    is, anything else (negative, fractional, NaN, a list, a huge digit string) as 0."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 18:
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


@dataclass(frozen=True, slots=True)
class EndCall:
    """The agent hangs up once its buffered audio has played."""


AgentEvent = (
    AudioDelta
    | TranscriptDelta
    | ToolCallRequest
    | ResponseDone
    | SpeechCancelled
    | SpeechStarted
    | SpeechStopped
    | AgentFailure
    | UsageDelta
    | EndCall
)
