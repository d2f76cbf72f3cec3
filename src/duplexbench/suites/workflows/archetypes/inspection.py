"""Inspection: a property inspection report dictated by the inspector after a visit."""

from __future__ import annotations

from duplexbench.suites.workflows.catalog import ActionTemplate, Archetype
from duplexbench.suites.workflows.catalog import FieldTemplate as F
from duplexbench.suites.workflows.catalog import LookupTemplate as L

ARCHETYPE = Archetype(
    key="inspection",
    artifact_type="inspection_report",
    noun="inspection report",
    tool_noun="inspection",
    task="a property inspection",
    titles=("Property inspection for {org}", "File a building inspection with {org}"),
    instructions=(
        "You handle building inspections for {org}. The caller is the inspector reporting "
        "from a visit; collect the findings for the {noun} and record them."
    ),
    goal="Get the inspection findings written into the report.",
    roles=("compliance", "field_service", "operations"),
    fields=(
        F("inspector_name", "person", "Inspector who visited the property"),
        F("permit_number", "id", "Permit on file, e.g. PM-4821-KQ", pattern="PM-DDDD-LL"),
        F("property_address", "address", "Street address of the property"),
        F("owner_name", "person", "Owner of the property"),
        F("owner_phone", "phone", "Owner's phone number"),
        F("owner_email", "email", "Owner's email address", correctable=False),
        F("inspection_date", "date", "Day of the inspection"),
        F("follow_up_date", "date", "Day of the next visit"),
        F(
            "inspection_scope",
            "enum",
            "Why the inspection took place",
            choices=("routine", "purchase", "complaint"),
        ),
        F(
            "building_class",
            "enum",
            "Use of the building",
            choices=("residential", "commercial", "industrial"),
        ),
        F(
            "overall_rating",
            "enum",
            "Outcome of the inspection",
            choices=("pass", "conditional", "fail"),
        ),
        F("hazard_level", "enum", "Worst hazard found", choices=("low", "moderate", "severe")),
        F("floor_area", "count", "Floor area in square feet", low=400, high=12000),
        F("violation_count", "count", "Number of code violations found", low=1, high=14),
        F("compliance_score", "percent", "Share of checklist items met", low=50, high=100),
        F(
            "repair_estimate",
            "money",
            "Estimated cost of the repairs in dollars",
            low=200,
            high=40000,
        ),
        F(
            "occupancy_status",
            "text",
            "Whether people live or work there",
            pool=("occupied", "vacant", "partly occupied", "under renovation"),
        ),
        F(
            "defects_noted",
            "items",
            "Defects found, most serious first",
            pool=(
                "cracked foundation",
                "roof leak",
                "faulty wiring",
                "blocked exit",
                "missing handrail",
                "mold growth",
            ),
            correctable=False,
        ),
        F("site_attendees", "people", "People present during the inspection", correctable=False),
        F("access_window", "hours", "When the property can be entered", correctable=False),
    ),
    lookups=(
        L(
            "inspection_fee",
            "Inspection fee in dollars, from the fee schedule",
            ("building_class", "inspection_scope"),
            "Inspection fee schedule",
            "money",
            90,
            900,
        ),
        L(
            "remedy_period",
            "Days the owner has to fix the violations",
            ("hazard_level",),
            "Remedy deadlines",
            "days",
            3,
            60,
        ),
        L(
            "reinspection_charge",
            "Charge for a second visit in dollars",
            ("overall_rating", "building_class"),
            "Reinspection charges",
            "money",
            50,
            500,
        ),
    ),
    action=ActionTemplate(
        tool="issue_report",
        verb="issue the inspection report",
        past="issued the inspection report",
        description="Issue the inspection report to the property owner.",
        aliases=("issue the report", "issue it"),
    ),
    always=("inspector_name", "permit_number", "property_address"),
)
