"""Planning: a corporate event plan put together with the event lead over the phone."""

from __future__ import annotations

from duplexbench.suites.workflows.catalog import ActionTemplate, Archetype
from duplexbench.suites.workflows.catalog import FieldTemplate as F
from duplexbench.suites.workflows.catalog import LookupTemplate as L

ARCHETYPE = Archetype(
    key="planning",
    artifact_type="plan",
    noun="event plan",
    tool_noun="eventplan",
    task="a corporate event plan",
    titles=("Plan a corporate event with {org}", "Event planning at {org}"),
    instructions=(
        "You plan corporate events for {org}. The caller is organizing an event; collect "
        "what is needed for the {noun} from the caller and record it."
    ),
    goal="Get the event planned with the right venue, program and budget.",
    roles=("operations", "management", "sales", "finance"),
    fields=(
        F("organizer_name", "person", "Person running the event"),
        F("event_code", "id", "Event identifier, e.g. EV-KM48-2", pattern="EV-LLDD-D"),
        F("organizer_email", "email", "Organizer's email address", correctable=False),
        F("organizer_phone", "phone", "Organizer's phone number"),
        F("venue_address", "address", "Street address of the venue"),
        F("venue_operator", "company", "Company that runs the venue"),
        F("event_date", "date", "Day of the event"),
        F("rehearsal_date", "date", "Day of the rehearsal"),
        F(
            "event_format",
            "enum",
            "Kind of event",
            choices=("conference", "workshop", "gala dinner"),
        ),
        F("venue_tier", "enum", "Class of venue", choices=("standard", "premium", "luxury")),
        F("catering_style", "enum", "How food is served", choices=("buffet", "plated", "cocktail")),
        F("guest_count", "count", "Number of guests expected", low=20, high=600),
        F("event_budget", "money", "Budget for the event in dollars", low=2000, high=90000),
        F("deposit_percent", "percent", "Share of the budget paid up front", low=10, high=50),
        F(
            "event_theme",
            "text",
            "Theme of the event",
            pool=(
                "winter gala",
                "product launch",
                "team awards",
                "harvest festival",
                "innovation summit",
            ),
        ),
        F("keynote_speakers", "people", "Speakers giving keynotes", correctable=False),
        F(
            "program_segments",
            "items",
            "Parts of the program, in order",
            pool=(
                "welcome drinks",
                "opening keynote",
                "panel discussion",
                "networking lunch",
                "awards ceremony",
                "closing remarks",
            ),
            correctable=False,
        ),
        F("setup_window", "hours", "When the venue is available for setup", correctable=False),
    ),
    lookups=(
        L(
            "per_guest_rate",
            "Catering rate per guest in dollars",
            ("catering_style", "venue_tier"),
            "Catering rates per guest",
            "money",
            20,
            180,
        ),
        L(
            "booking_notice",
            "Days ahead the venue must be booked",
            ("venue_tier",),
            "Venue booking lead times",
            "days",
            14,
            120,
        ),
        L(
            "service_charge",
            "Service charge in percent",
            ("event_format",),
            "Service charge table",
            "percent",
            5,
            22,
        ),
    ),
    action=ActionTemplate(
        tool="book_event",
        verb="book the event",
        past="booked the event",
        description="Book the event with the venue and suppliers.",
        aliases=("book it", "make the booking"),
    ),
    always=("organizer_name", "event_code", "event_date"),
)
