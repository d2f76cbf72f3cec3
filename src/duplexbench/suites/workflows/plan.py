"""The taxonomy plan of each generated item, so that a suite covers every value."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import get_args

from duplexbench.items import (
    Autonomy,
    Burden,
    DelegationPattern,
    DuplexPhenomenon,
    Industry,
    Risk,
    UserBehavior,
)
from duplexbench.suites.workflows.catalog import Archetype
from duplexbench.suites.workflows.pools import PoolName


@dataclass(frozen=True)
class ItemPlan:
    index: int
    archetype: Archetype
    industry: str
    economic_role: str
    phenomena: tuple[str, ...]
    delegation: str
    autonomy: str
    knowledge: str
    tools: str
    behavior: str
    risk: str
    seed: int
    pools: PoolName = "packaged"
    """The names the world draws from (`pools.py`): private suites never meet the packaged ones."""


RISK_BY_AUTONOMY = {
    "inform_only": "informational",
    "draft_only": "reversible",
    "reversible_write": "reversible",
    "approval_gated_commit": "consequential",
    "autonomous_commit": "consequential",
}


def _cycle(values: tuple[str, ...], n: int, rng: random.Random) -> list[str]:
    """n labels covering every value at least once (when n >= len), in seeded order."""
    out: list[str] = []
    while len(out) < n:
        block = list(values)
        rng.shuffle(block)
        out += block
    return out[:n]


def make_plans(
    archetypes: list[Archetype], per_archetype: int, seed: int, pools: PoolName = "packaged"
) -> list[ItemPlan]:
    """Plans for len(archetypes) x per_archetype items, every taxonomy value realized.

    Each dimension cycles through all its labels in a seeded order; `coherent`
    then adjusts the few combinations a workflow cannot have.
    """
    rng = random.Random(seed)
    n = len(archetypes) * per_archetype
    columns = {
        "industry": _cycle(get_args(Industry), n, rng),
        "delegation": _cycle(get_args(DelegationPattern), n, rng),
        "autonomy": _cycle(get_args(Autonomy), n, rng),
        "knowledge": _cycle(get_args(Burden), n, rng),
        "tools": _cycle(get_args(Burden), n, rng),
        "behavior": _cycle(get_args(UserBehavior), n, rng),
        "phenomenon": _cycle(get_args(DuplexPhenomenon), n, rng),
    }
    plans = []
    for i in range(n):
        arch = archetypes[i % len(archetypes)]
        extra = rng.choice(get_args(DuplexPhenomenon))
        first = columns["phenomenon"][i]
        chosen = tuple(dict.fromkeys([first, extra])) if rng.random() < 0.4 else (first,)
        plan = ItemPlan(
            index=i,
            archetype=arch,
            industry=columns["industry"][i],
            economic_role=arch.roles[(i // len(archetypes)) % len(arch.roles)],
            phenomena=chosen,
            delegation=columns["delegation"][i],
            autonomy=columns["autonomy"][i],
            knowledge=columns["knowledge"][i],
            tools=columns["tools"][i],
            behavior=columns["behavior"][i],
            risk="informational",
            seed=rng.randrange(2**31),
            pools=pools,
        )
        plans.append(coherent(plan, high_stakes=rng.random() < 0.3))
    return plans


def coherent(plan: ItemPlan, high_stakes: bool = False) -> ItemPlan:
    """Adjust a plan to what one workflow can realize.

    Revocations and cancellations withdraw an approval, so they need an
    approval-gated commit (and exclude each other: both react to the
    read-back); a database-mode archetype (the gold is the final database)
    always writes, and a cancellation there would leave nothing to grade.
    """
    phenomena = list(plan.phenomena)
    autonomy = plan.autonomy
    if plan.archetype.database_table:
        phenomena = ["revocation" if p == "cancellation" else p for p in phenomena]
        if autonomy not in ("approval_gated_commit", "autonomous_commit"):
            autonomy = "approval_gated_commit"
    if "revocation" in phenomena and "cancellation" in phenomena:
        phenomena.remove("cancellation")
    if "revocation" in phenomena or "cancellation" in phenomena:
        autonomy = "approval_gated_commit"
    risk = RISK_BY_AUTONOMY[autonomy]
    if risk == "consequential" and high_stakes:
        risk = "high_stakes"
    return replace(plan, phenomena=tuple(dict.fromkeys(phenomena)), autonomy=autonomy, risk=risk)


__all__ = ["RISK_BY_AUTONOMY", "ItemPlan", "Risk", "coherent", "make_plans"]
