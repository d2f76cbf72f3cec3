"""Tool execution: validation, structured errors, lifecycle, knowledge, replay."""

from __future__ import annotations

from typing import Any

import pytest

from duplexbench.items._workflow import WorkflowItem
from duplexbench.trace._events import FieldSet, KnowledgeSearch, ToolResult
from duplexbench.trace._io import Recorder
from duplexbench.workbench._runtime import MAX_LIST, MAX_TEXT, Workbench, size_problem
from duplexbench.workbench._state import replay
from support.fixtures import fixture_item


def bench(name: str) -> tuple[WorkflowItem, Workbench]:
    item = fixture_item(name)
    return item, Workbench(item, Recorder())


def call(wb: Workbench, name: str, args: Any, t: int = 1000) -> dict[str, Any]:
    return wb.execute(f"c{len(wb.recorder.events)}", name, args, t).for_agent()


@pytest.mark.parametrize(
    ("name", "args", "code"),
    [
        ("launch_rocket", {}, "unknown_tool"),
        ("update_expense", {"fields": {"colour": "red"}}, "unknown_field"),
        ("update_expense", {"fields": {}}, "invalid_arguments"),
        ("update_expense", "not an object", "invalid_arguments"),
        ("update_expense", {"fields": {"employee_id": 5}}, "invalid_arguments"),
        ("mark_expense_ready", {}, "lifecycle"),
    ],
)
def test_bad_calls_return_structured_errors(name: str, args: Any, code: str) -> None:
    _, wb = bench("form-expense-correction")
    out = call(wb, name, args)
    assert out["ok"] is False
    assert out["error"]["code"] == code
    assert out["error"]["message"]
    logged = [e for e in wb.recorder.events if isinstance(e, ToolResult)]
    assert logged[-1].data.error_code == code


def test_values_over_the_size_limits_are_refused_and_the_episode_goes_on() -> None:
    """A model stuck in a repetition loop writes a 12 kB field: refused, naming the limit
    (before, nothing capped a value and grading it was cubic in its length)."""
    _, wb = bench("form-expense-correction")
    looped = " and ".join(["yes"] * 3000)
    out = call(wb, "update_expense", {"fields": {"employee_id": looped}})
    assert out["error"]["code"] == "too_large"
    assert "fields/employee_id" in out["error"]["message"] and "4096" in out["error"]["message"]
    many = {"fields": {"employee_id": "E-1", "notes": ["x"] * (MAX_LIST + 1)}}
    assert size_problem({"query": "q" * (MAX_TEXT + 1)}) == (
        f"arguments/query: {MAX_TEXT + 1} characters; the limit is {MAX_TEXT}"
    )
    assert size_problem(many) == f"arguments/fields/notes: 257 elements; the limit is {MAX_LIST}"
    assert size_problem({"fields": {"k" * (MAX_TEXT + 1): 1}}) is not None  # keys too
    assert size_problem({"fields": {"a": "x" * MAX_TEXT, "b": ["y"] * MAX_LIST}}) is None
    assert not any(isinstance(e, FieldSet) for e in wb.recorder.events)
    assert call(wb, "update_expense", {"fields": {"employee_id": "E-1"}})["ok"] is True


def test_lifecycle_rules() -> None:
    _, wb = bench("form-expense-correction")
    assert call(wb, "update_expense", {"fields": {"employee_id": "E1042"}})["ok"]
    assert wb.state.artifacts["expense"].lifecycle == "draft"
    missing = call(wb, "mark_expense_ready", {})
    assert missing["error"]["code"] == "missing_fields"
    assert "total_amount" in missing["error"]["message"]
    fields = {
        "trip_purpose": "client onsite",
        "expense_date": "2026-03-05",
        "total_amount": 200,
        "cost_center": "CC-330",
    }
    call(wb, "update_expense", {"fields": fields})
    assert call(wb, "mark_expense_ready", {})["ok"]
    assert wb.state.artifacts["expense"].lifecycle == "ready"
    call(wb, "update_expense", {"fields": {"total_amount": 210}})
    assert wb.state.artifacts["expense"].lifecycle == "draft"  # an edit reopens review


