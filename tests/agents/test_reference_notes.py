"""The reference agent (version 4) takes notes like a person: each class of caller line
that version 3 wrote wrongly in the text half of `make demo` (issue 36), through the
dialogue's public turns."""

from __future__ import annotations

from typing import Any

import pytest

from duplexbench.agents._protocol import (
    AgentError,
    AgentInput,
    AgentSession,
    ToolResultMessage,
    ToolSpec,
)
from duplexbench.agents._reference import ReferenceDialogue
from duplexbench.agents._reference.records import record_id


def _update(name: str, schema: dict[str, Any]) -> ToolSpec:
    fields = {"type": "object", "properties": {name: schema}}
    return ToolSpec("update_form", "Write fields.", {"properties": {"fields": fields}})


def written(name: str, schema: dict[str, Any], line: str) -> Any:
    """The value the agent writes for its one field after the caller's `line`."""
    dm = ReferenceDialogue()
    dm.start(AgentSession("Fill in the form.", (_update(name, schema),), "i", 0))
    first = dm.respond(AgentInput(0, user_text="Hello."))
    assert name.replace("_", " ") in first.say.lower()
    turn = dm.respond(AgentInput(1000, user_text=line))
    values = [c.arguments["fields"][name] for c in turn.tool_calls if c.name == "update_form"]
    return values[-1] if values else None


STRING = {"type": "string"}


@pytest.mark.parametrize(
    ("name", "schema", "line", "value"),
    [
        # a date said with fillers
        (
            "review_deadline",
            {"type": "string", "description": "Last day of the review"},
            "Let me check... one moment... March 17th, 2026.",
            "2026-03-17",
        ),
        # side speech is never a value
        (
            "access_level",
            {"type": "string", "description": "Kind of badge the visitor gets"},
            "Hold on, I'm on the phone, honey. Sorry, right, visitor badge.",
            "visitor badge",
        ),
        # spoken emails become written ones
        (
            "client_email",
            {"type": "string", "description": "Email address of the client"},
            "S dot raman at example dot com.",
            "s.raman@example.com",
        ),
        (
            "client_email",
            {"type": "string", "description": "Email address of the client"},
            "Hold on, I'm on the phone, honey. Sorry, um, g dot adeyemi at example dot com.",
            "g.adeyemi@example.com",
        ),
        # numbers keep their scale
        (
            "spend_limit",
            {"type": "number", "description": "Most the buyer may spend, in dollars"},
            "Sixteen thousand six hundred and one dollars.",
            16601,
        ),
        # its own question is never echoed into a value
        (
            "owner_name",
            {"type": "string", "description": "Name of the owner"},
            "What is the owner name for? Well, Rahul Achterberg.",
            "Rahul Achterberg",
        ),
        # a code after a question about it
        (
            "engagement_code",
            {"type": "string", "description": "Engagement code, e.g. EG-4821-KQ"},
            "Why do you need the engagement code anyway? Quickly: E G dash 3 4 3 7 dash C Q.",
            "EG-3437-CQ",
        ),
        # a time interval whose schema is a pair, whatever the field's name
        (
            "callback_window",
            {
                "anyOf": [
                    {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2},
                    {"type": "string"},
                ],
                "description": "Hours of the day for a call back",
            },
            "From 2 pm to 4 pm.",
            "14:00-16:00",
        ),
    ],
)
def test_a_caller_line_is_noted_as_a_person_would(
    name: str, schema: dict[str, Any], line: str, value: Any
) -> None:
    assert written(name, schema, line) == value


def test_a_dictated_reference_number_keeps_out_the_s_of_its() -> None:
    assert record_id("Let me think, yes, it's M U 9 9 2 2.") == "MU9922"


def test_a_looked_up_value_comes_from_the_fields_own_table_keyed_by_the_callers_values() -> None:
    """Version 3 wrote 4 (an early-payment discount) for an onboarding fee of 79."""
    fields = {
        "vendor_category": {"type": "string", "description": "Type of supplier One of: "
                            "materials, services."},
        "risk_tier": {"type": "string", "description": "Risk tier One of: low, medium."},
        "payment_terms": {"type": "string", "description": "Payment terms One of: net 30."},
        "onboarding_fee": {"type": "number", "description": "One-time fee to register the "
                           "vendor in dollars, from the fee schedule"},
    }  # fmt: skip
    update = ToolSpec(
        "update_form", "Write fields.", {"properties": {"fields": {"properties": fields}}}
    )
    search = ToolSpec("search_documents", "Search.", {"properties": {"query": STRING}})
    dm = ReferenceDialogue()
    dm.start(AgentSession("Fill in the form.", (update, search), "i", 0))
    dm.respond(AgentInput(0, user_text="Hello."))
    for line in ("Materials.", "Medium.", "Net 30."):
        dm.respond(AgentInput(1, user_text=line))
    lookup = dm.respond(AgentInput(2, user_text="I don't have that information right now."))
    [query] = [c for c in lookup.tool_calls if c.name == "search_documents"]
    docs = [
        {"id": "d", "title": "Early payment discount table", "text": "Early payment discount "
         "table, by payment terms. net 30: 4 percent."},
        {"id": "f", "title": "Vendor registration fee schedule", "text": "Vendor registration "
         "fee schedule, by vendor category and risk tier. materials low: 216 dollars; "
         "materials medium: 79 dollars."},
    ]  # fmt: skip
    result = ToolResultMessage(query.call_id or "", "search_documents",
                               {"ok": True, "result": {"results": docs}})  # fmt: skip
    turn = dm.respond(AgentInput(3, tool_results=(result,)))
    fees = [c.arguments["fields"]["onboarding_fee"] for c in turn.tool_calls]
    assert fees == [79]


def test_an_item_it_cannot_work_is_an_agent_error_naming_what_is_missing() -> None:
    search = ToolSpec("search_documents", "Search.", {"properties": {"query": STRING}})
    with pytest.raises(AgentError, match=r"no tool writes fields.*search_documents"):
        ReferenceDialogue().start(AgentSession("Help.", (search,), "i", 0))
    odd = _update("layout", {"type": "object", "description": "A floor plan"})
    with pytest.raises(AgentError, match=r"layout \(object\)"):
        ReferenceDialogue().start(AgentSession("Help.", (odd,), "i", 0))
