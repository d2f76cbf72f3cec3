"""A user plan: what the caller says next, as meaning (the realizer picks the words)."""

from __future__ import annotations

from dataclasses import dataclass

from duplexbench.items import ApprovalSpec, DuplexEvent, RevealRule
from duplexbench.trace import RepairKind
from duplexbench.values import SpellingStyle


@dataclass(frozen=True)
class Reveal:
    fact: str
    slot: str
    rule: RevealRule
    because: str


@dataclass(frozen=True)
class Repair:
    """What a repair plan does (logged as `user.repair`; docs/simulator.md, "Repairs")."""

    kind: RepairKind
    request: str
    """The agent's act that asked for it (`SPELL:tax_id`, `REPEAT`, ...)."""
    slot: str | None = None
    fact: str | None = None
    style: SpellingStyle | None = None
    """How the value is spelled (spell only)."""
    count: int = 0
    """Repairs of this slot so far, this one included."""
    over_budget: bool = False
    rate: float = 1.0
    """The caller's speech rate after this repair (a factor of its persona's speed)."""


@dataclass(frozen=True)
class Plan:
    """A semantic user plan: what to say, not how."""

    plan_id: str
    act: str
    facts: tuple[str, ...] = ()
    reveals: tuple[Reveal, ...] = ()
    event: DuplexEvent | None = None
    anchor: str = ""
    approval: ApprovalSpec | None = None
    revokes: str | None = None
    slots: tuple[str, ...] = ()
    """Slots the plan names without revealing them (which one is meant, what is left)."""
    read_back: tuple[str, ...] = ()
    """Approve plans: the slots the agent had read back when the user approved."""
    repair: Repair | None = None
    """Repair plans: what was repaired."""
    speed: float = 1.0
    """The caller's speech rate for this plan, a factor of its persona's speed (it drops
    when the agent asks the caller to slow down)."""
    times: int = 0
    """`patience` plans: how many times the caller has said the value already."""
