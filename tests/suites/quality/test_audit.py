"""The audits behind `suite validate`: each catches the defect it names."""

from __future__ import annotations

from typing import Any

import pytest

from duplexbench.items._load import parse_item
from duplexbench.items._workflow import WorkflowItem
from duplexbench.suites._quality import audit
from duplexbench.suites._quality.qa import QualityReport, check_item_quality, item_problems
from support.fixtures import fixture_item


def patched(name: str, patch: Any) -> WorkflowItem:
    data = fixture_item(name).model_dump(mode="json", exclude_none=True)
    patch(data)
    return parse_item(data, name)


def test_the_fixtures_pass_every_check() -> None:
    for name in ("order-revocation", "benefits-enrollment", "airline-rebooking"):
        assert item_problems(fixture_item(name)) == [], name


def test_a_private_fact_in_the_instructions_is_a_leak() -> None:
    def leak(data: dict[str, Any]) -> None:
        data["instructions"] += " Bill it to cost center CC-410."

    problems = audit.leakage_problems(patched("order-revocation", leak))
    assert problems == [("instructions", "reveals the private fact 'cost_center' to the agent")]


def test_a_realization_that_says_a_fact_it_does_not_carry_is_a_leak() -> None:
    def leak(data: dict[str, Any]) -> None:
        data["user"]["realizations"]["open"][0] = "Hi, bill CC-410 for {item} from {supplier}."

    problems = audit.leakage_problems(patched("order-revocation", leak))
    assert ("user.realizations.open", "says the fact 'cost_center' it does not carry") in problems


def test_a_reference_that_knows_a_value_before_the_user_said_it_leaks() -> None:
    def clairvoyant(data: dict[str, Any]) -> None:
        data["reference"]["turns"][0]["say"] = "Sure. Is it for cost center CC-410? How many boxes?"

    item = patched("order-revocation", clairvoyant)
    report = QualityReport()
    check_item_quality(item, report)
    assert (
        "order-revocation",
        "reference",
        "the agent uses 'cost_center' before the user revealed it",
    ) in report.problems
    assert report.failed["no leakage"] == 1 and report.passed["oracle passes"] == 1


def test_a_gold_value_with_no_source_is_reported() -> None:
    def orphan(data: dict[str, Any]) -> None:
        data["artifacts"][0]["fields"][4]["gold"] = "CC-999"  # cost_center: the user says CC-410

    problems, _ = audit.provenance_problems(patched("order-revocation", orphan))
    assert problems == [
        ("gold", "po.cost_center: the gold value 'CC-999' is absent from every source")
    ]


def test_a_recorded_source_must_hold_the_gold() -> None:
    def wrong_source(data: dict[str, Any]) -> None:
        data["gold"]["provenance"] = {"po.quantity": "user:quantity"}  # 10, but gold is 12

    problems, kinds = audit.provenance_problems(patched("order-revocation", wrong_source))
    assert problems == [
        ("gold.provenance", "po.quantity: its source 'user:quantity' does not hold 12")
    ]
    assert "user" not in kinds


def test_a_correction_must_supersede_a_different_earlier_value() -> None:
    def same(data: dict[str, Any]) -> None:
        data["user"]["facts"][3]["value"] = 10  # quantity_v2 repeats quantity

    problems, checked = audit.correction_problems(patched("order-revocation", same))
    assert checked == 1
    assert problems == [("user.events.hold_order", "'quantity_v2' repeats the value it supersedes")]


def test_a_gated_action_without_a_reachable_approval_is_reported() -> None:
    def unreachable(data: dict[str, Any]) -> None:
        data["user"]["approvals"][0]["after"] = ["no_such_event"]

    item_data = fixture_item("order-revocation").model_dump(mode="json", exclude_none=True)
    unreachable(item_data)
    # the item format already refuses an unknown event id, so test the audit directly
    item = fixture_item("order-revocation")
    spec = item.user.approvals[0].model_copy(update={"after": ["no_such_event"]})
    user = item.user.model_copy(update={"approvals": [spec]})
    problems, gated = audit.approval_problems(item.model_copy(update={"user": user}))
    assert gated == 1
    assert problems == [("tools.place_order", "no approval of 'place_order' is reachable")]


def test_a_knowledge_field_whose_document_disagrees_is_reported() -> None:
    def disagree(data: dict[str, Any]) -> None:
        for doc in data["knowledge"]:
            doc["text"] = doc["text"].replace("412.50", "399.00").replace("412.5", "399")

    item = patched("benefits-enrollment", disagree)
    problems, checked = audit.knowledge_problems(item)
    assert checked == 1  # effective_date is `computed:` and not compared literally
    assert problems and "does not state 412.5" in problems[0][1]


@pytest.mark.parametrize("gold", ["about 5 or 6", "TBD", "the first quarter"])
def test_a_numeric_gold_without_one_single_number_is_refused(gold: str) -> None:
    def vague(data: dict[str, Any]) -> None:
        data["artifacts"][0]["fields"][2]["gold"] = gold  # quantity, numeric_tolerance

    item = patched("order-revocation", vague)
    problems, checked = audit.gradable_problems(item)
    message = f"{gold!r} is not one single number; numeric_tolerance cannot grade it"
    assert problems == [("artifacts[0].fields[2].gold", message)]
    assert checked == 5
    report = QualityReport()
    check_item_quality(item, report)
    assert report.failed["gold is gradable"] == 1
    assert ("order-revocation", "artifacts[0].fields[2].gold", message) in report.problems


@pytest.mark.parametrize("gold", [12, 12.0, "12 boxes", "twelve", "one and a half"])
def test_numeric_golds_with_one_number_are_gradable(gold: object) -> None:
    def spoken(data: dict[str, Any]) -> None:
        data["artifacts"][0]["fields"][2]["gold"] = gold

    assert audit.gradable_problems(patched("order-revocation", spoken)) == ([], 5)