def test_commit_needs_ready_even_with_approval() -> None:
    item, wb = bench("form-expense-correction")
    call(wb, "update_expense", {"fields": {"employee_id": "E1042"}})
    wb.grant(item.user.approvals[0], 500)
    out = call(wb, "submit_expense", {})
    assert out["error"]["code"] == "lifecycle"
    assert not wb.auth.tokens[0].used  # the approval is not spent by a failed commit


def test_committed_artifact_is_frozen() -> None:
    _, wb2 = bench("form-expense-correction")
    fields = {
        "employee_id": "E1042",
        "trip_purpose": "x",
        "expense_date": "2026-03-05",
        "total_amount": 1,
        "cost_center": "CC",
    }
    call(wb2, "update_expense", {"fields": fields})
    call(wb2, "mark_expense_ready", {})
    wb2.grant(fixture_item("form-expense-correction").user.approvals[0], 0)
    assert call(wb2, "submit_expense", {})["ok"]
    assert wb2.state.artifacts["expense"].lifecycle == "committed"
    assert call(wb2, "update_expense", {"fields": {"total_amount": 5}})["error"]["code"] == (
        "lifecycle"
    )


def test_field_writes_record_old_new_and_fact_version() -> None:
    _, wb = bench("form-expense-correction")
    call(wb, "update_expense", {"fields": {"total_amount": "240 dollars"}})
    call(wb, "update_expense", {"fields": {"total_amount": 200.0}})
    call(wb, "update_expense", {"fields": {"total_amount": 999}})
    writes = [e.data for e in wb.recorder.events if isinstance(e, FieldSet)]
    assert [(w.old, w.new, w.fact_version) for w in writes] == [
        (None, "240 dollars", "total_amount"),
        ("240 dollars", 200.0, "total_amount_v2"),
        (200.0, 999, None),
    ]


def test_database_read_write_and_unknown_record() -> None:
    item, wb = bench("airline-rebooking")
    assert call(wb, "get_reservation", {"id": "R7QX2L"})["result"]["record"]["flight"] == "DB120"
    assert call(wb, "get_reservation", {"id": "NOPE"})["error"]["code"] == "unknown_record"
    out = call(wb, "change_reservation", {"id": "R7QX2L", "fields": {"cabin": "first"}})
    assert out["error"]["code"] == "unknown_field"  # not a writable field
    wb.grant(item.user.approvals[0], 0)
    out = call(wb, "change_reservation", {"id": "R7QX2L", "fields": {"bags": 2}})
    assert out["ok"] and out["result"]["record"]["bags"] == 2
    assert wb.state.database["reservations"]["R7QX2L"]["bags"] == 2


def test_knowledge_search_is_ranked_and_logged() -> None:
    _, wb = bench("benefits-enrollment")
    out = call(wb, "search_benefits_docs", {"query": "PPO Silver family monthly premium"})
    ids = [r["id"] for r in out["result"]["results"]]
    assert ids[0] == "benefit-rates-2026"
    logged = [e for e in wb.recorder.events if isinstance(e, KnowledgeSearch)]
    assert logged[-1].data.documents == ids
    again = call(wb, "search_benefits_docs", {"query": "PPO Silver family monthly premium"})
    assert again["result"] == out["result"]
    none = call(wb, "search_benefits_docs", {"query": "zebra"})
    assert none["result"]["results"] == []


def test_replay_rebuilds_the_final_state() -> None:
    item, wb = bench("airline-rebooking")
    wb.grant(item.user.approvals[0], 0)
    call(wb, "change_reservation", {"id": "R7QX2L", "fields": {"flight": "DB124", "bags": 3}})
    call(wb, "change_reservation", {"id": "R7QX2L", "fields": {"bags": 2}})  # blocked: used
    rebuilt = replay(item, wb.recorder.events)
    assert rebuilt == wb.state
    assert rebuilt.database["reservations"]["R7QX2L"]["bags"] == 3
