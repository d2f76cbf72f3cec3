"""Consulting and advisory: a tax advisory memo prepared from a client consultation."""

from __future__ import annotations

from duplexbench.suites.workflows.catalog import ActionTemplate, Archetype
from duplexbench.suites.workflows.catalog import FieldTemplate as F
from duplexbench.suites.workflows.catalog import LookupTemplate as L

ARCHETYPE = Archetype(
    key="consulting_advisory",
    artifact_type="advisory_memo",
    noun="advisory memo",
    tool_noun="memo",
    task="a tax advisory consultation",
    titles=("Tax advisory consultation with {org}", "Prepare a client advisory memo at {org}"),
    instructions=(
        "You are a tax advisor at {org}. The caller is a client asking for advice; collect "
        "the facts of the client's situation for the {noun} and record them."
    ),
    goal="Get the tax situation written up so the client receives advice.",
    roles=("finance", "legal", "management", "compliance"),
    fields=(
        F("client_name", "person", "Client the advice is for"),
        F("client_entity", "company", "Business the advice concerns"),
        F("engagement_code", "id", "Engagement identifier, e.g. EG-4821-KQ", pattern="EG-DDDD-LL"),
        F("client_email", "email", "Client's email address", correctable=False),
        F("client_phone", "phone", "Client's phone number"),
        F("mailing_address", "address", "Where the memo is mailed"),
        F(
            "filing_status",
            "enum",
            "Client's tax filing status",
            choices=("single", "married joint", "head of household"),
        ),
        F(
            "entity_structure",
            "enum",
            "Legal form of the business",
            choices=("sole proprietor", "partnership", "corporation"),
        ),
        F(
            "risk_appetite",
            "enum",
            "How much tax risk the client accepts",
            choices=("conservative", "balanced", "aggressive"),
        ),
        F("tax_year", "count", "Tax year the advice covers", low=2021, high=2025),
        F(
            "annual_revenue",
            "money",
            "Business revenue per year in dollars",
            low=80000,
            high=900000,
        ),
        F("payroll_headcount", "count", "Employees on the payroll", low=2, high=250),
        F(
            "retirement_contribution",
            "percent",
            "Share of salary saved for retirement",
            low=2,
            high=15,
        ),
        F("review_deadline", "date", "Day the advice is needed by"),
        F(
            "primary_concern",
            "text",
            "Main question the client wants answered",
            pool=(
                "quarterly estimates",
                "payroll taxes",
                "asset depreciation",
                "estate transfer",
                "audit exposure",
            ),
        ),
        F(
            "referral_source",
            "text",
            "How the client found the firm",
            pool=("existing client", "web search", "bank partner", "trade association"),
        ),
        F("advisors", "people", "Advisors assigned to the engagement", correctable=False),
        F(
            "documents_provided",
            "items",
            "Documents the client has sent",
            pool=(
                "bank statements",
                "payroll reports",
                "prior returns",
                "receipts ledger",
                "lease agreements",
                "invoices",
            ),
            correctable=False,
        ),
        F(
            "callback_window",
            "hours",
            "When the client is free for a follow-up call",
            correctable=False,
        ),
    ),
    lookups=(
        L(
            "advisory_fee",
            "Flat advisory fee in dollars, from the fee schedule",
            ("entity_structure", "risk_appetite"),
            "Advisory fee schedule",
            "money",
            300,
            4000,
        ),
        L(
            "deduction_cap",
            "Deductible share of income in percent",
            ("filing_status",),
            "Deduction limits",
            "percent",
            10,
            60,
        ),
        L(
            "memo_turnaround",
            "Days to deliver the memo",
            ("entity_structure",),
            "Memo turnaround times",
            "days",
            3,
            20,
        ),
    ),
    action=ActionTemplate(
        tool="issue_memo",
        verb="issue the advisory memo",
        past="issued the advisory memo",
        description="Issue the advisory memo to the client.",
        aliases=("issue the memo", "issue it"),
    ),
    always=("client_name", "client_entity", "engagement_code"),
)
