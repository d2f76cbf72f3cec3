"""The rule-based act observer, from the item's field names and aliases."""

from __future__ import annotations

import pytest

from duplexbench.items._load import parse_item
from duplexbench.users._observer import ActObserver
from support.fixtures import fixture_item


@pytest.fixture(scope="module")
def observer() -> ActObserver:
    return ActObserver(fixture_item("form-expense-correction"))


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        ("What is your employee ID?", ["ASK:employee_id"]),
        ("Thanks. What was the date of the expense?", ["ASK:expense_date"]),
        ("Which cost center should I charge?", ["ASK:cost_center"]),
        ("Could you tell me the total amount", ["ASK:total_amount"]),
        ("Just to confirm, the total amount is 200 dollars?", ["CONFIRM:total_amount"]),
        ("Shall I submit the expense report now?", ["REQUEST_APPROVAL:submit_expense"]),
        ("Do you approve?", ["REQUEST_APPROVAL:submit_expense"]),
        (
            "Let me read it back: employee ID E1042, cost center CC-330, total 200.",
            ["READBACK"],
        ),
        ("All done. Goodbye!", ["CLOSE"]),
        ("I have recorded that.", ["OTHER"]),
        ("", []),
        (
            "What is your employee ID and the cost center?",
            ["ASK:employee_id", "ASK:cost_center"],
        ),
    ],
)
def test_acts(observer: ActObserver, text: str, acts: list[str]) -> None:
    assert observer.acts(text) == acts


def test_superseded_versions_share_the_slot() -> None:
    obs = ActObserver(fixture_item("form-expense-correction"))
    assert obs.acts("What's the total?") == ["ASK:total_amount"]


def test_statement_mentioning_a_field_is_not_a_question(observer: ActObserver) -> None:
    assert observer.acts("I noted the cost center.") == ["OTHER"]


def test_a_name_inside_a_longer_name_does_not_take_its_value() -> None:
    """Regression: with slots "contact" and "contact phone", "the contact phone is
    555-234-5678" used to state a value for "contact" too ("phone is 555-...")."""
    data = fixture_item("order-revocation").model_dump(mode="json", exclude_none=True)
    data["user"]["facts"] += [
        {"id": "contact", "value": "Ana Lima"},
        {"id": "contact_phone", "value": "555-234-5678"},
    ]
    observer = ActObserver(parse_item(data, "contacts"))
    stated = observer.stated_after("the contact phone is 555-234-5678; the contact is Ana Lima.")
    assert stated == {"contact_phone": "555-234-5678", "contact": "Ana Lima"}
    assert observer.stated_after("The contact phone is 555-234-5678.") == {
        "contact_phone": "555-234-5678"
    }


def test_a_name_inside_a_longer_phrase_states_no_value() -> None:
    """Bug: "According to the support level fees, ..." (a document's title) stated the
    support level as "fees", and the caller corrected a level the agent never gave
    (generate_suite(seed=7) could not finish customer-service-04)."""
    data = fixture_item("order-revocation").model_dump(mode="json", exclude_none=True)
    data["user"]["facts"] += [
        {"id": "support_level", "value": "Premium"},
        {"id": "invoice_number", "value": "E1042"},
    ]
    observer = ActObserver(parse_item(data, "levels"))
    fees = "According to the support level fees, the monthly fee comes to 40 dollars."
    assert "support_level" not in observer.stated_after(fees)
    assert observer.stated_after("the support level is basic.") == {"support_level": "basic"}
    assert observer.stated_after("Support level: basic.") == {"support_level": "basic"}
    listed = observer.stated_after("So: support level Premium, invoice number E1042.")
    assert listed == {"support_level": "Premium", "invoice_number": "E1042"}
