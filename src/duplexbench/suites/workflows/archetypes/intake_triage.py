"""Intake and triage: a new claim taken down over the phone and given a triage level."""

from __future__ import annotations

from duplexbench.suites.workflows.catalog import ActionTemplate, Archetype
from duplexbench.suites.workflows.catalog import FieldTemplate as F
from duplexbench.suites.workflows.catalog import LookupTemplate as L

ARCHETYPE = Archetype(
    key="intake_triage",
    artifact_type="case_record",
    noun="claim intake record",
    tool_noun="intake",
    task="a new claim intake",
    titles=("Report a new claim to {org}", "Claim intake and triage at {org}"),
    instructions=(
        "You take first notice of new claims for {org}. The caller reports a loss; collect "
        "the details for the {noun}, including how urgent it is, and record them."
    ),
    goal="Get the claim reported and routed with the right urgency.",
    roles=("customer_support", "clinical", "operations", "compliance"),
    fields=(
        F("claimant_name", "person", "Person making the claim"),
        F("claim_number", "id", "Claim identifier, e.g. CM-4821-KQ", pattern="CM-DDDD-LL"),
        F(
            "policy_number",
            "id",
            "Policy the claim is made under, e.g. PN-KM4821",
            pattern="PN-LLDDDD",
        ),
        F("claimant_email", "email", "Claimant's email address", correctable=False),
        F("claimant_phone", "phone", "Claimant's phone number"),
        F("claimant_address", "address", "Claimant's street address"),
        F("preferred_contractor", "company", "Company the claimant wants for repairs"),
        F("incident_date", "date", "Day of the loss"),
        F(
            "incident_category",
            "enum",
            "Kind of loss",
            choices=("water damage", "theft", "vehicle collision"),
        ),
        F(
            "triage_level",
            "enum",
            "How urgently the claim is handled",
            choices=("routine", "urgent", "emergency"),
        ),
        F(
            "coverage_tier",
            "enum",
            "Level of cover on the policy",
            choices=("bronze", "silver", "gold"),
        ),
        F(
            "contact_preference",
            "enum",
            "How the claimant wants updates",
            choices=("phone call", "email", "text message"),
        ),
        F(
            "estimated_loss",
            "money",
            "Claimant's estimate of the loss in dollars",
            low=500,
            high=80000,
        ),
        F("injury_count", "count", "Number of people hurt", low=1, high=5),
        F("damage_extent", "percent", "Share of the property damaged", low=5, high=100),
        F(
            "likely_cause",
            "text",
            "What probably caused the loss",
            pool=("burst pipe", "storm damage", "forced entry", "rear impact", "electrical fire"),
        ),
        F("witnesses", "people", "People who saw what happened", correctable=False),
        F(
            "damaged_items",
            "items",
            "Property damaged, most valuable first",
            pool=("laptop", "sofa", "flooring", "bicycle", "jewelry", "television"),
            correctable=False,
        ),
        F("callback_window", "hours", "When the claimant can take a call", correctable=False),
    ),
    lookups=(
        L(
            "policy_deductible",
            "Deductible in dollars",
            ("coverage_tier", "incident_category"),
            "Deductible schedule",
            "money",
            100,
            2500,
        ),
        L(
            "adjuster_lead_time",
            "Days until an adjuster visits",
            ("triage_level",),
            "Adjuster response times",
            "days",
            1,
            14,
        ),
        L(
            "advance_share",
            "Share of the estimate paid in advance, in percent",
            ("triage_level", "coverage_tier"),
            "Advance payment limits",
            "percent",
            5,
            40,
        ),
    ),
    action=ActionTemplate(
        tool="open_claim",
        verb="open the claim",
        past="opened the claim",
        description="Open the claim and route it to an adjuster.",
        aliases=("open it", "register the claim"),
    ),
    always=("claimant_name", "claim_number", "policy_number"),
)
