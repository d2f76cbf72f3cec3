"""Grounded customer service (tau-style): change a customer's account record.

Database mode: the gold is the final state of the `accounts` table; the
agent looks the account up, collects the changes and writes them with one
`update_account` call.
"""

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
    key="customer_service",
    artifact_type="database_record",
    noun="account",
    tool_noun="account",
    task="a change to my account",
    titles=("Update a customer account at {org}", "Account changes for a {org} customer"),
    instructions=(
        "You are a customer service agent for {org}. Help the caller change their {noun}: "
        "look it up, collect the changes they want and apply them to the account record."
    ),
    goal="Get the account updated with the changes I want.",
    roles=("customer_support", "sales", "operations"),
    fields=(
        F("holder_name", "person", "Account holder's full name", aliases=("account holder",)),
        F("service_plan", "enum", "Service plan", choices=("basic", "plus", "premium")),
        F("billing_region", "enum", "Billing region", choices=("north", "central", "south")),
        F("support_level", "enum", "Support level", choices=("standard", "priority", "dedicated")),
        F("contact_phone", "phone", "Contact phone number"),
        F("contact_email", "email", "Contact email address", correctable=False),
        F("mailing_address", "address", "Mailing address"),
        F(
            "payment_method",
            "enum",
            "How the customer pays",
            choices=("card", "bank transfer", "invoice"),
        ),
        F("autopay_day", "count", "Day of the month autopay runs", low=1, high=28),
        F("line_count", "count", "Number of lines or seats", low=1, high=12),
        F("spending_limit", "money", "Monthly spending limit in dollars", low=50, high=900),
        F("loyalty_discount", "percent", "Loyalty discount in percent", low=0, high=25),
        F("renewal_date", "date", "Contract renewal date"),
        F(
            "device_model",
            "text",
            "Primary device on the account",
            pool=("Pixel 9", "Galaxy S25", "iPhone 16", "Moto Edge", "Nokia G42"),
        ),
        F("authorized_users", "people", "People allowed to manage the account", correctable=False),
        F("promo_code", "id", "Promotion code, e.g. PR-48KQ", pattern="PR-DDLL"),
        F("paperless_billing", "enum", "Paper or paperless bills", choices=("paperless", "paper")),
        F("callback_window", "hours", "When the customer prefers callbacks", correctable=False),
    ),
    lookups=(
        L(
            "monthly_fee",
            "Monthly fee in dollars for the plan and region",
            ("service_plan", "billing_region"),
            "Plan pricing by region",
            "money",
            20,
            140,
        ),
        L(
            "support_fee",
            "Monthly support fee in dollars",
            ("support_level",),
            "Support level fees",
            "money",
            0,
            60,
        ),
        L(
            "contract_months",
            "Contract length in months for the plan",
            ("service_plan",),
            "Plan contract terms",
            "count",
            6,
            36,
        ),
    ),
    action=ActionTemplate(
        tool="update_account",
        verb="update the account",
        past="updated the account",
        description="Apply changes to the customer's account record.",
        aliases=("make the change", "make these changes", "apply the changes"),
    ),
    always=("service_plan",),
    database_table="accounts",
    record_words="account number",
)
