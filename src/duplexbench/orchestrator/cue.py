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

:class:`LLMCueController` is the optional alternative: an OpenAI-compatible
model polled every second of media time while the agent speaks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from duplexbench.audio.frames import energy
from duplexbench.orchestrator.playback import Delivered
from duplexbench.orchestrator.replay import AgentTranscript, ReplayConfig
from duplexbench.words import count_words
from duplexbench.yesno import JudgeUnavailable, YesNo, ask_yes_no


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


CUE_PROMPT = """\
You time an interjection in a spoken conversation. An assistant is speaking; the user will
say a fixed line (the CUE). Decide whether NOW, right after the assistant's last word, is a
natural point for the user to say it: the assistant is mid-answer (not finished), has said
enough for the cue to make sense, and is at a word or phrase boundary.
Reply with strict JSON only: {"answer": "YES" or "NO", "reason": "<one sentence>"}"""

Asker = Callable[[str, str], YesNo]
"""(system prompt, user message) -> the endpoint's answer."""


class LLMCueController:
    """Asks an OpenAI-compatible model every `poll_ms` of media time while the agent
    speaks (DuplexAct's optional controller); it decides timing only. A failed
    request counts as NO; the deadline of the rule controller still forces the cue."""

    name = "llm"

    def __init__(self, config: ReplayConfig, ask: Asker, poll_ms: int = 1000) -> None:
        self.config, self.ask, self.poll_ms = config, ask, poll_ms
        self.next_poll = 0
        self.failures = 0

    def decide(self, state: CueState) -> CueDecision:
        c = self.config
        if state.t_ms < state.lead_in_end_ms:
            return CueDecision(False)
        if state.t_ms >= state.lead_in_end_ms + c.force_after_ms:
            return CueDecision(True, True, f"no suitable point within {c.force_after_ms} ms")
        utterance = state.transcript.current
        if utterance is None or not utterance.words or state.t_ms < self.next_poll:
            return CueDecision(False)
        self.next_poll = state.t_ms + self.poll_ms
        user = f"ASSISTANT SO FAR: {' '.join(utterance.words)}\nCUE: {state.cue_text}"
        try:
            answer = self.ask(CUE_PROMPT, user)
        except JudgeUnavailable:
            self.failures += 1
            return CueDecision(False)
        return CueDecision(answer.answer, reason=f"llm: {answer.reason}")


def openai_asker(model: str, base_url: str, api_key: str | None = None) -> Asker:
    def ask(system: str, user: str) -> YesNo:
        return ask_yes_no(base_url, model, system, user, api_key=api_key, timeout_s=30)

    return ask
