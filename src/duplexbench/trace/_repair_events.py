"""The caller answering a repair request: the agent asked to repeat, spell, read digits
or slow down (docs/simulator.md, "Repairs")."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from duplexbench.trace._base import _Data, _Event

RepairKind = Literal["repeat", "spell", "digits", "slower", "none"]


class UserRepairData(_Data):
    """One repair the caller made, stamped at the onset of the words that carry it."""

    kind: RepairKind = Field(
        description="repeat, spell, digits, slower; none: the request had nothing to repair "
        "(nothing said yet, a slot never given or not held)."
    )
    request: str = Field(description="The agent's act that asked for it, e.g. `SPELL:tax_id`.")
    slot: str | None = Field(None, description="The slot repaired (None: a whole utterance).")
    fact: str | None = Field(None, description="The fact version said again.")
    style: str | None = Field(None, description="How a value was spelled (spell only).")
    count: int = Field(0, ge=0, description="Repairs of this slot so far, this one included.")
    over_budget: bool = Field(
        False, description="Past the persona's patience: the caller said it had said it already."
    )
    rate: float = Field(1.0, gt=0, description="The caller's speech rate after this repair.")
    plan_id: str = Field(description="The user plan that carries the repair.")


class UserRepair(_Event):
    """`user.repair`: the caller answering a repair request."""

    actor: Literal["user"] = "user"
    type: Literal["user.repair"] = "user.repair"
    data: UserRepairData
