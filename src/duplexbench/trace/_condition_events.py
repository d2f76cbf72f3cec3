"""Events of the interaction condition: the frozen caller setup and the effect timeline."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from duplexbench.trace._base import _Data, _Event

JsonScalar = str | int | float | bool


class ConditionSetupData(_Data):
    """What this item x repetition got from its condition, frozen before the call."""

    condition: str
    persona: dict[str, Any] = Field(description="The caller persona (voice, rate, pitch, ...).")
    turn_taking: dict[str, Any] = Field(description="The user's turn-taking thresholds.")
    effects: dict[str, Any] | None = Field(
        None, description="Effects-chain parameters on the user channel (None: clean line)."
    )
    effects_seed: int | None = Field(None, description="Seed of the effects chain.")
    out_of_turn: dict[str, Any] | None = Field(
        None, description="Out-of-turn user sounds (vocal tics, side remarks); None: off."
    )
    line_delay_ms: int = Field(0, ge=0, description="Fixed latency of the degraded line.")
    noise_dir: str | None = Field(
        None, description="Folder of noise/burst recordings used (None: procedural sources)."
    )
    turn_decider: str = Field(
        "rule", description="Who decides interruptions: the seeded rule or llm:<model>."
    )
    agent_voice: str | None = Field(
        None,
        description="The voice the harness lends local agents for their speech "
        "(`speech/_agent_voice.py`; None: traces before reference agent version 4).",
    )
    simulator: dict[str, str | None] | None = Field(
        None,
        description="The simulated user: simulator version, observer layers, version, model "
        "and weights (None: traces before version 5).",
    )


class ConditionSetup(_Event):
    actor: Literal["harness"] = "harness"
    type: Literal["episode.condition"] = "episode.condition"
    data: ConditionSetupData


class UserEffectData(_Data):
    """One effect on the user channel (the clean signal is kept beside the degraded one)."""

    effect: str = Field(description="muffle, background_noise, burst, telephony, frame_drop.")
    start_ms: int = Field(ge=0)
    end_ms: int = Field(ge=0, description="Exclusive.")
    params: dict[str, JsonScalar] = Field(default_factory=dict)


class UserEffect(_Event):
    actor: Literal["harness"] = "harness"
    type: Literal["user.effect"] = "user.effect"
    data: UserEffectData
