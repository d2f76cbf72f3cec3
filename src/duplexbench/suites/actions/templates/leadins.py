"""Lead-ins of the cued actions (Stop, Hold Floor, Recover).

Each is a user question that draws a long agent answer, so that a cue can
be injected while the agent is still speaking. `gist` is that answer in one
clause and `example` a concrete example of it; the reference responses of
Hold Floor and Recover are built from them (terms starred).
"""

from __future__ import annotations

from duplexbench.suites.actions.templates.model import Explain

E = Explain

EXPLAINS: dict[str, tuple[Explain, ...]] = {
    "travel": (
        E(
            "Can you walk me through how to plan a rail trip across Europe?",
            "you pick two or three *cities*, book the long *train* legs early and keep the "
            "short hops flexible",
            "For example, *Paris* to *Milan* booked a month ahead can cost half the price on "
            "the day.",
        ),
        E(
            "Could you explain how travel insurance actually works?",
            "you pay a fixed *premium*, and if something goes wrong you claim back the *costs* "
            "with receipts",
            "Say your *flight* is cancelled and you pay for an extra hotel night: you send the "
            "*receipt* and get it back.",
        ),
    ),
    "cooking": (
        E(
            "Can you walk me through how to make a proper risotto?",
            "you toast the *rice*, then add hot *stock* a ladle at a time, stirring until it's "
            "creamy",
            "For example, a mushroom risotto takes about *twenty minutes* of adding *stock* "
            "and stirring.",
        ),
        E(
            "Could you explain how a sourdough starter works?",
            "wild *yeast* and bacteria in flour and water *ferment*, and you feed them daily "
            "to keep them active",
            "For example, each morning you mix in fifty grams of *flour* and fifty of *water* "
            "and discard half.",
        ),
    ),
    "sports": (
        E(
            "Can you walk me through how to train for a first half marathon?",
            "you run three or four times a week and make one *long run* a little longer each "
            "*week*",
            "For example, your *Sunday* run goes from eight *kilometres* to ten, then to twelve.",
        ),
        E(
            "Could you explain how the offside rule works in football?",
            "a player is *offside* if they're nearer the goal than the second-last *defender* "
            "when the ball is played to them",
            "For example, if the *striker* is beyond the last *defender* when the pass is made, "
            "the goal doesn't count.",
        ),
    ),
    "movies": (
        E(
            "Can you walk me through how a film gets made, from script to cinema?",
            "a *script* gets funded, then comes the shoot, then months of *editing*, and "
            "finally distribution",
            "For example, a *feature* film often shoots for two months and spends a year in "
            "*editing*.",
        ),
        E(
            "Could you explain how awards like the Oscars are decided?",
            "members of the *academy* nominate within their own branch, then all members "
            "*vote* on the winners",
            "For example, *actors* nominate actors, but the whole academy *votes* for best "
            "picture.",
        ),
    ),
    "family": (
        E(
            "Can you walk me through how to plan a big family reunion?",
            "you set a *date* early, pick a central *venue*, and share out the costs and tasks",
            "For example, one cousin books the *venue* while another collects *money* for food.",
        ),
        E(
            "Could you explain how to set up a family budget?",
            "you list monthly *income* and fixed costs, then set a limit for each *category*",
            "For example, you might set *groceries* at four hundred a month and check "
            "*spending* weekly.",
        ),
    ),
    "budget": (
        E(
            "Can you walk me through how zero-based budgeting works?",
            "every *line* starts from zero and has to be *justified* again each year",
            "For example, the *travel* line isn't last year plus five percent; each *trip* "
            "needs a reason.",
        ),
        E(
            "Could you explain how we should forecast spending for next year?",
            "you start from this year's *actuals*, adjust for known *changes*, and add a "
            "contingency",
            "For example, if *licences* rise by ten percent, you add that on top of this "
            "year's *actuals*.",
        ),
    ),
    "hiring": (
        E(
            "Can you walk me through how a structured interview works?",
            "every candidate gets the same *questions* and is scored against the same *criteria*",
            "For example, everyone is asked about a missed *deadline* and each *answer* is "
            "scored from one to five.",
        ),
        E(
            "Could you explain how we should onboard a new hire in their first month?",
            "they get a *buddy*, a clear *plan* for each week, and regular check-ins",
            "For example, in week one they shadow their *buddy*, and in week two they take on "
            "a small *task*.",
        ),
    ),
    "product_launch": (
        E(
            "Can you walk me through how a soft launch works?",
            "you release to a small *group* first, watch the *feedback*, and fix issues "
            "before the full launch",
            "For example, you open it to *ten percent* of users for a week and watch the "
            "*error* rates.",
        ),
        E(
            "Could you explain how we should plan the launch announcement?",
            "you agree the *message*, prepare the *press* release and blog post, and time "
            "them together",
            "For example, the *blog* post goes live at nine and the *newsletter* an hour later.",
        ),
    ),
    "schedule": (
        E(
            "Can you walk me through how the critical path works?",
            "it's the longest chain of dependent *tasks*, and any *delay* on it moves the end date",
            "For example, if *testing* waits on the *build*, a late build pushes the whole "
            "release.",
        ),
        E(
            "Could you explain how we should estimate the remaining work?",
            "you break it into small *tasks*, estimate each one, and add a *buffer* for unknowns",
            "For example, ten *tasks* of two days each make twenty days, plus four days of "
            "*buffer*.",
        ),
    ),
    "incident_review": (
        E(
            "Can you walk me through how a blameless post-mortem works?",
            "you describe what happened and why the *system* allowed it, without blaming *people*",
            "For example, instead of asking who deployed the change, you ask why *testing* "
            "didn't *catch* it.",
        ),
        E(
            "Could you explain how we should set up on-call rotations?",
            "engineers take turns for a *week* each, with a backup and a clear *escalation* path",
            "For example, one *engineer* is primary this week and a second one is *backup*.",
        ),
    ),
    "billing": (
        E(
            "Can you walk me through how my bill is calculated?",
            "it's your monthly *plan* price plus any *extras*, minus discounts, and then tax",
            "For example, a thirty dollar *plan* plus five dollars of extra *data* comes to "
            "thirty-five before tax.",
        ),
        E(
            "Could you explain how it works when I change plans in the middle of the month?",
            "you pay the old *plan* for the days before the change and the new one for the "
            "*days* after",
            "For example, switching halfway through the month means you pay *half* of each *plan*.",
        ),
    ),
    "delivery": (
        E(
            "Can you walk me through how delivery tracking works?",
            "each time the parcel is *scanned* at a depot, the *tracking* page updates",
            "For example, it's scanned when it leaves the *warehouse* and again at your local "
            "*depot*.",
        ),
        E(
            "Could you explain what happens when a delivery is missed?",
            "the courier leaves a *card*, and you can book a *redelivery* or collect it from "
            "the depot",
            "For example, you scan the *card* and pick a new *day* for the courier to come back.",
        ),
    ),
    "returns": (
        E(
            "Can you walk me through how the returns process works?",
            "you request a *return* online, print the *label*, and the refund goes out once "
            "it arrives",
            "For example, you drop the parcel at the *post office* and the *refund* arrives "
            "about five days later.",
        ),
        E(
            "Could you explain how exchanges work compared to refunds?",
            "an *exchange* sends the new item once the old one arrives, while a *refund* "
            "returns the money",
            "For example, a bigger *size* of the same shoes ships as soon as the old pair "
            "*arrives*.",
        ),
    ),
    "account_access": (
        E(
            "Can you walk me through how two-step verification works?",
            "after your *password* you enter a one-time *code* sent to your phone",
            "For example, you type your password, then a six-digit *code* arrives by *text*.",
        ),
        E(
            "Could you explain how account recovery works if I lose my phone?",
            "you use a backup *code* or verify your *identity* with us to reset it",
            "For example, we ask for your date of birth and the last *payment* amount, then "
            "*reset* it.",
        ),
    ),
    "technical_fault": (
        E(
            "Can you walk me through how to troubleshoot my router?",
            "you check the *lights*, restart it, then test with a *cable* to rule out the wifi",
            "For example, if a *laptop* on a *cable* works fine, the problem is the wifi, not "
            "the line.",
        ),
        E(
            "Could you explain how a line test works?",
            "we send a *signal* down your line from the exchange and measure where it *drops*",
            "For example, a fault halfway along the *line* usually means a *cable* in the street.",
        ),
    ),
    "experience": (
        E(
            "Can you walk me through how the interview process works from here?",
            "there's a *skills* exercise next, then a final *interview* with the team",
            "For example, the *exercise* is planning a small *project* with a fixed budget.",
        ),
        E(
            "Could you explain how the team is structured?",
            "there are four *coordinators*, each supporting two *projects*, reporting to one "
            "programme lead",
            "For example, one *coordinator* runs the schools *project* and the clinic project "
            "together.",
        ),
    ),
    "strengths": (
        E(
            "Can you walk me through how performance reviews work here?",
            "you set *goals* with your manager and review them every six *months*",
            "For example, one *goal* might be delivering a *project* on budget.",
        ),
        E(
            "Could you explain what a typical week looks like in this role?",
            "it's mostly *planning*, *meetings* with project teams, and keeping timelines up "
            "to date",
            "For example, *Monday* is planning, and on *Thursday* you update the programme lead.",
        ),
    ),
    "conflict": (
        E(
            "Can you walk me through how decisions are made on the team?",
            "the team discusses the *options*, and the project *lead* makes the final call",
            "For example, for a *deadline* change everyone gives input and the *lead* decides.",
        ),
        E(
            "Could you explain how disagreements with partners are usually handled?",
            "we raise them early in the weekly *call* and only escalate to the *director* if "
            "needed",
            "For example, a late *report* from a partner is discussed on the *call* before "
            "anything else.",
        ),
    ),
    "goals": (
        E(
            "Can you walk me through how people usually progress from this role?",
            "after about two *years*, coordinators can become *senior* coordinators or lead a "
            "programme",
            "For example, our current *programme* lead started as a *coordinator* three years ago.",
        ),
        E(
            "Could you explain how the training budget works?",
            "each person gets a yearly *budget* to spend on *courses* agreed with their manager",
            "For example, a project management *certificate* is usually covered *fully*.",
        ),
    ),
    "motivation": (
        E(
            "Can you walk me through the organisation's main projects right now?",
            "the main ones are *clean water* in rural areas and a *school meals* programme",
            "For example, the *school meals* programme now runs in forty *schools*.",
        ),
        E(
            "Could you explain how the team measures its impact?",
            "each project tracks a few *outcomes*, and we publish them in a yearly *report*",
            "For example, the water project counts how many *households* get safe *water*.",
        ),
    ),
}
"""Per topic: questions that draw a long answer."""
