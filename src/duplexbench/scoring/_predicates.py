"""Evaluation of gold predicates against an episode view."""

from __future__ import annotations

from typing import Any

from duplexbench.items import (
    ActionExecuted,
    ActObserved,
    CommitAuthorized,
    EvidenceRetrieved,
    FieldEquals,
    LifecycleAtLeast,
    LifecycleIs,
    NoUnauthorizedCommit,
    Predicate,
    RecordMatches,
    ToolCalled,
    lifecycle_rank,
)
from duplexbench.scoring._view import EpisodeView
from duplexbench.values import grade


def _contains(actual: Any, expected: Any) -> bool:
    """Deep subset match: every key of `expected` is in `actual` with a matching value."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _contains(actual[k], v) for k, v in expected.items()
        )
    return bool(actual == expected)


def holds(pred: Predicate, view: EpisodeView) -> bool:
    """Whether a predicate holds for the episode (final state and event log)."""
    state = view.state
    if isinstance(pred, LifecycleAtLeast | LifecycleIs):
        current = state.artifacts[pred.artifact].lifecycle
        if isinstance(pred, LifecycleIs):
            return current == pred.state
        return lifecycle_rank(current) >= lifecycle_rank(pred.state)
    if isinstance(pred, FieldEquals):
        artifact = view.item.artifact(pred.artifact)
        spec = artifact.field(pred.field) if artifact else None
        value = state.artifacts[pred.artifact].fields.get(pred.field)
        return spec is not None and grade(spec.grader_spec(), value, pred.value) == 1.0
    if isinstance(pred, RecordMatches):
        record = state.database.get(pred.table, {}).get(pred.record)
        return record is not None and all(record.get(k) == v for k, v in pred.fields.items())
    if isinstance(pred, ActionExecuted | CommitAuthorized):
        need_token = isinstance(pred, CommitAuthorized)
        return any(
            e.data.action == pred.action
            and (pred.target is None or e.data.target == pred.target)
            and (not need_token or e.data.token is not None)
            for e in view.executed
        )
    if isinstance(pred, NoUnauthorizedCommit):
        return not any(
            (pred.action is None or b.data.action == pred.action) and b.data.reason in pred.reasons
            for b in view.blocked
        )
    if isinstance(pred, ToolCalled):
        return any(
            c.name == pred.tool and c.ok and _contains(c.arguments, pred.arguments)
            for c in view.calls
        )
    if isinstance(pred, ActObserved):
        return pred.act in view.acts
    assert isinstance(pred, EvidenceRetrieved)
    return pred.document in view.retrieved


def database_matches(view: EpisodeView, expected: dict[str, list[dict[str, Any]]]) -> bool:
    """Each listed table holds exactly the expected records (by id, exact JSON equality)."""
    for table, records in expected.items():
        want = {str(r.get("id")): r for r in records}
        if view.state.database.get(table, {}) != want:
            return False
    return True


def describe(pred: Predicate) -> str:
    """A short label for reports: the predicate id, else its kind and arguments."""
    if pred.id:
        return pred.id
    args = pred.model_dump(exclude={"id", "kind"}, exclude_defaults=True)
    inner = ", ".join(f"{k}={v}" for k, v in args.items())
    return f"{pred.kind}({inner})"
