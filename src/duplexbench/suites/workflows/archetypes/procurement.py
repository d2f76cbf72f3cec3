"""Procurement: a purchase order raised over the phone."""

from __future__ import annotations

from duplexbench.suites.workflows.catalog import ActionTemplate, Archetype
from duplexbench.suites.workflows.catalog import FieldTemplate as F
from duplexbench.suites.workflows.catalog import LookupTemplate as L

ARCHETYPE = Archetype(
    key="procurement",
    artifact_type="purchase_order",
    noun="purchase order",
    tool_noun="purchase",
    task="a new purchase order",
    titles=("Raise a purchase order with {org}", "Purchasing request at {org}"),
    instructions=(
        "You raise purchase orders for {org}. The caller needs goods bought from a supplier; "
        "collect the order details for the {noun} and record them."
    ),
    goal="Get the goods ordered from the supplier with the right details.",
    roles=("procurement", "finance", "operations"),
    fields=(
        F("requester_name", "person", "Employee asking for the purchase"),
        F("supplier_company", "company", "Company the goods are bought from"),
        F("order_number", "id", "Order identifier, e.g. PO-4821-KQ", pattern="PO-DDDD-LL"),
        F("contact_name", "person", "Contact person at the supplier"),
        F("contact_email", "email", "Supplier contact's email address", correctable=False),
        F("contact_phone", "phone", "Supplier contact's phone number"),
        F("delivery_address", "address", "Where the goods are delivered"),
        F("delivery_date", "date", "Day the goods are needed"),
        F("cost_center", "id", "Cost center charged, e.g. CC-482-K", pattern="CC-DDD-L"),
        F(
            "shipping_method",
            "enum",
            "How the goods are shipped",
            choices=("ground", "express", "freight"),
        ),
        F("payment_terms", "enum", "Payment terms", choices=("net 15", "net 30", "net 60")),
        F(
            "budget_category",
            "enum",
            "Budget the purchase is charged to",
            choices=("office supplies", "equipment", "software"),
        ),
        F("order_quantity", "count", "Number of units ordered", low=5, high=500),
        F("unit_price", "money", "Price of one unit in dollars", low=5, high=900),
        F("sales_tax", "percent", "Sales tax in percent", low=2, high=10),
        F(
            "delivery_note",
            "text",
            "Instructions for the driver",
            pool=(
                "leave at reception",
                "call on arrival",
                "use loading dock",
                "deliver after noon",
            ),
        ),
        F(
            "line_items",
            "items",
            "Goods on the order, in order",
            pool=(
                "laptops",
                "monitors",
                "desk chairs",
                "printer toner",
                "headsets",
                "docking stations",
            ),
            correctable=False,
        ),
        F("budget_holders", "people", "People who sign off on the spend", correctable=False),
        F("receiving_window", "hours", "When the goods can be received", correctable=False),
    ),
    lookups=(
        L(
            "shipping_charge",
            "Shipping charge in dollars",
            ("shipping_method", "budget_category"),
            "Shipping rate table",
            "money",
            15,
            400,
        ),
        L(
            "early_pay_discount",
            "Early-payment discount in percent",
            ("payment_terms",),
            "Early payment discount table",
            "percent",
            1,
            5,
        ),
        L(
            "spend_limit",
            "Spending limit without extra sign-off in dollars",
            ("budget_category",),
            "Spending limits",
            "money",
            1000,
            25000,
        ),
    ),
    action=ActionTemplate(
        tool="place_order",
        verb="place the order",
        past="placed the order",
        description="Place the order with the supplier.",
        aliases=("place it", "send the order"),
    ),
    always=("requester_name", "supplier_company", "order_number"),
)
