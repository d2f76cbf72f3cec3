"""Turn-taking thresholds of the simulated user on the audio channel (one object)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TurnTakingConfig:
    """How the user shares the floor. All times in media milliseconds.

    - `response_gap_ms`: the user answers once the agent has been silent this long.
    - `yield_after_ms`: the user stops talking when the agent talks over them this long
      (unless less than `yield_min_remaining_ms` of the utterance is left: then they finish).
    - `idle_nudge_ms`: with no agent speech this long after the user's turn, the user
      nudges ("Hello?"); after two nudges the user hangs up (`agent_idle`).
    - `backchannel_after_ms`: during a continuous agent turn this long, the user says
      a short backchannel once per turn (None: never; the `clean` condition's default).
    """

    response_gap_ms: int = 700
    yield_after_ms: int = 1000
    yield_min_remaining_ms: int = 300
    idle_nudge_ms: int = 6000
    backchannel_after_ms: int | None = None

    def __post_init__(self) -> None:
        for name in ("response_gap_ms", "yield_after_ms", "idle_nudge_ms"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
