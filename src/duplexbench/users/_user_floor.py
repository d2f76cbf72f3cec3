"""The user's side of the floor on the audio channel: speaking, yielding, turn-taking.

`UserFloor` plays the user's clips frame by frame and decides, after each
frame, whether the user finishes, yields (talked over too long), barges in
(a scheduled authored event is due), takes the turn (the agent has been
silent long enough), nudges an idle agent, or -- with checks on (natural
turn-taking) -- interrupts or backchannels while the agent speaks. It decides
*when*; the policy decides *what*. Its random draws come from its own seeded
`random.Random`, so the same seed gives the same behaviour.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from duplexbench.audio import Int16Array
from duplexbench.users._policy import Plan
from duplexbench.users._turntaking import TurnTakingConfig


class Cue(Enum):
    """What the loop should do for the user after a frame."""

    NONE = "none"
    FINISHED = "finished"  # the current utterance ended
    YIELDED = "yielded"  # the user stopped: talked over
    BARGE_IN = "barge_in"  # say the due scheduled plans now
    REPEAT = "repeat"  # say the plans a yield interrupted
    REPLY = "reply"  # the agent spoke and is now silent: react
    NUDGE = "nudge"  # the agent has not spoken since the user's turn: react
    BACKCHANNEL = "backchannel"
    INTERRUPT = "interrupt"  # natural turn-taking: take the floor while the agent talks


NON_TURN_ACTS = frozenset({"backchannel", "vocal_tic", "aside"})
"""Acts that are not a turn: they do not reset what the user waits for."""


@dataclass(frozen=True)
class Listening:
    """What the user has taken in of the agent's speech (for interrupt/backchannel checks)."""

    sentences_heard: int = 0
    """Agent sentences heard so far in the call."""
    has_reply: bool = False
    """The agent asked, read back or requested something since the user's last turn."""
    question_in_progress: bool = False
    """The sentence the agent is saying now is a question (never interrupt it)."""
    text: str = ""
    """The agent's words heard since the user's last turn (for an LLM decision model)."""


@dataclass
class Speaking:
    samples: Int16Array
    plans: list[Plan]
    onset_ms: int
    pos: int = 0
    over_agent: bool = False
    """Started while the agent was speaking (an interruption or barge-in)."""

    @property
    def plan_ids(self) -> list[str]:
        return [p.plan_id for p in self.plans]

    @property
    def done(self) -> bool:
        return self.pos >= len(self.samples)


