"""Audit plans: the list of calls a person makes in one session (`duplexbench call
--plan audit.yaml`).

```yaml
suite: workflows-mini        # a built-in suite or a folder, as --suite
agent: reference             # the agent under test, as --agent
items: [item-a, item-b]      # called in this order, one call each
seed: 0                      # optional
out: runs/audit-reference    # optional: the run directory (else --out, else runs/...)
```

A plan is read like an item file (safe YAML, size-capped); anything wrong with it
is an `AuditPlanError` naming the file and the field, before any page opens.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from duplexbench.items import ItemError, read_document

MAX_PLAN_BYTES = 64 * 1024


class AuditPlanError(ValueError):
    """An audit plan that cannot be used, naming its file."""


class AuditPlan(BaseModel):
    """One person's session of calls: which agent, which items, in which order."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    suite: str = Field(min_length=1, description="A built-in suite's name or a folder.")
    agent: str = Field(min_length=1, description="The agent spec, as --agent.")
    items: list[str] = Field(min_length=1, description="Item ids, called in this order.")
    seed: int = 0
    out: str | None = Field(None, description="The run directory (default: --out or runs/...).")


def load_audit_plan(path: Path) -> AuditPlan:
    """Read and check an audit plan (YAML or JSON)."""
    try:
        data = read_document(path, MAX_PLAN_BYTES, "audit plan")
    except ItemError as exc:
        why = "; ".join(f"{p.path}: {p.message}" if p.path else p.message for p in exc.problems)
        raise AuditPlanError(f"{path}: cannot read the audit plan: {why}") from None
    try:
        plan = AuditPlan.model_validate(data)
    except ValidationError as exc:
        raise AuditPlanError(f"{path}: invalid audit plan:\n{exc}") from None
    repeated = sorted({i for i in plan.items if plan.items.count(i) > 1})
    if repeated:
        raise AuditPlanError(f"{path}: items called twice: {', '.join(repeated)}")
    return plan
