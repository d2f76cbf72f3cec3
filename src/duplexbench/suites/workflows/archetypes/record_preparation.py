"""Record preparation: a legal case record prepared from a client's account of a matter."""

from __future__ import annotations

from duplexbench.suites.workflows.catalog import ActionTemplate, Archetype
from duplexbench.suites.workflows.catalog import FieldTemplate as F
from duplexbench.suites.workflows.catalog import LookupTemplate as L

ARCHETYPE = Archetype(
    key="record_preparation",
    artifact_type="case_record",
    noun="case record",
    tool_noun="casefile",
    task="a legal case record",
    titles=("Open a legal case record with {org}", "Case record preparation at {org}"),
    instructions=(
        "You prepare case records for {org}. The caller brings a new legal matter; collect "
        "the facts of the matter for the {noun} and record them."
    ),
    goal="Get the legal matter written up in a case record.",
    roles=("legal", "compliance", "management"),
    fields=(
        F("client_name", "person", "Client the matter is for"),
        F("matter_number", "id", "Matter identifier, e.g. MT-4821-KQ", pattern="MT-DDDD-LL"),
        F("client_email", "email", "Client's email address", correctable=False),
        F("client_phone", "phone", "Client's phone number"),
        F("client_address", "address", "Client's street address"),
        F("opposing_party", "company", "Organization on the other side of the matter"),
        F("opposing_counsel", "person", "Lawyer for the other side"),
        F("incident_date", "date", "Day the events took place"),
        F("filing_deadline", "date", "Last day to file with the court"),
        F(
            "matter_category",
            "enum",
            "Area of law",
            choices=("contract dispute", "employment", "property"),
        ),
        F(
            "court_level",
            "enum",
            "Court that hears the matter",
            choices=("small claims", "district", "appellate"),
        ),
        F(
            "fee_arrangement",
            "enum",
            "How the client pays",
            choices=("hourly", "flat fee", "contingency"),
        ),
        F("claim_value", "money", "Value of the claim in dollars", low=5000, high=500000),
        F("success_fee", "percent", "Share of any recovery paid to the firm", low=10, high=40),
        F("witness_count", "count", "Number of witnesses", low=1, high=9),
        F(
            "case_synopsis",
            "text",
            "What the matter is about",
            pool=(
                "unpaid invoices",
                "wrongful dismissal",
                "boundary dispute",
                "breach of lease",
                "defective goods",
            ),
        ),
        F("assigned_attorneys", "people", "Attorneys who work on the matter", correctable=False),
        F(
            "evidence_items",
            "items",
            "Evidence the client holds, most important first",
            pool=(
                "signed contract",
                "email thread",
                "payment records",
                "photographs",
                "site survey",
                "witness statements",
            ),
            correctable=False,
        ),
        F("callback_window", "hours", "When the client can take a call", correctable=False),
    ),
    lookups=(
        L(
            "retainer_deposit",
            "Retainer deposit in dollars",
            ("fee_arrangement", "matter_category"),
            "Retainer schedule",
            "money",
            500,
            15000,
        ),
        L(
            "court_filing_fee",
            "Court filing fee in dollars",
            ("court_level",),
            "Filing fee table",
            "money",
            50,
            450,
        ),
        L(
            "limitation_period",
            "Days allowed to bring the claim",
            ("matter_category",),
            "Limitation periods",
            "days",
            180,
            2190,
        ),
    ),
    action=ActionTemplate(
        tool="file_case",
        verb="file the case record",
        past="filed the case record",
        description="File the case record with the firm's docket.",
        aliases=("file it", "file the record"),
    ),
    always=("client_name", "matter_number", "opposing_party"),
)
