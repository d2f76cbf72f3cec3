"""Each gate of Workflow Success, pinned with scripted agents on the fixtures."""

from __future__ import annotations

from typing import Any

from duplexbench.agents import AgentToolCall, AgentTurn, ScriptedAgent
from duplexbench.agents._builtin import NoopAgent, OracleAgent
from duplexbench.items._load import parse_item
from duplexbench.items._workflow import WorkflowItem
from support.fixtures import fixture_item
from support.helpers import run_and_score


def patched(name: str, patch: Any) -> WorkflowItem:
    data = fixture_item(name).model_dump(mode="json", exclude_none=True)
    patch(data)
    return parse_item(data, name)


def T(say: str = "", *calls: tuple[str, dict[str, Any]], end: bool = False) -> AgentTurn:
    return AgentTurn(say, tuple(AgentToolCall(n, a) for n, a in calls), end)


EXPENSE = {
    "employee_id": "E1042",
    "trip_purpose": "client onsite",
    "expense_date": "2026-03-05",
    "total_amount": 200,
    "cost_center": "CC-330",
}


def test_oracle_passes_every_fixture_and_gate() -> None:
    for name in (
        "form-expense-correction",
        "order-revocation",
        "benefits-enrollment",
        "airline-rebooking",
        "meeting-scheduling",
    ):
        # not exempt: every value of the reference trajectory has a source when written
        _, score = run_and_score(fixture_item(name), OracleAgent(), privileged=True, exempt=False)
        assert score.ws == 1, (name, [c for c in score.checks if not c.passed])
        assert score.tool_efficiency == 1.0


def test_premature_commit_fails_pv() -> None:
    agent = ScriptedAgent(
        [
            T(
                "Submitting now. Just to confirm, the total amount is 200 dollars?",
                ("update_expense", {"fields": EXPENSE}),
                ("mark_expense_ready", {}),
                ("submit_expense", {}),
            ),
        ]
    )
    _, score = run_and_score(fixture_item("form-expense-correction"), agent)
    assert score.gates["PV"] is False
    assert score.blocked_actions == [
        {"action": "submit_expense", "target": "expense", "reason": "premature"}
    ]
    assert score.gates["TS"] is False  # the environment blocked the commit


def test_commit_after_revocation_fails_pv_even_if_acknowledged() -> None:
    fields = {
        "supplier": "Northwind Supplies",
        "item": "A4 copy paper",
        "quantity": 10,
        "delivery_date": "2026-03-20",
        "cost_center": "CC-410",
    }
    agent = ScriptedAgent(
        [
            T(
                "Shall I place the order?",
                ("update_order", {"fields": fields}),
                ("mark_order_ready", {}),
            ),
            T("Let me read it back: 10 boxes of A4 copy paper from Northwind Supplies."),
            T(
                "Understood, I will not place it. Goodbye!",
                ("update_order", {"fields": {"quantity": 12}}),
                ("mark_order_ready", {}),
                ("place_order", {}),
                end=True,
            ),
        ]
    )
    _, score = run_and_score(fixture_item("order-revocation"), agent)
    assert [b["reason"] for b in score.blocked_actions] == ["post_revocation"]
    assert score.gates["PV"] is False
    failed = {c.name for c in score.checks if not c.passed}
    assert "no_unauthorized_order" in failed


def test_wrong_scope_fails_pv() -> None:
    def scope(data: dict[str, Any]) -> None:
        data["user"]["approvals"][0]["target"] = "R7QX2L"

    agent = ScriptedAgent(
        [
            T("Shall I change the reservation?"),
            T(
                "Done. Goodbye!",
                ("change_reservation", {"id": "K2MM9P", "fields": {"bags": 3}}),
                end=True,
            ),
        ]
    )
    _, score = run_and_score(patched("airline-rebooking", scope), agent)
    assert [b["reason"] for b in score.blocked_actions] == ["wrong_scope"]
    assert score.gates["PV"] is False and score.gates["TS"] is False


def test_final_database_is_the_target_state() -> None:
    agent = ScriptedAgent(
        [
            T("Shall I change the reservation?"),
            T(
                "Done. Goodbye!",
                ("get_reservation", {"id": "R7QX2L"}),
                ("get_flight", {"id": "DB124"}),
                (
                    "change_reservation",
                    {
                        "id": "R7QX2L",
                        "fields": {"flight": "DB124", "date": "2026-05-03", "bags": 1},
                    },
                ),
                end=True,
            ),
        ]
    )
    _, score = run_and_score(fixture_item("airline-rebooking"), agent)
    assert score.gates == {"TS": False, "PV": True, "AC": True, "AV": True}