@dataclass
class UserFloor:
    config: TurnTakingConfig
    frame_samples: int
    rate: int = 16_000
    speaking: Speaking | None = None
    scheduled: list[tuple[int, list[Plan]]] = field(default_factory=list)
    interrupted: list[Plan] = field(default_factory=list)
    last_turn_end_ms: int = 0
    agent_spoke_since_turn: bool = False
    talked_over_ms: int = 0
    finished: Speaking | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    agent_run_ms: int = 0
    sentences_at_backchannel: int = 0
    backchannel_target: int = 0
    agent_speaking: bool = False
    decide_interrupt: Callable[[Listening], bool] | None = None
    """Optional decision model for interrupting (default: a draw against the tendency)."""

    def frame(self) -> Int16Array:
        """The user's next frame of audio (silence when not speaking)."""
        out = np.zeros(self.frame_samples, dtype=np.int16)
        s = self.speaking
        if s is not None and not s.done:
            chunk = s.samples[s.pos : s.pos + self.frame_samples]
            out[: len(chunk)] = chunk
            s.pos += len(chunk)
        return out

    def start(self, samples: Int16Array, plans: list[Plan], onset_ms: int) -> None:
        self.speaking = Speaking(samples, plans, onset_ms, over_agent=self.agent_speaking)
        self.talked_over_ms = 0
        if not all(p.act in NON_TURN_ACTS for p in plans):
            self.agent_spoke_since_turn = False

    def schedule(self, at_ms: int, plans: list[Plan]) -> None:
        self.scheduled.append((at_ms, plans))
        self.scheduled.sort(key=lambda s: s[0])

    def due(self, now_ms: int) -> list[Plan]:
        """Scheduled plans whose time has come (removed from the schedule)."""
        plans: list[Plan] = []
        while self.scheduled and self.scheduled[0][0] <= now_ms:
            plans += self.scheduled.pop(0)[1]
        return plans

    def after_frame(
        self,
        now_ms: int,
        agent_speaking: bool,
        agent_silence_ms: int,
        agent_speech_ms: int,
        listening: Listening | None = None,
    ) -> Cue:
        """Decide what happens next; `now_ms` is the start of the next frame."""
        del agent_speech_ms  # the floor keeps its own count of the agent's stretch
        s = self.speaking
        frame_ms = self.frame_samples * 1000 // self.rate
        self.agent_speaking = agent_speaking
        self.agent_run_ms = self.agent_run_ms + frame_ms if agent_speaking else 0
        if agent_speaking and s is None:
            self.agent_spoke_since_turn = True
        if s is not None:
            return self._while_speaking(s, now_ms, agent_speaking)
        if self.scheduled and self.scheduled[0][0] <= now_ms:
            return Cue.BARGE_IN
        cfg = self.config
        quiet = not agent_speaking and agent_silence_ms >= cfg.response_gap_ms
        if self.interrupted and quiet:
            return Cue.REPEAT
        if self.agent_spoke_since_turn and quiet:
            return Cue.REPLY
        idle = now_ms - self.last_turn_end_ms >= cfg.idle_nudge_ms
        if not self.agent_spoke_since_turn and quiet and idle:
            return Cue.NUDGE
        return self._check(listening or Listening(), frame_ms)

    def _check(self, heard: Listening, frame_ms: int) -> Cue:
        """Every `check_every_ms` of continuous agent speech: interrupt, backchannel or not."""
        cfg = self.config
        every = cfg.check_every_ms
        if every is None or self.agent_run_ms < every or self.agent_run_ms % every >= frame_ms:
            return Cue.NONE
        can_interrupt = (
            heard.has_reply
            and not heard.question_in_progress
            and self.agent_run_ms >= cfg.interrupt_after_ms
        )
        if can_interrupt:
            decide = self.decide_interrupt
            go = decide(heard) if decide else self.rng.random() < cfg.interrupt_probability
            if go:
                return Cue.INTERRUPT
        bc = cfg.backchannel_sentences
        if bc is None:
            return Cue.NONE
        if not self.backchannel_target:
            self.backchannel_target = self.rng.randint(*bc)
        if heard.sentences_heard - self.sentences_at_backchannel >= self.backchannel_target:
            self.sentences_at_backchannel = heard.sentences_heard
            self.backchannel_target = self.rng.randint(*bc)
            return Cue.BACKCHANNEL
        return Cue.NONE

    def _while_speaking(self, s: Speaking, now_ms: int, agent_speaking: bool) -> Cue:
        frame_ms = self.frame_samples * 1000 // self.rate
        self.talked_over_ms = self.talked_over_ms + frame_ms if agent_speaking else 0
        if s.done:
            self.finished, self.speaking = s, None
            self.last_turn_end_ms = now_ms
            return Cue.FINISHED
        cfg = self.config
        natural = cfg.check_every_ms is not None
        limit = cfg.keep_talking_ms if natural and s.over_agent else cfg.yield_after_ms
        if self.talked_over_ms >= limit and self.dropped_ms(s) >= cfg.yield_min_remaining_ms:
            self.finished, self.speaking = s, None
            self.last_turn_end_ms = now_ms
            if not any(p.act in NON_TURN_ACTS | {"end"} for p in s.plans):
                self.interrupted = list(s.plans)
            return Cue.YIELDED
        return Cue.NONE

    def dropped_ms(self, s: Speaking) -> int:
        return max(0, len(s.samples) - s.pos) * 1000 // self.rate
