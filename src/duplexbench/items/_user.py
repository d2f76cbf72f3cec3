"""The simulated user: persona, private facts with reveal rules, approvals,
authored duplex events and the realization bank."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from duplexbench.items._base import Identifier, JsonValue, StrictModel
from duplexbench.items._taxonomy import UserBehavior

RevealRule = Literal["volunteer", "when_asked", "on_event"]
EventKind = Literal[
    "correction", "barge_in", "revocation", "cancellation", "clarification", "backchannel"
]
FloorAction = Literal["yield", "continue", "none"]
ACT_PATTERN = r"^[A-Z_]+(:[A-Za-z0-9_.\-]+)?$"


class Persona(StrictModel):
    name: str = Field(min_length=1)
    voice: str = Field("default", description="Voice id used by the speech bank.")
    verbosity: Literal["terse", "normal", "verbose"] = "normal"
    behavior: UserBehavior = "cooperative"


class Fact(StrictModel):
    """A private fact of the user. Versions of one fact form a `supersedes` chain."""

    id: Identifier
    value: JsonValue
    say: str | None = Field(None, description="Spoken form (default: the value as text).")
    field: str | None = Field(
        None,
        pattern=r"^[A-Za-z][A-Za-z0-9_.\-]*\.[A-Za-z][A-Za-z0-9_.\-]*$",
        description="`artifact.field` this fact fills, for fact versions and stale checks.",
    )
    aliases: list[str] = Field(
        default_factory=list, description="Phrases an agent uses to ask for this fact."
    )
    description: str = Field(
        "",
        max_length=300,
        description="What the fact is, in words, for the simulated user to recognise questions "
        "about it (default: the description of the linked artifact field).",
    )
    supersedes: Identifier | None = None
    reveal: RevealRule = "when_asked"

    @property
    def spoken(self) -> str:
        if self.say is not None:
            return self.say
        if isinstance(self.value, float) and self.value.is_integer():
            return str(int(self.value))
        if isinstance(self.value, list):
            return ", ".join(str(v) for v in self.value)
        return str(self.value)


class Trigger(StrictModel):
    """When an authored event fires: exactly one anchor."""

    at_ms: int | None = Field(None, ge=0, description="Media time.")
    act: str | None = Field(None, pattern=ACT_PATTERN, description="An observed agent act.")
    after_plan: str | None = Field(None, description="After the user said this plan.")
    tool: Identifier | None = Field(None, description="After the agent called this tool.")
    approval: Identifier | None = Field(None, description="After this approval was granted.")
    field: str | None = Field(
        None,
        pattern=r"^[A-Za-z][A-Za-z0-9_.\-]*\.[A-Za-z][A-Za-z0-9_.\-]*$",
        description="After the agent wrote this `artifact.field`.",
    )
    offset_ms: int = Field(0, ge=0, description="Delay after the anchor (audio channel).")

    @model_validator(mode="after")
    def _one_anchor(self) -> Trigger:
        anchors = [self.at_ms, self.act, self.after_plan, self.tool, self.approval, self.field]
        if sum(a is not None for a in anchors) != 1:
            raise ValueError(
                "a trigger needs exactly one of at_ms, act, after_plan, tool, approval, field"
            )
        return self


class DuplexEvent(StrictModel):
    """An authored duplex event: the user corrects, revokes, barges in, ..."""

    id: Identifier
    kind: EventKind
    trigger: Trigger
    reveals: list[Identifier] = Field(
        default_factory=list, description="Facts (reveal: on_event) this event speaks."
    )
    revokes: Identifier | None = Field(None, description="Approval this event revokes.")
    delivery: Literal["barge_in", "after_turn"] = "after_turn"
    expected_floor_action: FloorAction = "yield"
    max_stop_latency_ms: int | None = Field(None, ge=0)


class ApprovalSpec(StrictModel):
    """An approval the user gives when the agent asks for it."""

    id: Identifier
    action: Identifier
    target: str | None = Field(None, description="Scope target (default: any target).")
    max_grants: int = Field(1, ge=1, description="How many times the user will approve.")
    after: list[Identifier] = Field(
        default_factory=list,
        description="Events that must have fired before the user approves (else declines).",
    )
    aliases: list[str] = Field(
        default_factory=list, description="Phrases an agent uses to name the action aloud."
    )
    readback: list[Identifier] = Field(
        default_factory=list,
        description="Key facts (slots: the first fact of a `supersedes` chain) whose current "
        "values the agent must have read back before the user approves; empty: no read-back "
        "needed. The user asks for the read-back instead of approving.",
    )


class UserSpec(StrictModel):
    persona: Persona
    goal: str = Field(min_length=1)
    facts: list[Fact] = Field(default_factory=list)
    approvals: list[ApprovalSpec] = Field(default_factory=list)
    events: list[DuplexEvent] = Field(default_factory=list)
    realizations: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Text variants (2-5) per user plan id; `{fact_id}` / `{value}` placeholders.",
    )

    def fact(self, fact_id: str) -> Fact | None:
        return next((f for f in self.facts if f.id == fact_id), None)

    def slot_of(self, fact_id: str) -> str:
        """Root of a fact's `supersedes` chain: the slot the agent asks for."""
        seen: set[str] = set()
        fact = self.fact(fact_id)
        while fact is not None and fact.supersedes and fact.id not in seen:
            seen.add(fact.id)
            fact = self.fact(fact.supersedes)
        return fact.id if fact is not None else fact_id

    def versions(self, slot: str) -> list[Fact]:
        """Facts of one slot in chain order (original first)."""
        return [f for f in self.facts if self.slot_of(f.id) == slot]
