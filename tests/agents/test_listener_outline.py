"""The listener's outline: the reference with every caller value replaced by its source."""

from __future__ import annotations

from typing import Any

import pytest

from duplexbench.agents import AgentError, AgentSession
from duplexbench.agents._listener.brain import ListenerBrain
from duplexbench.agents._listener.outline import Outline, Source
from duplexbench.agents._listener.outline_build import build_outline, same_value
from duplexbench.items import WorkflowItem, load_suite
from duplexbench.orchestrator import EpisodeSetup, TextEpisode
from duplexbench.suites import resolve_suite
from duplexbench.users import ActObserver
from support.fixtures import FIXTURES, fixture_item

MINI = load_suite(resolve_suite("workflows-mini")).items
FIXTURE_ITEMS = load_suite(FIXTURES).items


def outline_of(item: WorkflowItem) -> Outline:
    return build_outline(item, ActObserver(item).acts)


def mini(item_id: str) -> WorkflowItem:
    return next(i for i in MINI if i.id == item_id)


def _values(item: WorkflowItem) -> list[str]:
    """Every caller value long enough to be told apart, as text, but those that are
    part of an identifier the outline names (the value "birth", the slot
    "date_of_birth")."""
    names = [f.id for f in item.user.facts] + [e.id for e in item.user.events]
    names += [t.name for t in item.tools] + [d.id for d in item.knowledge]
    names += [f.name for a in item.artifacts for f in a.fields] + [a.id for a in item.artifacts]
    named = " ".join(names).casefold()
    out = []
    for fact in item.user.facts:
        for form in (fact.value, fact.say):
            if isinstance(form, str) and len(form) >= 4 and form.casefold() not in named:
                out.append(form)
    return out


@pytest.mark.parametrize("item", [*FIXTURE_ITEMS, *MINI], ids=lambda i: i.id)
def test_an_outline_holds_no_caller_value(item: WorkflowItem) -> None:
    outline = outline_of(item)
    text = f"{outline!r}\n{outline.describe()}"
    for value in _values(item):
        assert value not in text, f"{item.id}: the outline holds {value!r}"
    for turn in outline.turns:
        for call in turn.calls:
            for arg in call.args:
                if arg.source.kind != "literal":
                    assert arg.source.literal is None
                else:  # a constant kept: never a caller fact's value
                    assert not any(same_value(f.value, arg.source.literal) for f in item.user.facts)


def test_the_outline_of_a_form_names_each_source() -> None:
    outline = outline_of(mini("form-completion-01"))
    turns = outline.turns
    assert turns[0].expect is None and turns[0].acts == ("ASK:reference_number",)
    read, write = turns[1].calls
    assert read.kind == "database_read" and str(read.args[0].source) == "fact:reference_number"
    assert {str(a.source) for a in write.args} == {
        "record:onboarding_records.contact_email",
        "record:onboarding_records.employee_count",
        "record:onboarding_records.services_offered",
    }
    fix = turns[8]
    assert fix.expect == "event:fix_currency"
    assert str(fix.calls[0].args[0].source) == "fact:currency_v2"
    sources = {str(a.source) for c in turns[10].calls for a in c.args}
    assert "knowledge:onboarding-fee-table" in sources
    assert "search:onboarding-fee-table" in sources
    assert turns[10].acts == ("CONFIRM:currency",)
    assert turns[-1].acts == ("CLOSE",) and turns[-1].end_call
    assert outline.events["fix_currency"].reveals == ("currency_v2",)
    assert outline.facts["currency_v2"].slot == "currency"
    assert outline.unfollowable() == []


def test_a_database_item_reads_back_the_approval_slots() -> None:
    outline = outline_of(mini("customer-service-01"))
    (approval,) = outline.approvals
    assert approval.readback == ("service_plan", "billing_region", "support_level")
    assert approval.names[0] == "update the account"
    readback = next(t for t in outline.turns if "READBACK" in t.acts)
    assert set(readback.stated) >= set(approval.readback)
    commit = outline.turns[-1]
    assert commit.expect == "approve:approve"
    (write,) = commit.calls
    by_name = {a.name: str(a.source) for a in write.args}
    assert by_name["id"] == "fact:account_number"
    assert by_name["fields.monthly_fee"] == "knowledge:monthly-fee-table"


def test_a_value_in_another_form_is_still_the_callers() -> None:
    """ "42 Birch St Apt 5" written for "42 Birch Street, Apartment 5": the fact's field."""
    outline = outline_of(fixture_item("benefits-enrollment"))
    sources = {a.name: a.source for t in outline.turns for c in t.calls for a in c.args}
    assert sources["fields.home_address"] == Source("fact", "home_address")


def _composed(item: WorkflowItem) -> WorkflowItem:
    """The item with a reference write of text holding a caller value."""
    data: dict[str, Any] = item.model_dump(mode="json")
    note = {"id": "R7QX2L", "fields": {"flight": "the DB124 flight"}}
    data["reference"]["turns"][1]["tool_calls"].append(
        {"name": "change_reservation", "arguments": note}
    )
    data["reference"]["turns"][2]["tool_calls"].append({"name": "fax_it", "arguments": {}})
    return WorkflowItem.model_validate(data)


def test_a_step_it_cannot_follow_ends_the_run_naming_it() -> None:
    item = _composed(fixture_item("airline-rebooking"))
    problems = outline_of(item).unfollowable()
    assert problems == [
        "turn 1: change_reservation.fields.flight: source composed",
        "turn 2: fax_it[unknown](): unknown tool kind",
    ]
    setup = EpisodeSetup(item, "x", "tests", "listener")
    record = TextEpisode(setup, ListenerBrain(), privileged=True).run()
    assert record.end_reason == "error" and record.error_kind == "agent"
    assert record.error is not None
    assert "turn 1: change_reservation.fields.flight: source composed" in record.error
    assert "(and 1 more)" in record.error


def test_without_an_outline_it_is_an_agent_error() -> None:
    with pytest.raises(AgentError, match="outline"):
        ListenerBrain().start(AgentSession("x", (), "i", 0))
