"""Wait material: one user sentence split mid-way around a pause.

The first segment of each `SPLITS` text is clearly incomplete (intra-sentential
pause); the reply answers the whole sentence, and its starred words are the
expected terms. The inter-sentential turns are in `unfinished.py`.
"""

from __future__ import annotations

from duplexbench.suites.actions.templates.model import Line

L = Line

SPLITS: dict[str, tuple[Line, ...]] = {
    "travel": (
        L(
            "I'm flying to Lisbon next month, and what I'd really like to know is whether"
            " | it's worth taking the tram up to the castle or just walking.",
            "The *tram* is fun but crowded; if you don't mind hills, *walking* up to the "
            "castle takes about twenty minutes and you see more.",
        ),
        L(
            "We're thinking of taking the night train to Vienna, mostly because"
            " | my partner hates flying and we'd save a night in a hotel.",
            "That makes sense: the *night train* saves the *hotel* night, and a sleeper "
            "cabin is comfortable for someone who hates flying.",
        ),
    ),
    "cooking": (
        L(
            "I'm making lasagne for eight people on Saturday, and I'm not sure whether"
            " | I should make the sauce the night before or on the day.",
            "Make the *sauce* the *night before*; it tastes better after resting, and on "
            "Saturday you only assemble and bake.",
        ),
        L(
            "Every time I bake bread it comes out really dense, and I think it might be because"
            " | I'm not letting the dough rise for long enough.",
            "That's the usual cause. Let the *dough* *rise* until it has roughly doubled, "
            "which can take two hours in a cool kitchen.",
        ),
    ),
    "sports": (
        L(
            "I've started running three times a week, and I keep wondering if"
            " | I should run every other day or take two rest days in a row.",
            "*Every other day* suits a beginner well; it gives your legs a *rest* day "
            "between runs.",
        ),
        L(
            "My knee hurts a bit after football, and I'm not sure if"
            " | I should keep playing on Sundays or take a few weeks off.",
            "If your *knee* hurts after every game, take a couple of *weeks* off and see a "
            "physio before you go back.",
        ),
    ),
    "movies": (
        L(
            "We're having a film night on Friday, and I can't decide whether"
            " | we should watch something funny or a scary one.",
            "For a group, go with something *funny*; a *scary* film works best when "
            "everyone likes horror.",
        ),
        L(
            "I started watching that long fantasy series, but I'm not sure if"
            " | it's worth getting past the slow first season.",
            "Most people say the *second season* is where it picks up, so give it a few "
            "more *episodes* before you decide.",
        ),
    ),
    "family": (
        L(
            "My parents are visiting for a week, and I want to plan something that"
            " | both of them will enjoy, even though my dad hates walking.",
            "How about a *boat* trip or a scenic drive with a nice *lunch*? Both are "
            "relaxed and need very little walking.",
        ),
        L(
            "My son starts school in September, and I'm trying to figure out if"
            " | he should walk there with his friends or if I should still take him.",
            "Take him yourself for the first few weeks; once he knows the *route*, "
            "walking with his *friends* is a nice next step.",
        ),
    ),
    "budget": (
        L(
            "Looking at the numbers, I think we should move some money from"
            " | the events line into paid search next quarter.",
            "That makes sense if *paid search* converts better; we could move part of the "
            "*events* budget and review it after a month.",
        ),
        L(
            "Before we sign off, I want to check whether"
            " | the travel budget still covers the two client visits in May.",
            "Good point. Let's check the *travel* line against the cost of the two "
            "*client visits* before we sign off.",
        ),
    ),
    "hiring": (
        L(
            "For the new designer role, I'd really like us to"
            " | open it to remote candidates, so we get a bigger pool.",
            "Opening it to *remote* candidates widens the *pool*; we'd just need to agree "
            "on overlapping hours.",
        ),
        L(
            "I'm worried about the interview process, because right now"
            " | it takes almost six weeks from application to offer.",
            "Six *weeks* is long; we could merge two *interview* rounds and aim for three.",
        ),
    ),
    "product_launch": (
        L(
            "For the launch, I think the main risk is that"
            " | the mobile app won't pass store review in time.",
            "Then let's submit the *app* for *review* this week and keep a web-only launch "
            "as a fallback.",
        ),
        L(
            "Marketing has asked whether we can"
            " | move the launch event from a Tuesday to a Thursday.",
            "Moving the event to *Thursday* is fine as long as the *press* invites go out "
            "by Monday.",
        ),
    ),
    "schedule": (
        L(
            "Looking at the timeline, I don't think we can"
            " | finish the testing phase before the end of the month.",
            "If *testing* can't finish this *month*, let's move the release date and tell "
            "the client early.",
        ),
        L(
            "The design team told me that"
            " | they need two more weeks for the new dashboard screens.",
            "Two more *weeks* for the *dashboard* pushes the build phase; let's see what "
            "can start in parallel.",
        ),
    ),
    "incident_review": (
        L(
            "From what we've seen so far, the outage started when"
            " | the database ran out of disk space at around two in the morning.",
            "So the root cause is *disk space* on the *database*; we should alert well "
            "before it fills up.",
        ),
        L(
            "The thing I keep coming back to is that"
            " | nobody was paged for the first forty minutes.",
            "Forty *minutes* without a *page* is the biggest gap; let's check the alert "
            "routing first.",
        ),
    ),
    "billing": (
        L(
            "I've been charged twice this month, and I'd like to know if"
            " | you can refund the second payment to my card.",
            "I'm sorry about that. If it's a duplicate *charge*, we can *refund* it to your "
            "card within five working days.",
        ),
        L(
            "My bill went up by twenty dollars, and I think it's because"
            " | my discount ended without anyone telling me.",
            "You may be right: the twelve-month *discount* has likely ended. I can look for "
            "a *plan* that brings the price down.",
        ),
    ),
    "delivery": (
        L(
            "My parcel was supposed to arrive on Monday, and I want to know whether"
            " | it's still coming or if it's been lost.",
            "Let me check the *tracking*. If it hasn't moved in three days, we'll treat it "
            "as lost and send a *replacement*.",
        ),
        L(
            "The tracking says delivered, but I've checked everywhere and"
            " | there's nothing at my door or with the neighbours.",
            "I'm sorry. Since the *parcel* isn't there, I'll open a *claim* with the "
            "courier and arrange a replacement.",
        ),
    ),
    "returns": (
        L(
            "I bought a jacket two weeks ago, and I'd like to find out if"
            " | I can still return it even though I removed the tags.",
            "Within thirty days you can usually still *return* it; without *tags* we may "
            "need the receipt, so keep that handy.",
        ),
        L(
            "The shoes don't fit, so I want to know whether"
            " | I can swap them for a bigger size instead of getting a refund.",
            "Yes, we can *exchange* them for a bigger *size*; I'll send you a prepaid label.",
        ),
    ),
    "account_access": (
        L(
            "I've been locked out of my account, and I was hoping that"
            " | you could reset my password over the phone.",
            "I can help. Once I've verified your identity, I'll send a *reset link* to the "
            "*email* on file.",
        ),
        L(
            "I changed my phone number last month, so now | I can't get the login codes anymore.",
            "Then we'll update the *phone number* on the account after verifying you, so "
            "the *codes* go to the new one.",
        ),
    ),
    "technical_fault": (
        L(
            "My internet drops every evening, and I'm starting to think that"
            " | the router is overheating in the cupboard.",
            "That's possible. Move the *router* out of the *cupboard* for a few days and see "
            "if the drops stop.",
        ),
        L(
            "The light on my router keeps blinking orange, and I'd like to know if"
            " | that means the line is down or the router is broken.",
            "A blinking *orange light* usually means no *signal* on the line; I'll run a "
            "line test from here.",
        ),
    ),
    "experience": (
        L(
            "In my last job I was mainly responsible for"
            " | coordinating the release schedule for three mobile apps.",
            "Coordinating *releases* for three *apps* is relevant here. How did you keep "
            "the schedules from clashing?",
        ),
        L(
            "Before that I worked at a small agency, where I was the one who"
            " | handled every client call and most of the budgets.",
            "So you've handled *clients* and *budgets* directly. Who was the hardest "
            "client you worked with?",
        ),
    ),
    "strengths": (
        L(
            "I'd say my biggest strength is that"
            " | I stay calm and organised when deadlines get tight.",
            "Staying *calm* under tight *deadlines* matters here. Can you give me an example?",
        ),
        L(
            "People I've worked with usually tell me that"
            " | I'm good at explaining technical things to non-technical people.",
            "That's valuable in this role. When did *explaining* something *technical* "
            "make a real difference?",
        ),
    ),
    "conflict": (
        L(
            "There was one time when two team leads disagreed, and I had to"
            " | decide whose deadline came first.",
            "How did you decide between the two *deadlines*, and how did the *team leads* take it?",
        ),
        L(
            "When I disagree with a manager, I usually try to"
            " | raise it privately first and bring some data.",
            "Raising it *privately* with *data* is sensible. Can you tell me about a time "
            "it worked?",
        ),
    ),
    "goals": (
        L(
            "In a few years I'd really like to be | leading a small team of coordinators.",
            "*Leading* a *team* is a realistic path from this role. What experience do you "
            "want to gain first?",
        ),
        L(
            "One thing I want to get much better at is | budgeting for larger projects.",
            "We do run larger *projects* here. What *budgeting* have you done so far?",
        ),
    ),
    "motivation": (
        L(
            "What really attracted me to this role is that"
            " | your team works on public health projects.",
            "Our *public health* work matters a lot to us. What interests you about it?",
        ),
        L(
            "I applied mainly because"
            " | I want a job where I can see the impact of what I organise.",
            "Seeing the *impact* of your work is a good motivation. Where did you feel that "
            "most before?",
        ),
    ),
}
"""Per topic: one sentence split mid-way."""
