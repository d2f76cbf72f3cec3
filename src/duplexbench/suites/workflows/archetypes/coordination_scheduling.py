"""Coordination and scheduling: a multi-party site visit scheduled over the phone."""

from __future__ import annotations

from duplexbench.suites.workflows.catalog import ActionTemplate, Archetype
from duplexbench.suites.workflows.catalog import FieldTemplate as F
from duplexbench.suites.workflows.catalog import LookupTemplate as L

ARCHETYPE = Archetype(
    key="coordination_scheduling",
    artifact_type="schedule",
    noun="site visit schedule",
    tool_noun="visit",
    task="a site visit schedule",
    titles=("Schedule a site visit with {org}", "Site visit planning at {org}"),
    instructions=(
        "You coordinate site visits for {org}. The caller is arranging a visit for a group; "
        "collect the details for the {noun} from the caller and record them."
    ),
    goal="Get the site visit scheduled with the right people, place and times.",
    roles=("operations", "management", "field_service", "sales"),
    fields=(
        F("host_name", "person", "Person hosting the visit on site"),
        F("visit_code", "id", "Visit identifier, e.g. VS-482-KQ7", pattern="VS-DDD-LLD"),
        F("host_phone", "phone", "Host's phone number"),
        F("host_email", "email", "Host's email address", correctable=False),
        F("site_address", "address", "Street address of the site"),
        F("visiting_company", "company", "Company sending the visitors"),
        F("visit_date", "date", "Day of the visit"),
        F("backup_date", "date", "Fallback day if the visit must move"),
        F("arrival_window", "hours", "When the visitors arrive", correctable=False),
        F(
            "visit_purpose",
            "enum",
            "Why the group visits",
            choices=("audit", "training", "maintenance"),
        ),
        F(
            "transport_mode",
            "enum",
            "How the group travels",
            choices=("shuttle", "rental car", "train"),
        ),
        F(
            "room_setup",
            "enum",
            "How the meeting room is arranged",
            choices=("boardroom", "classroom", "open floor"),
        ),
        F(
            "catering_option",
            "enum",
            "Food served during the visit",
            choices=("coffee only", "lunch", "full day"),
        ),
        F("party_size", "count", "Number of visitors", low=3, high=40),
        F("parking_allocation", "count", "Parking spaces to reserve", low=1, high=15),
        F("travel_budget", "money", "Travel budget for the visit in dollars", low=500, high=12000),
        F(
            "access_level",
            "text",
            "Site access arrangement",
            pool=("visitor badge", "escort required", "contractor pass", "no badge needed"),
        ),
        F("attendees", "people", "People taking part in the visit", correctable=False),
        F(
            "agenda_items",
            "items",
            "What happens during the visit, in order",
            pool=(
                "safety briefing",
                "plant tour",
                "quality review",
                "lunch break",
                "client demo",
                "wrap up meeting",
            ),
            correctable=False,
        ),
    ),
    lookups=(
        L(
            "catering_charge",
            "Catering charge per visit in dollars",
            ("catering_option", "room_setup"),
            "Catering price list",
            "money",
            80,
            1500,
        ),
        L(
            "booking_lead_time",
            "Days of notice needed to book the visit",
            ("visit_purpose",),
            "Booking lead times",
            "days",
            2,
            21,
        ),
        L(
            "travel_allowance",
            "Travel allowance per visitor in dollars",
            ("transport_mode",),
            "Travel allowance table",
            "money",
            20,
            300,
        ),
    ),
    action=ActionTemplate(
        tool="publish_schedule",
        verb="publish the schedule",
        past="published the schedule",
        description="Publish the visit schedule to everyone invited.",
        aliases=("publish it", "send out the schedule"),
    ),
    always=("host_name", "visit_code", "visit_date"),
)
