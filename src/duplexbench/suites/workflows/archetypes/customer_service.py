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
        F(
            "holder_name",
            "person",
            "Full name of the account holder",
            aliases=(
                "account holder",
                "name on the account",
                "account owner",
                "account name",
                "customer's name",
            ),
        ),
        F(
            "service_plan",
            "enum",
            "Service plan the customer's account is on",
            choices=("basic", "plus", "premium"),
            aliases=("plan", "current plan", "service package", "subscription plan", "plan tier"),
        ),
        F(
            "billing_region",
            "enum",
            "Region the customer's account is billed in",
            choices=("north", "central", "south"),
            aliases=("region", "billing area", "billing zone", "region on the account"),
        ),
        F(
            "support_level",
            "enum",
            "Level of customer support included with the account",
            choices=("standard", "priority", "dedicated"),
            aliases=(
                "support tier",
                "level of support",
                "support package",
                "customer support tier",
            ),
        ),
        F(
            "contact_phone",
            "phone",
            "Phone number on file for reaching the account holder",
            aliases=("phone number", "phone on file", "contact number", "number on file"),
        ),
        F(
            "contact_email",
            "email",
            "Email address on file for reaching the account holder",
            aliases=("email address", "email on file", "account email", "contact email address"),
            correctable=False,
        ),
        F(
            "mailing_address",
            "address",
            "Postal address where mail for the account is sent",
            aliases=("postal address", "mail address", "address on file", "billing address"),
        ),
        F(
            "payment_method",
            "enum",
            "How the customer pays the account's bills",
            choices=("card", "bank transfer", "invoice"),
            aliases=("payment type", "form of payment", "payment option", "way of paying"),
        ),
        F(
            "autopay_day",
            "count",
            "Day of the month the automatic payment is taken",
            low=1,
            high=28,
            aliases=(
                "autopay date",
                "automatic payment date",
                "payment day",
                "debit date",
                "auto-pay day",
            ),
        ),
        F(
            "line_count",
            "count",
            "Number of lines or seats on the account",
            low=1,
            high=12,
            aliases=("number of lines", "lines", "seats", "number of seats", "seat count"),
        ),
        F(
            "spending_limit",
            "money",
            "Most the account can spend each month in dollars",
            low=50,
            high=900,
            aliases=("spending cap", "spend cap", "credit limit", "monthly limit", "usage limit"),
        ),
        F(
            "loyalty_discount",
            "percent",
            "Loyalty discount the customer gets in percent",
            low=0,
            high=25,
            aliases=(
                "loyalty reward",
                "customer discount",
                "discount rate",
                "long-term customer discount",
                "loyalty rate",
            ),
        ),
        F(
            "renewal_date",
            "date",
            "Day the customer's contract comes up for renewal",
            aliases=("renewal", "contract renewal", "renewal day", "contract end date"),
        ),
        F(
            "device_model",
            "text",
            "Make and model of the main device on the account",
            pool=("Pixel 9", "Galaxy S25", "iPhone 16", "Moto Edge", "Nokia G42"),
            aliases=("device", "handset", "make and model", "phone model", "model of the device"),
        ),
        F(
            "authorized_users",
            "people",
            "Names of people allowed to manage the account",
            aliases=(
                "authorized people",
                "permitted users",
                "users on the account",
                "additional users",
                "people on the account",
            ),
            correctable=False,
        ),
        F(
            "promo_code",
            "id",
            "Promotion code applied to the account, e.g. PR-48KQ",
            pattern="PR-DDLL",
            aliases=("promotion code", "promo", "offer code", "coupon code", "voucher code"),
        ),
        F(
            "paperless_billing",
            "enum",
            "Whether the customer gets printed bills by post or electronic bills",
            choices=("paperless", "paper"),
            aliases=("bill delivery", "billing preference", "statement delivery", "bill format"),
        ),
        F(
            "callback_window",
            "hours",
            "Hours of the day the customer prefers to be called back",
            aliases=(
                "best time to call",
                "callback time",
                "callback hours",
                "call-back availability",
            ),
            correctable=False,
        ),
    ),
    lookups=(
        L(
            "monthly_fee",
            "Fee each month in dollars for the customer's plan in their area",
            ("service_plan", "billing_region"),
            "Plan pricing by region",
            "money",
            20,
            140,
        ),
        L(
            "support_fee",
            "Fee each month in dollars for the customer support on the account",
            ("support_level",),
            "Support level fees",
            "money",
            0,
            60,
        ),
        L(
            "contract_months",
            "Number of months the contract on the customer's plan runs",
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
