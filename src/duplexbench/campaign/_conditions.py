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

:func:`check_noise_dir` checks a `--noise-dir` folder of recordings before they
are loaded: every `<kind>/*.wav` inside the folder (no symbolic link out of it),
each at most :data:`~duplexbench.audio._wav.MAX_WAV_BYTES`, at most
:data:`MAX_NOISE_FILES` files and :data:`MAX_NOISE_DIR_BYTES` in all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Literal

from duplexbench.audio import MAX_WAV_BYTES, EffectsConfig
from duplexbench.files import UnsafeFileError, resolve_inside, too_big
from duplexbench.users import (
    NATURAL,
    NEUTRAL,
    PERSONAS,
    POLITE,
    CallerConfig,
    OutOfTurnConfig,
    TurnTakingConfig,
)

FACTORS = ("noise", "accents", "turn-taking")
MAX_NOISE_FILES = 1_000
"""Recordings in one `--noise-dir` (all are held in memory for the run)."""
MAX_NOISE_DIR_BYTES = 512 * 1024 * 1024
"""Every recording of one `--noise-dir` together."""


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
DEFAULT = CONDITIONS[DEFAULT_CONDITION]


def get_condition(name: str) -> Condition:
    """The preset of that name (only `parse_conditions` looks one up: a run resolves its
    conditions once, where they are given, and passes the objects on)."""
    try:
        return CONDITIONS[name]
    except KeyError:
        known = ", ".join(CONDITIONS)
        raise ValueError(f"unknown condition {name!r}; available: {known}") from None


def parse_conditions(text: str) -> tuple[Condition, ...]:
    """`clean,realistic` -> those conditions, in order; ValueError for an unknown name,
    a repeat or none."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise ValueError("no condition given")
    if len(set(names)) != len(names):
        raise ValueError(f"a condition is named twice in {text!r}")
    return tuple(get_condition(name) for name in names)


def check_noise_dir(folder: Path) -> list[Path]:
    """The recordings a `--noise-dir` folder holds (`folder/<kind>/*.wav`), checked.

    UnsafeFileError (a ValueError) naming the file for a recording that leads out
    of `folder` (a symbolic link, of the file or its kind folder), is not a regular
    file or is above MAX_WAV_BYTES; naming the folder past MAX_NOISE_FILES files or
    MAX_NOISE_DIR_BYTES in all.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder}: recordings folder does not exist")
    files: list[Path] = []
    total = 0
    for kind in sorted(p for p in folder.iterdir() if p.is_dir()):
        for file in sorted(p for p in kind.iterdir() if p.suffix.lower() == ".wav"):
            resolve_inside(folder, f"{kind.name}/{file.name}", "noise recording")
            if not file.is_file():
                raise UnsafeFileError(file, "noise recording is not a regular file")
            size = file.stat().st_size
            if size > MAX_WAV_BYTES:
                raise UnsafeFileError(file, too_big("noise recording", size, MAX_WAV_BYTES))
            files.append(file)
            total += size
            if len(files) > MAX_NOISE_FILES:
                raise UnsafeFileError(folder, f"more than {MAX_NOISE_FILES} noise recordings")
            if total > MAX_NOISE_DIR_BYTES:
                what = "the noise recordings together"
                raise UnsafeFileError(folder, too_big(what, total, MAX_NOISE_DIR_BYTES, "over "))
    return files
