"""The user's side of the floor on the audio channel: speaking, yielding, turn-taking.

`UserFloor` plays the user's clips frame by frame and decides, after each
frame, whether the user finishes, yields (talked over too long), barges in
(a scheduled authored event is due), takes the turn (the agent has been
silent long enough) or nudges an idle agent. It decides *when*; the policy
decides *what*.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from duplexbench.audio.pcm import Int16Array
from duplexbench.users.policy import Plan
from duplexbench.users.turntaking import TurnTakingConfig


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


@dataclass
class Speaking:
    samples: Int16Array
    plans: list[Plan]
    onset_ms: int
    pos: int = 0
    backchannel: bool = False

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
    backchanneled: bool = False
    finished: Speaking | None = None

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
        self.speaking = Speaking(samples, plans, onset_ms)
        self.talked_over_ms = 0
        if not any(p.act == "backchannel" for p in plans):
            self.agent_spoke_since_turn = False
            self.backchanneled = False

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
        self, now_ms: int, agent_speaking: bool, agent_silence_ms: int, agent_speech_ms: int
    ) -> Cue:
        """Decide what happens next; `now_ms` is the start of the next frame."""
        s = self.speaking
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
        bc = cfg.backchannel_after_ms
        if bc is not None and agent_speaking and agent_speech_ms >= bc and not self.backchanneled:
            self.backchanneled = True
            return Cue.BACKCHANNEL
        return Cue.NONE

    def _while_speaking(self, s: Speaking, now_ms: int, agent_speaking: bool) -> Cue:
        frame_ms = self.frame_samples * 1000 // self.rate
        self.talked_over_ms = self.talked_over_ms + frame_ms if agent_speaking else 0
        if s.done:
            self.finished, self.speaking = s, None
            self.last_turn_end_ms = now_ms
            return Cue.FINISHED
        if (
            self.talked_over_ms >= self.config.yield_after_ms
            and self.dropped_ms(s) >= self.config.yield_min_remaining_ms
        ):
            self.finished, self.speaking = s, None
            self.last_turn_end_ms = now_ms
            if not any(p.act in ("backchannel", "end") for p in s.plans):
                self.interrupted = list(s.plans)
            return Cue.YIELDED
        return Cue.NONE

    def dropped_ms(self, s: Speaking) -> int:
        return max(0, len(s.samples) - s.pos) * 1000 // self.rate
