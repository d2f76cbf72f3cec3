"""recover.revise material: a lead-in stating a fact, then the user's correction.

The lead-in draws a long answer that depends on the fact; the correction
cue ("Actually, ..., not ...") arrives while the agent is answering, and the
reply shows the revised answer (starred terms include the corrected fact).
"""

from __future__ import annotations

from duplexbench.suites.actions.templates.model import Revision

R = Revision

REVISIONS: dict[str, tuple[Revision, ...]] = {
    "travel": (
        R(
            "Can you walk me through what I need to sort out before my flight to Rome on Tuesday?",
            "Actually, sorry, the flight is on Thursday, not Tuesday.",
            "Got it, *Thursday*. Then check in online on *Wednesday* and pack the night before.",
        ),
        R(
            "Can you help me plan three days in Barcelona for me and my two kids?",
            "Actually, it's four days, not three, we stay until Monday.",
            "Okay, *four days*. That leaves a whole beach day before you leave on *Monday*.",
        ),
    ),
    "cooking": (
        R(
            "Can you walk me through a dinner menu for six people on Saturday?",
            "Actually, it's eight people now, not six, two more friends are coming.",
            "Okay, *eight* people. I'd scale the main up by a third and add a bigger *salad*.",
        ),
        R(
            "Can you explain how to bake a chocolate cake in my gas oven?",
            "Sorry, it's an electric fan oven, not gas.",
            "Okay, a *fan oven*: set it about *twenty degrees* lower than the recipe says.",
        ),
    ),
    "sports": (
        R(
            "Can you walk me through a training plan for my race in eight weeks?",
            "Actually, sorry, the race is in six weeks, not eight.",
            "Okay, *six weeks*: we'll skip the base phase and build your *long run* faster.",
        ),
        R(
            "Can you explain how I should warm up before my tennis match on Saturday?",
            "Oh, I got that wrong, it's a squash match, not tennis.",
            "Okay, *squash*: add short *sprints* and lunges, since squash is quicker on your feet.",
        ),
    ),
    "movies": (
        R(
            "Can you plan a film marathon on Saturday for my friends, who love horror?",
            "Sorry, I got that wrong, they love comedies, not horror.",
            "Got it, *comedies*. Let's open with *Airplane* and finish with something newer.",
        ),
        R(
            "Can you explain what I need for a home cinema in my small bedroom?",
            "Actually, it's for the living room, not the bedroom, so it's a bit bigger.",
            "Okay, the *living room*: then a bigger *screen* and a proper soundbar make sense.",
        ),
    ),
    "family": (
        R(
            "Can you help me plan a birthday party for my son, who's turning six?",
            "Actually, he's turning eight, not six.",
            "Okay, *eight*: maybe a *treasure hunt* or a climbing wall instead of party games.",
        ),
        R(
            "Can you walk me through what to pack for our weekend at my in-laws' on the coast?",
            "Sorry, they live in the mountains, not on the coast.",
            "Okay, the *mountains*: pack warm *layers* and walking boots instead of swimwear.",
        ),
    ),
    "budget": (
        R(
            "Can you walk me through how to present the forty thousand overspend to the board?",
            "Actually, sorry, the overspend is fourteen thousand, not forty.",
            "Okay, *fourteen thousand*; that's small enough to explain on one *slide*.",
        ),
        R(
            "Can you explain how we should split the marketing budget for the first quarter?",
            "Sorry, I meant the second quarter, not the first.",
            "Got it, the *second quarter*; then we should plan around the *summer* campaign.",
        ),
    ),
    "hiring": (
        R(
            "Can you walk me through how we hire two backend engineers by June?",
            "Actually, it's three engineers now, not two, the budget went up.",
            "Okay, *three* engineers by June; we'll need a second *interview* panel.",
        ),
        R(
            "Can you explain how we should run the final interviews on Monday?",
            "Sorry, the final interviews are on Wednesday, not Monday.",
            "Okay, *Wednesday*; let's send the candidates their *schedule* today.",
        ),
    ),
    "product_launch": (
        R(
            "Can you walk me through the launch checklist for the fifteenth of March?",
            "Actually, the launch moved to the first of April, not the fifteenth of March.",
            "Okay, the first of *April*; that gives us two more *weeks* for testing.",
        ),
        R(
            "Can you explain how we should prepare the launch for the UK market?",
            "Sorry, it's the German market first, not the UK.",
            "Okay, *Germany* first: we'll need the *German* translation and local pricing.",
        ),
    ),
    "schedule": (
        R(
            "Can you walk me through the plan for the client demo on Friday?",
            "Actually, the demo is on Thursday, not Friday.",
            "Okay, *Thursday*; then the dry run should be on *Wednesday*.",
        ),
        R(
            "Can you explain how we fit the migration into the two-week sprint?",
            "Sorry, it's a three-week sprint this time, not two.",
            "Okay, *three weeks*: the migration fits, with a week left for *testing*.",
        ),
    ),
    "incident_review": (
        R(
            "Can you walk me through the outage from Monday night?",
            "Actually, the outage was on Sunday night, not Monday.",
            "Okay, *Sunday* night; let's pull the *logs* from Sunday then.",
        ),
        R(
            "Can you explain how we should review the database outage?",
            "Sorry, I misspoke, it was the network, not the database.",
            "Okay, the *network*; then we start with the *router* changes from that day.",
        ),
    ),
    "billing": (
        R(
            "Can you walk me through why my bill was sixty dollars this month?",
            "Actually, sorry, it was eighty dollars, not sixty.",
            "Okay, *eighty dollars*; let me find what the extra *twenty* was for.",
        ),
        R(
            "Can you explain how to update the card for my monthly payment?",
            "Sorry, I pay by direct debit, not by card.",
            "Okay, *direct debit*: you'll update your *bank* details instead of a card.",
        ),
    ),
    "delivery": (
        R(
            "Can you walk me through rearranging my delivery for Thursday?",
            "Actually, I need it on Saturday, not Thursday.",
            "Okay, *Saturday*; I'll move the delivery, and you'll get a *time slot* by text.",
        ),
        R(
            "Can you explain what to do about the two missing items in my order?",
            "Sorry, it's three items missing, not two.",
            "Okay, *three* items; I'll send all three as a *replacement*.",
        ),
    ),
    "returns": (
        R(
            "Can you walk me through returning the blue jacket I bought?",
            "Actually, it's the green jacket, not the blue one.",
            "Okay, the *green* jacket; I'll set up the *return* for that one.",
        ),
        R(
            "Can you explain how I return a phone I bought ten days ago?",
            "Sorry, I bought it forty days ago, not ten.",
            "Okay, *forty days*: that's past the return window, but the *warranty* may cover it.",
        ),
    ),
    "account_access": (
        R(
            "Can you walk me through resetting the password on my work account?",
            "Actually, it's my personal account, not the work one.",
            "Okay, your *personal* account; I'll send the link to your *personal email*.",
        ),
        R(
            "Can you explain how to sign in on my new iPhone?",
            "Sorry, it's an Android phone, not an iPhone.",
            "Okay, *Android*: get the app from the *Play Store* and sign in there.",
        ),
    ),
    "technical_fault": (
        R(
            "Can you walk me through fixing the wifi, which drops every evening?",
            "Actually, it drops in the mornings, not the evenings.",
            "Okay, *mornings*; that's less likely to be congestion, so let's check the "
            "*router* logs.",
        ),
        R(
            "Can you explain how to fix the internet on my laptop?",
            "Sorry, it's the TV that won't connect, not the laptop.",
            "Okay, the *TV*: open its *network* settings and re-enter the wifi password.",
        ),
    ),
    "experience": (
        R(
            "Can you walk me through how my five years in logistics fit this role?",
            "Actually, it's three years, not five, I miscounted.",
            "Okay, *three years*; that's still solid *logistics* experience for this role.",
        ),
        R(
            "Can you explain how managing a team of ten compares with what you need?",
            "Sorry, it was a team of four, not ten.",
            "Okay, a team of *four*; that's close to the teams our *coordinators* lead.",
        ),
    ),
    "strengths": (
        R(
            "Can you tell me how my Excel skills would be used in this role?",
            "Actually, I mostly use Google Sheets, not Excel.",
            "Okay, *Google Sheets*; that's fine, the team uses *Sheets* every day.",
        ),
        R(
            "Can you explain how my experience presenting to clients would fit in?",
            "Sorry, it was presenting to internal teams, not clients.",
            "Okay, *internal* teams; you'd do a lot of that here with *programme* updates.",
        ),
    ),
    "conflict": (
        R(
            "Can you walk me through how you'd want me to handle a disagreement with my manager?",
            "Actually, I meant a disagreement with a peer, not my manager.",
            "Okay, with a *peer*: I'd want you to talk to them *directly* first.",
        ),
        R(
            "Can you explain how conflicts with your suppliers are usually settled?",
            "Sorry, I meant conflicts with volunteers, not suppliers.",
            "Okay, *volunteers*: those go through the *volunteer* coordinator first.",
        ),
    ),
    "goals": (
        R(
            "Can you walk me through whether I could become a team lead within one year?",
            "Actually, I meant within three years, not one.",
            "Okay, *three years*; that's realistic for a *team lead* role here.",
        ),
        R(
            "Can you explain how I could move into the finance team later on?",
            "Sorry, I meant the operations team, not finance.",
            "Okay, *operations*; coordinators often move there, since the *work* overlaps.",
        ),
    ),
    "motivation": (
        R(
            "Can you tell me more about your school meals project in Kenya?",
            "Actually, I think it's in Uganda, not Kenya.",
            "Yes, *Uganda*, you're right; the *school meals* project runs there.",
        ),
        R(
            "Can you walk me through the part-time options, since I'd want to work four days?",
            "Sorry, I meant four and a half days, not four.",
            "Okay, *four and a half* days; we can discuss that *schedule* at the offer stage.",
        ),
    ),
}
"""Per topic: fact-stating lead-ins and their corrections (recover.revise)."""