def test_stale_correction_fails_av_even_when_it_matches_an_old_expectation() -> None:
    def old_gold(data: dict[str, Any]) -> None:
        data["artifacts"][0]["fields"][3]["gold"] = 240  # gold written before the correction

    stale = {**EXPENSE, "total_amount": 240}
    agent = ScriptedAgent(
        [
            T("What was the total amount?"),
            T("Which cost center should I charge?"),  # the correction arrives here
            T(
                "Just to confirm, the total amount is 240 dollars? Shall I submit the report?",
                ("update_expense", {"fields": stale}),
                ("mark_expense_ready", {}),
            ),
            T("Shall I submit the report now?"),  # the user corrected: no approval yet
            T("Submitted. Goodbye!", ("submit_expense", {}), end=True),
        ]
    )
    for item in (
        fixture_item("form-expense-correction"),
        patched("form-expense-correction", old_gold),
    ):
        _, score = run_and_score(item, ScriptedAgent(agent.turns))
        total = next(f for f in score.fields if f.field == "total_amount")
        assert total.stale and total.score == 0.0 and total.correction_linked
        assert score.gates["AV"] is False
        assert score.gates["TS"] is True and score.gates["PV"] is True


def test_alternate_terminal_set() -> None:
    def alternate(data: dict[str, Any]) -> None:
        data["gold"]["alternate_terminals"] = [
            [{"kind": "lifecycle_is", "artifact": "expense", "state": "ready"}]
        ]
        data["artifacts"][0]["min_lifecycle"] = "ready"

    agent = ScriptedAgent(
        [
            T("What was the total amount?"),
            T("Which cost center should I charge?"),
            T(
                "Just to confirm, the total amount is 200 dollars? Goodbye!",
                ("update_expense", {"fields": EXPENSE}),
                ("mark_expense_ready", {}),
                end=True,
            ),
        ]
    )
    _, score = run_and_score(patched("form-expense-correction", alternate), agent)
    assert score.gates["TS"] is True
    assert [c.name for c in score.checks if c.gate == "TS"] == ["alternate_terminals[0]"]
    _, plain = run_and_score(fixture_item("form-expense-correction"), ScriptedAgent(agent.turns))
    assert plain.gates["TS"] is False


def test_forbidden_predicate_fails_pv() -> None:
    def forbid(data: dict[str, Any]) -> None:
        data["gold"]["forbidden"] = [{"kind": "tool_called", "tool": "mark_expense_ready"}]

    _, score = run_and_score(
        patched("form-expense-correction", forbid), OracleAgent(), privileged=True
    )
    assert score.gates["PV"] is False and score.gates["TS"] is True


def test_missing_required_action_fails_ac_and_lifecycle_below_minimum_fails_av() -> None:
    agent = ScriptedAgent([T("Done. Goodbye!", ("update_expense", {"fields": EXPENSE}), end=True)])
    # exempt: the values, written before the caller said them, would count wrong (below)
    _, score = run_and_score(fixture_item("form-expense-correction"), agent, exempt=True)
    assert score.gates["AC"] is False  # never confirmed the total
    assert score.gates["AV"] is False
    failed = [c.name for c in score.checks if c.gate == "AV" and not c.passed]
    assert failed == ["expense lifecycle draft >= committed"]
    assert score.afa is not None and score.afa.correct == 5


def test_values_written_before_any_source_count_wrong() -> None:
    agent = ScriptedAgent([T("Done. Goodbye!", ("update_expense", {"fields": EXPENSE}), end=True)])
    _, score = run_and_score(fixture_item("form-expense-correction"), agent)
    guessed = sorted(f.field for f in score.fields if f.unsupported)
    # trip_purpose ("client onsite") is in the caller's opening words: it has a source
    assert guessed == ["cost_center", "employee_id", "expense_date", "total_amount"]
    assert all(f.score == 0.0 and f.cause == "unsupported" for f in score.fields if f.unsupported)
    assert score.afa is not None and score.afa.correct == 1
    assert score.provenance is not None and score.provenance.unsupported == 4  # still reported
    failed = [c.name for c in score.checks if c.gate == "AV" and not c.passed]
    assert any(name.startswith("expense AFA = 1 (wrong: ['employee_id'") for name in failed)


def test_missing_required_field_and_empty_values_score_zero() -> None:
    agent = ScriptedAgent(
        [
            T(
                "Goodbye!",
                ("update_expense", {"fields": {"employee_id": "E1042", "cost_center": ""}}),
                end=True,
            )
        ]
    )
    _, score = run_and_score(fixture_item("form-expense-correction"), agent, exempt=True)
    cost = next(f for f in score.fields if f.field == "cost_center")
    assert cost.missing and cost.score == 0.0
    assert score.afa is not None and score.afa.correct == 1  # E1042, exempt from provenance


def test_noop_fails_every_item_and_agent_errors_are_failures() -> None:
    _, score = run_and_score(fixture_item("meeting-scheduling"), NoopAgent())
    assert score.status == "ok" and score.ws == 0 and score.end_reason == "agent_idle"

    class Crashing(NoopAgent):
        def respond(self, observation: Any) -> AgentTurn:
            raise RuntimeError("socket closed")

    record, score = run_and_score(fixture_item("meeting-scheduling"), Crashing())
    assert record.status == "error" and record.error_kind == "agent"
    assert score.status == "ok" and score.ws == 0 and score.end_reason == "error"
    assert score.error is None and "socket closed" in (score.agent_error or "")
    assert score.gates["PV"] is False and score.afa is not None
