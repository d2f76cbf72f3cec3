"""The caller of an action replay under an interaction condition.

An action item's user timeline and its annotations (pauses, spans, target
points, the cue's length) are fixed; a condition may change how the user
sounds, never when. So of the three factors (docs/actions.md, "Conditions"):

- **noise**: the line's effects chain degrades every frame the agent
  receives (channel 0 of audio.wav stays clean, `user_line.wav` holds what
  the agent got), on every action. The caller's out-of-turn sounds do not
  apply: they would add user speech the annotations do not account for (the
  `ignore` action already places side speech, annotated).
- **accents**: the persona's voice (and pitch) says the item's `user`
  segments, each fitted to its annotated duration ("stretch"), so every
  annotation stays exact; `other` and `background` speakers keep their
  voices. A persona whose voice an item's other speaker already uses would
  blur who is talking, so the next persona in the list that differs is taken.
  Verbosity does not apply (the words are the item's).
- **turn-taking**: does not apply: the replayed user's turn-taking is what
  each action item scripts. A condition with nothing else is refused.
"""

from __future__ import annotations

from dataclasses import replace

from duplexbench.items import ActionItem
from duplexbench.users import NEUTRAL, POLITE, CallerConfig, FrozenCaller, freeze_caller

CLEAN = CallerConfig()


def replay_config(caller: CallerConfig) -> CallerConfig:
    """What of a condition's caller applies to replays (module docstring)."""
    return replace(caller, out_of_turn=None, decider=None)


def applies_to_replays(caller: CallerConfig) -> bool:
    """Whether anything of the caller changes a replay (noise or personas)."""
    return replay_config(caller) != CLEAN


def replay_caller(config: CallerConfig, item: ActionItem, repetition_seed: int) -> FrozenCaller:
    """The caller of one action item x repetition (module docstring)."""
    config = replay_config(config)
    caller = freeze_caller(config, POLITE, item.id, repetition_seed, "")
    if caller.persona.name == NEUTRAL:
        return caller
    others = {s.voice for s in item.segments if s.role != "user"}
    names = list(config.personas)
    start = names.index(caller.persona.name)
    for name in names[start:] + names[:start]:
        only = replace(config, personas=(name,))
        pick = freeze_caller(only, POLITE, item.id, repetition_seed, "")
        if pick.persona.name == NEUTRAL or pick.voice not in others:
            return pick
    return caller  # unreachable with the built-in personas (13 voices, at most 2 others)
