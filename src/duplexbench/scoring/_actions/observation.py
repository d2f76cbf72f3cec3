"""What the action scorer works on: the played timeline and the agent's speech.

An :class:`ActionObservation` is built from an action episode's trace (see
:func:`duplexbench.scoring._actions.trace.observe`); the rules, heuristics
and judge read only this. Times are integer ms from the first streamed user
sample (t = 0).
"""

from __future__ import annotations

from dataclasses import dataclass

from duplexbench.audio import Int16Array
from duplexbench.items import ActionItem
from duplexbench.words import count_words, word_tokens

BACKCHANNEL_MAX_WORDS = 3
"""A segment of at most this many words is a backchannel; more is substantive.
Words are counted by :func:`duplexbench.words.count_words` (a token needs a
letter or digit: a spaced dash is no word)."""


@dataclass(frozen=True)
class AgentSegment:
    """Contiguous agent speech on the delivered channel (VAD) with its words."""

    start_ms: int
    end_ms: int
    words: tuple[str, ...]
    transcribed: bool = False
    """Words come from ASR of the agent channel (the agent sent no transcript)."""

    @property
    def n_words(self) -> int:
        """Tokens with a letter or digit (`duplexbench.words`); punctuation is no word."""
        return count_words(self.words)

    @property
    def spoken_words(self) -> list[str]:
        """The tokens of `words` that are words (those `n_words` counts), in order."""
        return word_tokens(self.words)

    @property
    def substantive(self) -> bool:
        """More than three words in its complete transcript."""
        return self.n_words > BACKCHANNEL_MAX_WORDS

    @property
    def text(self) -> str:
        return " ".join(self.words)


@dataclass(frozen=True)
class PlayedSegment:
    """A user-channel segment as it was played (cue segments placed at the cue onset;
    `end_ms` is where it was cut if the user stopped early)."""

    id: str
    role: str
    text: str
    start_ms: int
    end_ms: int
    part: str = "main"


@dataclass(frozen=True)
class CueInfo:
    """When the cue-injection controller placed the cue (absolute ms)."""

    start_ms: int
    end_ms: int
    forced: bool = False
    reason: str = ""


@dataclass(frozen=True)
class ActionObservation:
    item: ActionItem
    agent: tuple[AgentSegment, ...]
    user: tuple[PlayedSegment, ...]
    end_ms: int
    """End of the recording."""
    cue: CueInfo | None = None
    user_stopped_ms: int | None = None
    """Interrupt: when the user stopped because the agent took over."""
    agent_audio: Int16Array | None = None
    """The delivered agent channel (16 kHz), for prosodic features."""
    sample_rate: int = 16_000

    @property
    def transcribed(self) -> bool:
        """Any agent words came from ASR rather than the agent's own transcript."""
        return any(s.transcribed for s in self.agent)
