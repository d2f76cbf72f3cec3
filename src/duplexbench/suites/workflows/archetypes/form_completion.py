"""Form completion: a vendor onboarding form filled in over the phone."""

from __future__ import annotations

from duplexbench.suites.workflows.catalog import (
    ActionTemplate,
    Archetype,
)
from duplexbench.suites.workflows.catalog import (
    FieldTemplate as F,
)
from duplexbench.suites.workflows.catalog import (
    LookupTemplate as L,
)

ARCHETYPE = Archetype(
    key="form_completion",
    artifact_type="structured_form",
    noun="vendor onboarding form",
    tool_noun="onboarding",
    task="a new vendor registration",
    titles=("Register a new vendor with {org}", "Vendor onboarding at {org}"),
    instructions=(
        "You handle supplier registrations for {org}. The caller wants to register a "
        "vendor; collect the {noun}'s details from the caller and record them."
    ),
    goal="Get the new vendor registered with the right details.",
    roles=("procurement", "finance", "operations", "compliance"),
    fields=(
        F("legal_name", "company", "Registered legal name of the vendor"),
        F("contact_person", "person", "Main contact at the vendor"),
        F("contact_email", "email", "Contact's email address", correctable=False),
        F("contact_phone", "phone", "Contact's phone number"),
        F("tax_id", "id", "Tax identification number, e.g. TX-4821-KQ", pattern="TX-DDDD-LL"),
        F("street_address", "address", "Vendor's street address"),
        F(
            "vendor_category",
            "enum",
            "Kind of supplier",
            choices=("materials", "services", "software"),
        ),
        F("payment_terms", "enum", "Payment terms", choices=("net 15", "net 30", "net 60")),
        F("currency", "enum", "Invoice currency", choices=("USD", "EUR", "GBP")),
        F("risk_tier", "enum", "Supplier risk tier", choices=("low", "medium", "high")),
        F("annual_spend", "money", "Expected annual spend in US dollars", low=5000, high=90000),
        F("start_date", "date", "First day the vendor may invoice"),
        F("bank_reference", "id", "Bank account reference, e.g. BK-72KQ9", pattern="BK-DDLLD"),
        F("employee_count", "count", "Vendor's number of employees", low=5, high=900),
        F(
            "insurance_coverage",
            "money",
            "Liability insurance coverage in dollars",
            low=100000,
            high=900000,
        ),
        F(
            "sponsor",
            "person",
            "Internal sponsor requesting the vendor",
            aliases=("internal sponsor",),
        ),
        F("approvers", "people", "People who must sign off internally", correctable=False),
        F(
            "services_offered",
            "items",
            "Services the vendor provides",
            pool=("cleaning", "catering", "courier", "printing", "security", "translation"),
            correctable=False,
        ),
        F("office_hours", "hours", "When the vendor's contact can be reached", correctable=False),
    ),
    lookups=(
        L(
            "onboarding_fee",
            "Registration fee in dollars, from the fee schedule",
            ("vendor_category", "risk_tier"),
            "Vendor registration fee schedule",
            "money",
            50,
            400,
        ),
        L(
            "review_days",
            "Days the compliance review takes",
            ("risk_tier",),
            "Compliance review times",
            "days",
            3,
            30,
        ),
        L(
            "early_payment_discount",
            "Early-payment discount in percent",
            ("payment_terms", "currency"),
            "Early payment discount table",
            "percent",
            1,
            6,
        ),
    ),
    action=ActionTemplate(
        tool="submit_onboarding",
        verb="submit the onboarding form",
        past="submitted the onboarding form",
        description="Submit the vendor onboarding form to procurement.",
        aliases=("submit the form", "submit it"),
    ),
    always=("legal_name", "contact_person", "tax_id"),
)
