"""Scenarios, their five topic categories each, and the small shared phrases.

The scenario decides who the agent is (the `context` sentence); the topic
decides what the conversation is about. Topic categories:

- casual_conversation: travel, cooking, sports, movies, family
- meeting: budget, hiring, product_launch, schedule, incident_review
- customer_service: billing, delivery, returns, account_access, technical_fault
- interview (the agent interviews the user, a candidate): experience,
  strengths, conflict, goals, motivation
"""

from __future__ import annotations

from duplexbench.items import Scenario
from duplexbench.suites.actions.templates.model import Line, Topic

ABBREV: dict[Scenario, str] = {
    "casual_conversation": "cc",
    "meeting": "mt",
    "customer_service": "cs",
    "interview": "iv",
}
"""The scenario part of an item id."""

CONTEXT: dict[Scenario, str] = {
    "casual_conversation": (
        "You are a voice assistant having a relaxed chat with the user about {about}."
    ),
    "meeting": (
        "You are a voice assistant taking part in a small team meeting with the user; "
        "the current agenda item is {about}."
    ),
    "customer_service": "You are a voice assistant helping a customer with {about} over the phone.",
    "interview": (
        "You are a voice assistant interviewing the user, a candidate for a project "
        "coordinator role; the conversation is about {about}."
    ),
}
"""What the agent is told about the scene; `{about}` comes from the topic."""

WHERE = "The user is {where}."
"""Appended to the context when the item has a physical setting."""

TOPICS: dict[Scenario, tuple[Topic, ...]] = {
    "casual_conversation": (
        Topic(
            "travel",
            "travel and holidays",
            Line(
                "the trip I'm planning",
                "Sure, let's talk about your *trip*. Where are you thinking of going?",
            ),
        ),
        Topic(
            "cooking",
            "cooking at home",
            Line(
                "what to cook this weekend",
                "Sure. What are you in the mood to *cook* this weekend?",
            ),
        ),
        Topic(
            "sports",
            "sports and staying active",
            Line(
                "the football match last night",
                "Sure! What did you think of the *match* last night?",
            ),
        ),
        Topic(
            "movies",
            "films and series",
            Line(
                "that new film everyone's talking about",
                "Sure, let's talk about that *film*. Have you seen it yet?",
            ),
        ),
        Topic(
            "family",
            "family life",
            Line(
                "my sister's wedding",
                "Of course. How are the *wedding* plans coming along?",
            ),
        ),
    ),
    "meeting": (
        Topic(
            "budget",
            "next quarter's budget",
            Line(
                "the budget for next quarter",
                "Sure, let's move to next quarter's *budget*. Where should we start?",
            ),
        ),
        Topic(
            "hiring",
            "hiring for the team",
            Line(
                "the hiring plan",
                "Sure, let's switch to the *hiring* plan. Which role is most urgent?",
            ),
        ),
        Topic(
            "product_launch",
            "the upcoming product launch",
            Line(
                "the launch date",
                "Sure, let's talk about the *launch* date. Are we still aiming for the same day?",
            ),
        ),
        Topic(
            "schedule",
            "the project schedule",
            Line(
                "the project timeline",
                "Sure, let's look at the *timeline*. Which milestone worries you most?",
            ),
        ),
        Topic(
            "incident_review",
            "the review of last week's outage",
            Line(
                "last week's outage",
                "Sure, let's go over the *outage*. What do we know about the cause so far?",
            ),
        ),
    ),
    "customer_service": (
        Topic(
            "billing",
            "a billing question",
            Line("my bill", "Of course. What would you like to know about your *bill*?"),
        ),
        Topic(
            "delivery",
            "a late delivery",
            Line(
                "my delivery",
                "Sure. Do you have the order number for the *delivery* handy?",
            ),
        ),
        Topic(
            "returns",
            "returning an item",
            Line(
                "returning something I bought",
                "Sure, I can help with the *return*. What would you like to send back?",
            ),
        ),
        Topic(
            "account_access",
            "trouble signing in to their account",
            Line(
                "getting into my account",
                "Of course. What happens when you try to *sign in*?",
            ),
        ),
        Topic(
            "technical_fault",
            "a problem with their home internet",
            Line(
                "the problem with my router",
                "Sure, let's look at the *router*. What are its lights doing right now?",
            ),
        ),
    ),
    "interview": (
        Topic(
            "experience",
            "their work experience",
            Line(
                "my experience",
                "Sure. Tell me about your *experience*. What was your most recent role?",
            ),
        ),
        Topic(
            "strengths",
            "their strengths",
            Line(
                "what I'm good at",
                "Sure. What would you say is your biggest *strength*?",
            ),
        ),
        Topic(
            "conflict",
            "how they handle conflict at work",
            Line(
                "how I handle disagreements",
                "Of course. Can you tell me about a *disagreement* you handled at work?",
            ),
        ),
        Topic(
            "goals",
            "their career goals",
            Line(
                "where I want to be in a few years",
                "Sure. Where do you see your *career* in three years?",
            ),
        ),
        Topic(
            "motivation",
            "why they want the role",
            Line(
                "why I applied",
                "Sure. What made you *apply* for this role?",
            ),
        ),
    ),
}

OPENERS: tuple[str, ...] = ("", "Okay.", "Right.", "Alright.", "Um, okay.")
"""Optional first words of a user turn."""

QUESTION_OPENERS: tuple[str, ...] = ("", "Quick question.", "Okay, one thing.", "Hey, so.")

TRAILING_TAILS: tuple[str, ...] = (
    "and that's pretty much it, you know.",
    "so yeah, that's about it, really.",
    "and, well, that's the whole thing, basically.",
    "and yeah, that's kind of where it stands, you know.",
)
"""Predictable endings of a slight-overlap turn (appended after a comma)."""

CLOSERS: tuple[str, ...] = (
    "So, what do you think?",
    "Anyway, what would you say to that?",
    "So yeah, what do you make of that?",
    "What do you reckon?",
)
"""Last segment of a continuous-speech turn (the turn is over after it)."""

RETURNS: tuple[str, ...] = (
    "Sorry about that.",
    "Sorry, where was I?",
    "Okay, sorry.",
    "Right, sorry about that.",
)
"""The user turning back to the agent after speaking to someone else."""

RESUMES: tuple[str, ...] = (
    "Anyway, where was I?",
    "Anyway, back to what I was saying.",
    "Okay, so, anyway.",
    "Right, anyway.",
)
"""The user carrying on after stating a hazard or mistake (Interrupt)."""

AGREEING: tuple[str, ...] = ("Mm-hmm.", "Yeah.", "Uh-huh.", "Right.")
"""Affirmative backchannels (the reference response's first word)."""
