"""Value provenance: a correct value written before any source had it is unsupported."""

from __future__ import annotations

from typing import Any, cast

import pytest

from duplexbench.agents import AgentToolCall, AgentTurn, ScriptedAgent, TextAgent
from duplexbench.agents._builtin import OracleAgent
from duplexbench.agents._registry import get_agent
from duplexbench.items._suite import load_suite
from duplexbench.items._workflow import WorkflowItem
from duplexbench.scoring._episode import EpisodeScore
from duplexbench.scoring._provenance import ValueProvenance
from duplexbench.scoring._summary import build_summary
from duplexbench.scoring._unsupported import exemption
from duplexbench.suites._package import resolve_suite
from support.fixtures import fixture_item
from support.helpers import run_and_score


def T(say: str = "", *calls: tuple[str, dict[str, Any]], end: bool = False) -> AgentTurn:
    return AgentTurn(say, tuple(AgentToolCall(n, a) for n, a in calls), end)


def value(score: EpisodeScore, key: str) -> ValueProvenance:
    assert score.provenance is not None
    return next(v for v in score.provenance.values if v.key == key)


def expense(*turns: AgentTurn) -> EpisodeScore:
    _, score = run_and_score(fixture_item("form-expense-correction"), ScriptedAgent(turns))
    return score


def test_a_correct_value_written_before_the_user_says_it_is_unsupported() -> None:
    score = expense(
        T(
            "Hello! I have put down your employee ID.",
            ("update_expense", {"fields": {"employee_id": "E1042"}}),
        ),
        T("What is your employee ID?"),
    )
    employee = value(score, "expense.employee_id")
    assert employee.correct and employee.source == "none" and employee.unsupported
    assert employee.write_ms is not None
    assert score.provenance is not None and score.provenance.unsupported == 1


def test_the_same_value_written_after_the_reveal_is_supported() -> None:
    score = expense(
        T("Happy to help. What is your employee ID?"),
        T("Thanks.", ("update_expense", {"fields": {"employee_id": "E1042"}})),
    )
    employee = value(score, "expense.employee_id")
    assert employee.correct and not employee.unsupported
    assert (employee.source, employee.ref) == ("user", "employee_id")
    assert employee.source_ms is not None and employee.write_ms is not None
    assert employee.source_ms <= employee.write_ms
    assert score.provenance is not None and score.provenance.unsupported == 0


def test_a_value_the_user_said_in_other_words_is_supported() -> None:
    # The caller says "March 5th, 2026"; the agent writes another form of the same date.
    score = expense(
        T("Happy to help. What was the date of the expense?"),
        T("Noted.", ("update_expense", {"fields": {"expense_date": "03/05/2026"}})),
    )
    date = value(score, "expense.expense_date")
    assert date.correct and (date.source, date.ref) == ("user", "expense_date")


def test_rewriting_a_guess_after_the_reveal_does_not_launder_it() -> None:
    # The value sat in the field from the guess on: the guess is the write that set it.
    score = expense(
        T("Hello!", ("update_expense", {"fields": {"employee_id": "E1042"}})),
        T("What is your employee ID?"),
        T("Thanks.", ("update_expense", {"fields": {"employee_id": "E1042"}})),
    )
    assert value(score, "expense.employee_id").unsupported


def test_a_wrong_value_is_never_counted_unsupported() -> None:
    score = expense(T("Hello!", ("update_expense", {"fields": {"employee_id": "E9999"}})))
    employee = value(score, "expense.employee_id")
    assert not employee.correct and employee.source == "none" and not employee.unsupported
    assert score.provenance is not None and score.provenance.unsupported == 0


def benefits(*turns: AgentTurn) -> EpisodeScore:
    _, score = run_and_score(fixture_item("benefits-enrollment"), ScriptedAgent(turns))
    return score


def test_a_value_from_a_knowledge_document_is_supported_once_retrieved() -> None:
    search = ("search_benefits_docs", {"query": "monthly premiums PPO Silver family"})
    write = ("update_enrollment", {"fields": {"monthly_premium": 412.5}})
    before = benefits(T("Hello.", write, search))
    after = benefits(T("Hello.", search, write))
    assert value(before, "enrollment.monthly_premium").unsupported
    premium = value(after, "enrollment.monthly_premium")
    assert premium.correct and not premium.unsupported
    assert (premium.source, premium.ref) == ("knowledge", "benefit-rates-2026")


