"""Troubleshooting: a support ticket for broken equipment, taken over the phone."""

from __future__ import annotations

from duplexbench.suites.workflows.catalog import ActionTemplate, Archetype
from duplexbench.suites.workflows.catalog import FieldTemplate as F
from duplexbench.suites.workflows.catalog import LookupTemplate as L

ARCHETYPE = Archetype(
    key="troubleshooting",
    artifact_type="support_ticket",
    noun="support ticket",
    tool_noun="ticket",
    task="an equipment fault ticket",
    titles=("Report broken equipment to {org}", "Equipment fault support at {org}"),
    instructions=(
        "You work on the technical support desk at {org}. The caller reports equipment that "
        "stopped working; collect the fault details for the {noun} and record them."
    ),
    goal="Get the broken equipment logged so a technician can fix it.",
    roles=("customer_support", "field_service", "operations"),
    fields=(
        F("reporter_name", "person", "Person reporting the fault"),
        F("asset_tag", "id", "Asset tag on the equipment, e.g. AT-K482-95", pattern="AT-LDDD-DD"),
        F(
            "serial_number",
            "id",
            "Manufacturer's serial number, e.g. SN-48KM-275",
            pattern="SN-DDLL-DDD",
        ),
        F("reporter_email", "email", "Reporter's email address", correctable=False),
        F("callback_phone", "phone", "Number to call the reporter back"),
        F("equipment_location", "address", "Street address where the equipment is"),
        F("equipment_vendor", "company", "Company that supplied the equipment"),
        F(
            "device_category",
            "enum",
            "Kind of equipment",
            choices=("printer", "router", "workstation"),
        ),
        F(
            "fault_severity",
            "enum",
            "How badly work is affected",
            choices=("minor", "major", "critical"),
        ),
        F(
            "warranty_status",
            "enum",
            "Warranty state of the equipment",
            choices=("in warranty", "extended", "expired"),
        ),
        F(
            "support_plan",
            "enum",
            "Support plan the customer has",
            choices=("basic", "standard", "premium"),
        ),
        F("failure_date", "date", "Day the fault started"),
        F("error_code", "id", "Code shown by the equipment, e.g. ER-482", pattern="ER-DDD"),
        F(
            "affected_user_count",
            "count",
            "People who cannot work because of the fault",
            low=1,
            high=200,
        ),
        F("outage_length", "count", "Hours the equipment has been down", low=1, high=72),
        F(
            "repair_budget",
            "money",
            "Most the customer will spend on the repair in dollars",
            low=100,
            high=5000,
        ),
        F(
            "main_symptom",
            "text",
            "What the equipment does wrong",
            pool=(
                "blinking red light",
                "grinding noise",
                "no power",
                "overheating",
                "paper jam",
                "slow connection",
            ),
        ),
        F(
            "steps_tried",
            "items",
            "What the caller already tried, in order",
            pool=(
                "restarted it",
                "checked cables",
                "replaced fuse",
                "reset settings",
                "updated drivers",
                "cleared cache",
            ),
            correctable=False,
        ),
        F("onsite_contacts", "people", "People who can let the technician in", correctable=False),
        F(
            "access_window",
            "hours",
            "When a technician can get to the equipment",
            correctable=False,
        ),
    ),
    lookups=(
        L(
            "response_target",
            "Business days until a technician arrives",
            ("fault_severity", "support_plan"),
            "Service level targets",
            "days",
            1,
            10,
        ),
        L(
            "callout_fee",
            "Technician call-out fee in dollars",
            ("warranty_status", "device_category"),
            "Call-out fee schedule",
            "money",
            40,
            600,
        ),
        L(
            "replacement_lead_time",
            "Days to get a replacement unit",
            ("device_category",),
            "Replacement lead times",
            "days",
            1,
            21,
        ),
    ),
    action=ActionTemplate(
        tool="dispatch_technician",
        verb="dispatch a technician",
        past="dispatched a technician",
        description="Dispatch a technician to repair the equipment.",
        aliases=("send a technician", "dispatch someone"),
    ),
    always=("reporter_name", "asset_tag", "serial_number"),
)
