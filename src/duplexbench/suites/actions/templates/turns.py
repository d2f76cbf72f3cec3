"""Take Turn (immediate) material: clear questions that invite a reply at once.

Considered-reply turns (delayed) are in `ponder.py`, trailing turns (slight
overlap) in `trailing.py`. Replies star their expected terms.
"""

from __future__ import annotations

from duplexbench.suites.actions.templates.model import Line

L = Line

QUESTIONS: dict[str, tuple[Line, ...]] = {
    "travel": (
        L(
            "What's the best time of year to visit Iceland?",
            "*Summer*, June to August, for long days and hiking; go in *winter* for the "
            "northern lights.",
        ),
        L(
            "Is it better to book trains in Italy in advance or on the day?",
            "Book the fast *trains* in *advance* for lower fares; regional trains cost the "
            "same on the day.",
        ),
    ),
    "cooking": (
        L(
            "How long should I boil an egg for a runny yolk?",
            "About *six minutes* in boiling water, then straight into *cold water*.",
        ),
        L(
            "Can I use butter instead of oil in this cake recipe?",
            "Yes, use the same amount of melted *butter*; the *cake* will be a bit richer.",
        ),
    ),
    "sports": (
        L(
            "How many rest days a week should a beginner runner take?",
            "Two or three *rest days* a week is plenty for a *beginner*.",
        ),
        L(
            "Is it better to stretch before or after a run?",
            "Do a short dynamic *warm-up* before, and save longer *stretching* for after.",
        ),
    ),
    "movies": (
        L(
            "Which Studio Ghibli film should I watch first?",
            "Start with *Spirited Away*; it's the best introduction to *Ghibli*.",
        ),
        L(
            "Is The Godfather Part Two worth watching if I liked the first one?",
            "Definitely; many people think *Part Two* is even better than the *first*.",
        ),
    ),
    "family": (
        L(
            "What's a good present for a ten-year-old who loves science?",
            "A *microscope* set or a build-your-own *robot* kit is great at that age.",
        ),
        L(
            "How do I get my toddler to sleep in their own bed?",
            "Keep a calm *bedtime* routine and gently walk them back to their own *bed* "
            "every time.",
        ),
    ),
    "budget": (
        L(
            "Should we keep a contingency reserve, and how big should it be?",
            "Yes, keep a *contingency* of about *ten percent* of the total.",
        ),
        L(
            "What's the simplest way to track spending against the budget each month?",
            "A shared *spreadsheet* with planned versus *actual* per line, reviewed monthly.",
        ),
    ),
    "hiring": (
        L(
            "Should we ask candidates to do a take-home test?",
            "A short *take-home* of two hours at most is fair; *pay* for anything longer.",
        ),
        L(
            "How many interview rounds do we really need?",
            "Three *rounds* is usually enough: a screen, a skills interview and a *team* chat.",
        ),
    ),
    "product_launch": (
        L(
            "Should we launch on a Monday or later in the week?",
            "Tuesday or *Wednesday* works best; you have time to fix issues before the *weekend*.",
        ),
        L(
            "Do we need a press release for this launch?",
            "For a launch this size, a short *press release* plus a *blog* post is worth it.",
        ),
    ),
    "schedule": (
        L(
            "Can we still hit the March deadline if we add one more developer?",
            "Adding a *developer* this late rarely speeds things up; cutting *scope* is safer.",
        ),
        L(
            "How much buffer should we add to each milestone?",
            "About *twenty percent* of each milestone's estimate is a sensible *buffer*.",
        ),
    ),
    "incident_review": (
        L(
            "Who should own the follow-up actions from the outage?",
            "Each *action* needs one named *owner*, with the service team leading.",
        ),
        L(
            "Should we post a public update about the outage?",
            "Yes, a short *public* update explaining the *cause* and the fix builds trust.",
        ),
    ),
    "billing": (
        L(
            "When is my next payment due?",
            "Let me check. Your next *payment* is due on the *first* of the month.",
        ),
        L(
            "Can I switch to paperless billing?",
            "Yes, I can switch you to *paperless* billing now; bills will come by *email*.",
        ),
    ),
    "delivery": (
        L(
            "Can I choose a time slot for the delivery?",
            "Yes, you can pick a *time slot* on the *tracking* page once it's out for delivery.",
        ),
        L(
            "Where is my parcel right now?",
            "Let me check the *tracking*: it's at your local *depot* and due tomorrow.",
        ),
    ),
    "returns": (
        L(
            "How long do I have to return something?",
            "You have *thirty days* from *delivery* to return most items.",
        ),
        L(
            "Do I have to pay for return shipping?",
            "No, *returns* are *free*; I'll email you a prepaid label.",
        ),
    ),
    "account_access": (
        L(
            "How do I turn on two-step verification?",
            "Go to *Settings*, then *Security*, and switch on two-step verification.",
        ),
        L(
            "Why does the app keep logging me out?",
            "Usually it's an old app *version*; please *update* the app and sign in again.",
        ),
    ),
    "technical_fault": (
        L(
            "Should I restart the router or reset it completely?",
            "Try a *restart* first; a full *reset* wipes your settings.",
        ),
        L(
            "Why is my wifi so slow in the bedroom?",
            "Walls weaken the signal; put the *router* higher and more central, or add a "
            "*mesh* point.",
        ),
    ),
    "experience": (
        L(
            "Is experience with agile teams important for this role?",
            "Yes, the team works in two-week *sprints*, so *agile* experience helps.",
        ),
        L(
            "Would my volunteering experience count for this role?",
            "Yes, if you *coordinated* people or *events*, it counts. Tell me more.",
        ),
    ),
    "strengths": (
        L(
            "Is it okay if I give you an example from outside work?",
            "Of course, an *example* from outside *work* is fine.",
        ),
        L(
            "Which skills matter most for someone in this role?",
            "*Organisation* and clear *communication* matter most here.",
        ),
    ),
    "conflict": (
        L(
            "Would you like an example with a colleague or with a client?",
            "Either works; let's start with a *colleague*, then the *client* if we have time.",
        ),
        L(
            "How does the team usually handle disagreements?",
            "We talk them through in *retrospectives*, and the project *lead* makes the call.",
        ),
    ),
    "goals": (
        L(
            "Are there chances to move into a lead role here?",
            "Yes, several *coordinators* have moved into *lead* roles within two years.",
        ),
        L(
            "Does the company pay for training or certificates?",
            "Yes, there's a yearly *training* budget that can cover a *certificate*.",
        ),
    ),
    "motivation": (
        L(
            "What do people enjoy most about working on this team?",
            "People mention the *mission* and how supportive the *team* is.",
        ),
        L(
            "What would success look like in the first six months?",
            "Running two *projects* end to end and knowing all the *stakeholders*.",
        ),
    ),
}
"""Per topic: clear questions (take_turn.immediate)."""
