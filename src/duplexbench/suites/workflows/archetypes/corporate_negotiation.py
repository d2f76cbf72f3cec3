"""Corporate negotiation: the term sheet of a supplier contract agreed over the phone."""

from __future__ import annotations

from duplexbench.suites.workflows.catalog import ActionTemplate, Archetype
from duplexbench.suites.workflows.catalog import FieldTemplate as F
from duplexbench.suites.workflows.catalog import LookupTemplate as L

ARCHETYPE = Archetype(
    key="corporate_negotiation",
    artifact_type="term_sheet",
    noun="term sheet",
    tool_noun="termsheet",
    task="a supplier contract negotiation",
    titles=("Negotiate a supplier contract with {org}", "Supplier term sheet at {org}"),
    instructions=(
        "You negotiate supplier contracts for {org}. The caller represents the other side of "
        "the deal; take down the agreed terms from the caller and record them in the {noun}."
    ),
    goal="Get the agreed contract terms written into a term sheet.",
    roles=("procurement", "legal", "finance", "sales"),
    fields=(
        F("counterparty_firm", "company", "Company on the other side of the deal"),
        F("negotiator_name", "person", "Negotiator leading for the counterparty"),
        F("deal_code", "id", "Deal identifier, e.g. NG-4821-KQ", pattern="NG-DDDD-LL"),
        F("negotiator_email", "email", "Negotiator's email address", correctable=False),
        F("negotiator_phone", "phone", "Negotiator's phone number"),
        F("billing_address", "address", "Where invoices are sent"),
        F(
            "contract_term",
            "enum",
            "Length of the contract",
            choices=("one year", "two years", "three years"),
        ),
        F(
            "pricing_model",
            "enum",
            "How the supplier charges",
            choices=("fixed fee", "per unit", "tiered"),
        ),
        F(
            "payment_schedule",
            "enum",
            "How often the supplier is paid",
            choices=("monthly", "quarterly", "upfront"),
        ),
        F(
            "delivery_region",
            "enum",
            "Where the goods are delivered",
            choices=("domestic", "regional", "international"),
        ),
        F("contract_value", "money", "Total contract value in dollars", low=50000, high=900000),
        F("volume_discount", "percent", "Discount on large orders in percent", low=2, high=18),
        F("minimum_volume", "count", "Minimum units ordered per year", low=100, high=5000),
        F("effective_date", "date", "Day the contract takes effect"),
        F("notice_period", "count", "Days of notice needed to terminate", low=30, high=120),
        F(
            "penalty_clause",
            "text",
            "Remedy when the supplier misses its commitments",
            pool=(
                "late delivery credit",
                "service level credit",
                "termination fee",
                "no penalty",
                "price reduction",
            ),
        ),
        F(
            "governing_law",
            "text",
            "Law that governs the contract",
            pool=("New York law", "Delaware law", "California law", "Texas law", "English law"),
        ),
        F("signatories", "people", "People who sign the contract", correctable=False),
        F(
            "deliverables",
            "items",
            "What the supplier delivers",
            pool=(
                "raw materials",
                "packaging",
                "spare parts",
                "maintenance visits",
                "training sessions",
                "technical support",
            ),
            correctable=False,
        ),
        F("call_window", "hours", "When the negotiator takes follow-up calls", correctable=False),
    ),
    lookups=(
        L(
            "early_exit_fee",
            "Early termination fee in dollars, from the fee schedule",
            ("contract_term", "pricing_model"),
            "Termination fee schedule",
            "money",
            500,
            9000,
        ),
        L(
            "escalation_cap",
            "Maximum yearly price escalation in percent",
            ("contract_term",),
            "Price escalation limits",
            "percent",
            1,
            8,
        ),
        L(
            "payment_grace_period",
            "Days of grace allowed on late payments",
            ("payment_schedule", "delivery_region"),
            "Grace period table",
            "days",
            5,
            45,
        ),
    ),
    action=ActionTemplate(
        tool="send_termsheet",
        verb="send the term sheet",
        past="sent the term sheet",
        description="Send the term sheet to the counterparty.",
        aliases=("send it", "send the terms"),
    ),
    always=("counterparty_firm", "negotiator_name", "deal_code"),
)
