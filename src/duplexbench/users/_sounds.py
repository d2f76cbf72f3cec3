"""Out-of-turn user sounds: vocal tics (cough, sneeze, sniffle) and muffled side remarks.

tau-Voice's "regular" preset has the caller make such sounds at 0.7 per minute.
They are the caller's own sounds, so they are part of the *clean* user channel
(the effects chain then degrades them like speech). Onsets follow a Poisson
process drawn from the caller's seed; a sound due while the user is speaking
waits until the user is silent (so the rate holds). A share `tic_share` of them
are vocal tics (procedural, :func:`duplexbench.audio._effects.tic_clip`), the
rest side remarks ("Hold on a second.") in the caller's own voice, rendered
off-axis (:func:`duplexbench.audio._spatial.off_axis`: quieter, duller, with
room reflections) as if said to someone else in the room. Neither is a turn:
the agent should ignore both (τ-Voice's S_VT and S_ND selectivity).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Any, Literal

SoundKind = Literal["vocal_tic", "non_directed"]


@dataclass(frozen=True)
class OutOfTurnConfig:
    per_minute: float = 0.7
    tic_share: float = 0.5
    tic_kinds: tuple[str, ...] = ("cough", "sneeze", "sniffle")
    remarks: tuple[str, ...] = (
        "Hold on a second.",
        "Just a moment.",
        "Sorry, one sec, I'm on the phone.",
        "Can you turn that down, please?",
    )
    tic_level_dbfs: float = -26.0

    def __post_init__(self) -> None:
        if self.per_minute < 0 or not 0.0 <= self.tic_share <= 1.0:
            raise ValueError("per_minute must be >= 0 and tic_share in [0, 1]")
        if not self.tic_kinds or not self.remarks:
            raise ValueError("out-of-turn sounds need at least one tic kind and one remark")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Sound:
    """One out-of-turn sound: a tic kind ("cough") or a remark's text."""

    kind: SoundKind
    what: str
    seed: int


class OutOfTurnSounds:
    """The seeded schedule of one call's out-of-turn sounds."""

    def __init__(self, config: OutOfTurnConfig, seed: int) -> None:
        self.config = config
        self.rng = random.Random(seed)
        self.next_ms = self._gap()

    def _gap(self) -> float:
        if self.config.per_minute <= 0:
            return float("inf")
        return self.rng.expovariate(self.config.per_minute / 60_000.0)

    def due(self, now_ms: int, user_silent: bool) -> Sound | None:
        """The sound to make now, if one is due and the user is silent."""
        if now_ms < self.next_ms or not user_silent:
            return None
        self.next_ms = now_ms + self._gap()
        cfg = self.config
        seed = self.rng.getrandbits(32)
        if self.rng.random() < cfg.tic_share:
            return Sound("vocal_tic", self.rng.choice(cfg.tic_kinds), seed)
        return Sound("non_directed", self.rng.choice(cfg.remarks), seed)
