"""Named interaction conditions: which channel an episode runs on and how the user sounds.

- `text`: the text-only control (no audio; utterances are strings).
- `clean`: full-duplex audio, one neutral voice, no effects, polite turn-taking
  (the user waits for the agent to finish, never backchannels).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from duplexbench.users.turntaking import TurnTakingConfig


@dataclass(frozen=True)
class Condition:
    name: str
    channel: Literal["text", "audio"]
    description: str
    turn_taking: TurnTakingConfig = field(default_factory=TurnTakingConfig)
    user_voice: str | None = None


CONDITIONS: dict[str, Condition] = {
    "clean": Condition(
        "clean", "audio", "Full-duplex audio, one neutral voice, no effects, polite turn-taking."
    ),
    "text": Condition("text", "text", "Text-only control: the same workflow over text turns."),
}
DEFAULT_CONDITION = "clean"


def get_condition(name: str) -> Condition:
    try:
        return CONDITIONS[name]
    except KeyError:
        known = ", ".join(sorted(CONDITIONS))
        raise ValueError(f"unknown condition {name!r}; available: {known}") from None
