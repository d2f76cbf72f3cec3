"""Generate a workflow suite: plans -> candidate items -> checked items or rejections.

A candidate that cannot be composed, does not parse, fails an audit or is
not solvable is rejected with its reason and regenerated from the next seed
(at most `MAX_ATTEMPTS` times); nothing invalid is ever emitted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from duplexbench.items import ItemError, WorkflowItem, parse_item
from duplexbench.suites.workflows.assemble import assemble
from duplexbench.suites.workflows.catalog import Archetype
from duplexbench.suites.workflows.compose import CompositionError, compose
from duplexbench.suites.workflows.plan import ItemPlan, make_plans
from duplexbench.suites.workflows.pools import PoolName

MAX_ATTEMPTS = 8

Check = Callable[[WorkflowItem], list[tuple[str, str]]]
"""A check of a candidate: (path, message) per problem."""


@dataclass(frozen=True)
class Rejection:
    item_id: str
    attempt: int
    stage: str  # compose | parse | check
    reason: str


@dataclass
class Generated:
    seed: int
    pools: PoolName = "packaged"
    items: list[WorkflowItem] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)


class GenerationError(RuntimeError):
    """A plan produced no valid item within MAX_ATTEMPTS (the spec is unrealizable)."""


def item_id(plan: ItemPlan, number: int) -> str:
    return f"{plan.archetype.key.replace('_', '-')}-{number:02d}"


def candidate(plan: ItemPlan, ident: str) -> WorkflowItem:
    """One candidate item (raises CompositionError or ItemError)."""
    return parse_item(assemble(compose(plan), ident), ident)


def generate(
    archetypes: Sequence[Archetype],
    per_archetype: int,
    seed: int,
    checks: Sequence[Check] = (),
    progress: Callable[[int], None] | None = None,
    *,
    pools: PoolName = "packaged",
) -> Generated:
    """len(archetypes) x per_archetype items; each passes every check."""
    out = Generated(seed, pools)
    numbers: dict[str, int] = {}
    for plan in make_plans(list(archetypes), per_archetype, seed, pools):
        numbers[plan.archetype.key] = numbers.get(plan.archetype.key, 0) + 1
        ident = item_id(plan, numbers[plan.archetype.key])
        out.items.append(_first_valid(plan, ident, checks, out.rejected))
        if progress is not None:
            progress(1)
    return out


def _first_valid(
    plan: ItemPlan, ident: str, checks: Sequence[Check], rejected: list[Rejection]
) -> WorkflowItem:
    for attempt in range(MAX_ATTEMPTS):
        tried = replace(plan, seed=plan.seed + attempt * 7919)
        try:
            item = candidate(tried, ident)
        except CompositionError as exc:
            rejected.append(Rejection(ident, attempt, "compose", str(exc)))
            continue
        except ItemError as exc:
            first = exc.problems[0]
            rejected.append(Rejection(ident, attempt, "parse", f"{first.path}: {first.message}"))
            continue
        problems = [p for check in checks for p in check(item)]
        if problems:
            path, message = problems[0]
            rejected.append(Rejection(ident, attempt, "check", f"{path}: {message}"))
            continue
        return item
    reasons = [r.reason for r in rejected if r.item_id == ident]
    raise GenerationError(f"{ident}: no valid candidate in {MAX_ATTEMPTS} attempts: {reasons}")
