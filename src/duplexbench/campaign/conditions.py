"""Named interaction conditions: the channel, and how the caller sounds and behaves.

Three factors, each off in `clean` and on in `realistic` (τ-Voice's conditions):

- noise: the line's effects chain (muffling, background noise at 15 dB SNR
  with drift, bursts, G.711 telephony, Gilbert-Elliott frame drops; τ-Voice's
  "regular" preset) and the caller's out-of-turn sounds (coughs, sneezes,
  sniffles and muffled side remarks at 0.7 per minute);
- accents: a caller persona per item x repetition drawn from every offline
  voice and accent (docs/personas.md), with its own rate, pitch and verbosity;
- turn-taking: τ-Voice's natural user (answers after 1.0 s of agent silence,
  yields after 1.0 s of being talked over, may interrupt with something to say
  and backchannels about once per four to six agent sentences, checking every
  2.0 s of agent speech) instead of the polite one.

Named presets: `clean`, `realistic`, each factor alone (`noise`, `accents`,
`turn-taking`), each pair (`noise+accents`, `noise+turn-taking`,
`accents+turn-taking`), and `text`, the text-channel control.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Literal

from duplexbench.audio.effects import EffectsConfig
from duplexbench.users.caller import CallerConfig
from duplexbench.users.personas import NEUTRAL, PERSONAS
from duplexbench.users.sounds import OutOfTurnConfig
from duplexbench.users.turntaking import NATURAL, POLITE, TurnTakingConfig

FACTORS = ("noise", "accents", "turn-taking")


@dataclass(frozen=True)
class Condition:
    name: str
    channel: Literal["text", "audio"]
    description: str
    turn_taking: TurnTakingConfig = POLITE
    user_voice: str | None = None
    caller: CallerConfig = field(default_factory=CallerConfig)


_WHAT = {
    "noise": "noisy phone line and out-of-turn caller sounds",
    "accents": "caller personas with accents, rates and pitches",
    "turn-taking": "natural turn-taking (interrupts, backchannels)",
}


def _audio(factors: tuple[str, ...], name: str | None = None) -> Condition:
    on = set(factors)
    noise, accents = "noise" in on, "accents" in on
    caller = CallerConfig(
        personas=tuple(p for p in PERSONAS if p != NEUTRAL) if accents else (NEUTRAL,),
        effects=EffectsConfig() if noise else None,
        out_of_turn=OutOfTurnConfig() if noise else None,
    )
    what = "; ".join(_WHAT[f] for f in FACTORS if f in on)
    return Condition(
        name or "+".join(f for f in FACTORS if f in on),
        "audio",
        f"Full-duplex audio: {what}.",
        turn_taking=NATURAL if "turn-taking" in on else POLITE,
        caller=caller,
    )


def _presets() -> dict[str, Condition]:
    presets = {
        "clean": Condition(
            "clean",
            "audio",
            "Full-duplex audio, one neutral voice, no effects, polite turn-taking.",
        ),
        "realistic": _audio(FACTORS, "realistic"),
    }
    for size in (1, 2):
        for factors in combinations(FACTORS, size):
            condition = _audio(factors)
            presets[condition.name] = condition
    presets["text"] = Condition(
        "text", "text", "Text-only control: the same workflow over text turns."
    )
    return presets


CONDITIONS: dict[str, Condition] = _presets()
DEFAULT_CONDITION = "clean"


def get_condition(name: str) -> Condition:
    try:
        return CONDITIONS[name]
    except KeyError:
        known = ", ".join(CONDITIONS)
        raise ValueError(f"unknown condition {name!r}; available: {known}") from None


def parse_conditions(text: str) -> list[str]:
    """`clean,realistic` -> the names, each checked, in order, without repeats."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise ValueError("no condition given")
    if len(set(names)) != len(names):
        raise ValueError(f"a condition is named twice in {text!r}")
    for name in names:
        get_condition(name)
    return names