def test_a_value_derived_from_the_evidence_document_is_supported() -> None:
    # 2026-04-01 is stated nowhere: it follows from the enrollment policy (field evidence).
    search = ("search_benefits_docs", {"query": "qualifying life event coverage starts"})
    write = ("update_enrollment", {"fields": {"effective_date": "2026-04-01"}})
    score = benefits(T("Hello.", search, write))
    effective = value(score, "enrollment.effective_date")
    assert effective.correct and (effective.source, effective.ref) == (
        "knowledge",
        "enrollment-policy",
    )


def airline(agent: Any, privileged: bool = False) -> EpisodeScore:
    _, score = run_and_score(fixture_item("airline-rebooking"), agent, privileged=privileged)
    return score


def test_database_mode_values_come_from_records_and_the_user() -> None:
    score = airline(OracleAgent(), privileged=True)
    assert score.ws == 1 and score.provenance is not None
    sources = {v.key: (v.source, v.ref) for v in score.provenance.values}
    assert sources == {
        "reservations.R7QX2L.flight": ("user", "new_flight"),
        "reservations.R7QX2L.date": ("database", "flights/DB124"),
        "reservations.R7QX2L.bags": ("user", "bags"),
    }
    assert score.provenance.correct == 3 and score.provenance.unsupported == 0


def test_database_mode_values_written_before_any_source_are_unsupported() -> None:
    change = {"id": "R7QX2L", "fields": {"flight": "DB124", "date": "2026-05-03", "bags": 2}}
    agent = ScriptedAgent(
        [
            T("Shall I change the reservation?"),
            T("Done. Goodbye!", ("change_reservation", change), end=True),
        ]
    )
    score = airline(agent)
    assert score.provenance is not None
    assert score.provenance.correct == 3 and score.provenance.unsupported == 3


def test_the_oracle_writes_looked_up_values_before_it_searches() -> None:
    # Why it is exempt: its reference writes lookup values in the turn that searches.
    item = _mini()["procurement-01"]
    _, score = run_and_score(item, OracleAgent(), privileged=True)
    assert score.provenance is not None and score.provenance.unsupported > 0
    assert value(score, "purchase.shipping_charge").unsupported


def test_the_rules_every_item_shares_are_no_source_of_a_value() -> None:
    # "Ask for one missing piece of information at a time" does not state a count of 1
    item = load_suite(resolve_suite("workflows-v2"), ids=["record-preparation-06"]).items[0]
    spec = item.artifacts[0].field("witness_count")
    assert spec is not None and spec.gold == 1
    guess = ScriptedAgent([T("Hello.", ("update_casefile", {"fields": {"witness_count": 1}}))])
    _, score = run_and_score(item, guess)
    assert value(score, "casefile.witness_count").unsupported


def _mini() -> dict[str, WorkflowItem]:
    return {i.id: i for i in load_suite(resolve_suite("workflows-mini")).items}


@pytest.mark.parametrize(
    "item_id", ["procurement-01", "corporate-negotiation-01", "planning-01", "inspection-01"]
)
def test_the_reference_agent_has_no_unsupported_value(item_id: str) -> None:
    info, spec = get_agent("reference")
    agent = cast(TextAgent, info.create(spec, "text"))  # the text channel makes a TextAgent
    _, score = run_and_score(_mini()[item_id], agent)
    assert score.provenance is not None
    assert score.provenance.correct >= 10
    assert score.provenance.unsupported == 0, [v for v in score.provenance.values if v.unsupported]


def _summary(scores: list[EpisodeScore], exempt: str | None) -> dict[str, Any]:
    return build_summary(
        scores,
        suite="fixtures",
        agent="x",
        condition="text",
        repeats=1,
        seed=0,
        judge=None,
        provenance_exempt=exempt,
    )


def test_the_summary_reports_the_rate_beside_afa_and_the_oracle_is_exempt() -> None:
    guess = expense(T("Hi.", ("update_expense", {"fields": {"employee_id": "E1042"}})))
    block = _summary([guess], None)["workflows"]["unsupported_values"]
    assert block["unsupported"] == 1 and block["correct"] == 1
    assert block["rate"] == 1.0 and block["ci95"] == [1.0, 1.0] and block["exempt"] is None
    exempt = _summary([guess], "oracle")["workflows"]["unsupported_values"]
    assert exempt["rate"] is None and exempt["label"] == "exempt (oracle)"
    assert exempt["unsupported"] == 1  # the counts are still shown


def test_exemption_names_the_oracle_and_privileged_agents() -> None:
    assert exemption("oracle", None) == "oracle"
    assert exemption("oracle?x=1", False) == "oracle"
    assert exemption("my-plugin", True) == "privileged"
    assert exemption("reference", False) is None
    assert exemption("reference", None) is None
