"""Audit plans: read like item files, every defect named before any page opens."""

from __future__ import annotations

from pathlib import Path

import pytest

from duplexbench.call import AuditPlan, AuditPlanError, load_audit_plan


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "audit.yaml"
    path.write_text(text)
    return path


def test_a_plan_lists_the_calls_in_order(tmp_path: Path) -> None:
    plan = load_audit_plan(write(tmp_path, "suite: s\nagent: reference\nitems: [b, a]\nseed: 3\n"))
    assert plan == AuditPlan(suite="s", agent="reference", items=["b", "a"], seed=3)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("suite: s\nagent: a\nitems: []\n", "items"),
        ("suite: s\nagent: a\nitems: [x]\nrepeat: 2\n", "repeat"),
        ("suite: s\nitems: [x]\n", "agent"),
        ("suite: s\nagent: a\nitems: [x, y, x]\n", "items called twice: x"),
        ("suite: s\nagent: a\nitems: [x]\nsuite: t\n", "cannot read"),
        ("- just\n- a list\n", "invalid audit plan"),
    ],
)
def test_a_bad_plan_names_its_file_and_its_defect(tmp_path: Path, text: str, error: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(AuditPlanError, match=error) as caught:
        load_audit_plan(path)
    assert str(path) in str(caught.value)


def test_an_oversized_plan_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "suite: s\nagent: a\nitems: [x]\n# " + "y" * 70_000 + "\n")
    with pytest.raises(AuditPlanError, match="cannot read"):
        load_audit_plan(path)
