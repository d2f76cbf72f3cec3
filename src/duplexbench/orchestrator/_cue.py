"""Simulator replay: when to inject the cue, and when the agent has taken over.

The controller decides timing only, never content: the cue's audio is fixed
by the item. :class:`RuleCueController` (the default) watches the agent's
transcript aligned to playback; at a word boundary where the agent's current
utterance has played `cue_min_words` words and `cue_min_speech_ms` of audio
while at least `cue_min_left_ms` of it is still queued, it arms (words are
counted by :mod:`duplexbench.words`: a punctuation-only token is no word), and it
fires on the next audible frame (-45 dBFS, the VAD's threshold), i.e. as the
next word starts, so the cue lands while the agent is audibly speaking. If no
such point comes within `force_after_ms` after the lead-in, the cue is forced
in and marked so.

:class:`TakeoverDetector` serves Interrupt: the user holds the floor until
the agent takes over, i.e. one agent utterance has played `takeover_words`
words (more than a backchannel) or, with no transcript, `takeover_ms` of
continuous speech; then the rest of the user audio is not played.

Only the rule controller ships. `CueController` is a Protocol, so another
(DuplexAct's optional LLM controller, say) plugs into `ActionEpisode` without
touching the loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from duplexbench.audio import energy
from duplexbench.orchestrator._playback import Delivered
from duplexbench.orchestrator._replay import AgentTranscript, ReplayConfig
from duplexbench.words import count_words


@dataclass(frozen=True)
class CueState:
    """What a controller sees after each frame."""

    t_ms: int
    lead_in_end_ms: int
    delivered: Delivered
    transcript: AgentTranscript
    queued_ms: int
    cue_text: str = ""


@dataclass(frozen=True)
class CueDecision:
    fire: bool
    forced: bool = False
    reason: str = ""


class CueController(Protocol):
    name: str

    def decide(self, state: CueState) -> CueDecision: ...


LOUD = 10 ** (-45 / 10)
"""Frame energy (mean square, full scale 1) of audible speech: the VAD's -45 dBFS."""


class RuleCueController:
    name = "rule"

    def __init__(self, config: ReplayConfig) -> None:
        self.config = config
        self.armed = False

    def decide(self, state: CueState) -> CueDecision:
        c = self.config
        if state.t_ms < state.lead_in_end_ms:
            return CueDecision(False)
        if state.t_ms >= state.lead_in_end_ms + c.force_after_ms:
            return CueDecision(
                True, forced=True, reason=f"no suitable point within {c.force_after_ms} ms"
            )
        utterance = state.transcript.current
        if utterance is None or not state.delivered.active:
            self.armed = False
            return CueDecision(False)
        if state.delivered.words:
            self.armed = (
                count_words(utterance.words) >= c.cue_min_words
                and state.transcript.speaking_ms >= c.cue_min_speech_ms
                and state.queued_ms >= c.cue_min_left_ms
            )
        if self.armed and energy(state.delivered.samples) >= LOUD:
            words = count_words(utterance.words)
            return CueDecision(True, reason=f"after word {words} of the agent's utterance")
        return CueDecision(False)


class TakeoverDetector:
    def __init__(self, config: ReplayConfig) -> None:
        self.config = config

    def took_over(self, transcript: AgentTranscript) -> str | None:
        utterance = transcript.current
        if utterance is None:
            return None
        played = count_words(utterance.words)
        if played >= self.config.takeover_words:
            return f"the agent played {played} words"
        if not played and transcript.speaking_ms >= self.config.takeover_ms:
            return f"the agent spoke {transcript.speaking_ms} ms without a transcript"
        return None
