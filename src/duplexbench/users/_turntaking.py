"""Turn-taking thresholds of the simulated user on the audio channel (one object).

Two presets: :data:`POLITE` (the `clean` condition: the user waits for the agent
to finish, never backchannels or interrupts) and :data:`NATURAL` (tau-Voice's
user policy: answers after 1.0 s of agent silence, yields when talked over for
1.0 s, keeps talking up to 5.0 s after interrupting, checks every 2.0 s of
agent speech whether to interrupt or backchannel, backchannels about once per
four to six agent sentences, never interrupts right away or during a question).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any


@dataclass(frozen=True)
class TurnTakingConfig:
    """How the user shares the floor. All times in media milliseconds.

    - `response_gap_ms`: the user answers once the agent has been silent this long.
    - `yield_after_ms`: the user stops talking when the agent talks over them this long
      (unless less than `yield_min_remaining_ms` of the utterance is left: then they finish).
    - `idle_nudge_ms`: with no agent speech this long after the user's turn, the user
      nudges ("Hello?"); after two nudges the user hangs up (`agent_idle`).
    - `check_every_ms`: while the agent speaks, every this much continuous agent speech
      the user considers interrupting or backchanneling (None: never).
    - `interrupt_probability`: chance, at a check, that the user interrupts when they have
      something to say (the agent asked or read back something and kept talking). The
      caller persona's interruption tendency sets it.
    - `interrupt_after_ms`: never interrupt right away: the agent's current stretch of
      speech must have lasted this long.
    - `keep_talking_ms`: after the user interrupts, they hold the floor against agent
      speech this long before yielding (instead of `yield_after_ms`).
    - `backchannel_sentences`: (low, high): at a check, the user backchannels once at least
      N agent sentences were heard since the last backchannel, N drawn uniformly from
      [low, high] each time (None: never).
    """

    response_gap_ms: int = 700
    yield_after_ms: int = 1000
    yield_min_remaining_ms: int = 300
    idle_nudge_ms: int = 6000
    check_every_ms: int | None = None
    interrupt_probability: float = 0.0
    interrupt_after_ms: int = 2000
    keep_talking_ms: int = 5000
    backchannel_sentences: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        for name in ("response_gap_ms", "yield_after_ms", "idle_nudge_ms", "keep_talking_ms"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        if self.check_every_ms is not None and self.check_every_ms <= 0:
            raise ValueError("check_every_ms must be positive (or None)")
        if not 0.0 <= self.interrupt_probability <= 1.0:
            raise ValueError(
                f"interrupt_probability must be in [0, 1], got {self.interrupt_probability}"
            )
        bc = self.backchannel_sentences
        if bc is not None and not 1 <= bc[0] <= bc[1]:
            raise ValueError(f"backchannel_sentences must be (low, high) >= 1, got {bc}")

    def for_persona(self, interruption: float, backchannel: float) -> TurnTakingConfig:
        """This config with a persona's tendencies (when checks are on): the interruption
        tendency is the chance to interrupt at a check; a chatty listener (backchannel
        tendency >= 0.4) backchannels one sentence sooner, a quiet one (<= 0.15) one
        sentence later, than `backchannel_sentences`."""
        if self.check_every_ms is None:
            return self
        bc = self.backchannel_sentences
        if bc is not None:
            shift = -1 if backchannel >= 0.4 else 1 if backchannel <= 0.15 else 0
            bc = (max(1, bc[0] + shift), max(1, bc[1] + shift))
        return replace(self, interrupt_probability=interruption, backchannel_sentences=bc)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


POLITE = TurnTakingConfig()
NATURAL = TurnTakingConfig(
    response_gap_ms=1000,
    check_every_ms=2000,
    interrupt_probability=0.3,
    backchannel_sentences=(4, 6),
)
