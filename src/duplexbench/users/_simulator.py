"""The simulated user's identity: what a run records so results are never pooled across
simulators that behave differently.

`SIMULATOR_VERSION` changes whenever the policy's answer to some observation
changes (version 2: the layered observer, the turn rules of docs/simulator.md);
the observer adds its own kind, version, model and weights.
"""

from __future__ import annotations

from duplexbench.items import Persona
from duplexbench.users._observer import ObserverConfig
from duplexbench.users._policy import MAX_ANSWERS

SIMULATOR_VERSION = "3"
TERSE_ANSWERS = 1


def simulator_identity(config: ObserverConfig) -> dict[str, str | None]:
    """{"simulator": version, "observer": layers, "version", "model", "weights", ...}."""
    return {"simulator": SIMULATOR_VERSION, **config.identity()}


def answers_per_turn(verbosity: str) -> int:
    """How many facts a caller gives when asked for several at once: a terse caller one,
    everyone else two."""
    return TERSE_ANSWERS if verbosity == "terse" else MAX_ANSWERS


def persona_answers(persona: Persona) -> int:
    return answers_per_turn(persona.verbosity)
