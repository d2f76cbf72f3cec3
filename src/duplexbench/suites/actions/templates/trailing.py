"""Take Turn (slight overlap) material: statements with a predictable ending.

Each statement is spoken with a tail from `conversation.TRAILING_TAILS`
appended after a comma ("..., and that's pretty much it, you know."), so
its end can be anticipated and the agent may start just before the user
stops. Replies star their expected terms.
"""

from __future__ import annotations

from duplexbench.suites.actions.templates.model import Line

L = Line

TRAILING: dict[str, tuple[Line, ...]] = {
    "travel": (
        L(
            "So we land in Rome on Friday night, do the Vatican on Saturday and take the "
            "train to Florence on Sunday",
            "Great plan. Book the *Vatican* tickets ahead; the *train* to Florence is under "
            "two hours.",
        ),
        L(
            "I booked the cheapest flight, no luggage, just a backpack for the whole week",
            "Smart. Just check the *backpack* size limit for that *flight*.",
        ),
    ),
    "cooking": (
        L(
            "I'm doing a roast on Sunday, chicken, potatoes, some carrots, and a crumble "
            "for dessert",
            "Sounds lovely. Put the *potatoes* in before the *chicken* so they crisp up.",
        ),
        L(
            "I've been baking sourdough for a month now, and it's finally rising properly",
            "That's great! Do you keep your *sourdough* starter in the *fridge*?",
        ),
    ),
    "sports": (
        L(
            "I finished my first ten k on Sunday, slower than I hoped, but I didn't stop once",
            "Congratulations! Not *stopping* once on your first *race* is a real achievement.",
        ),
        L(
            "Our team lost again on Saturday, third game in a row, and the coach wants to "
            "change the lineup",
            "Three in a row is tough. What does the *coach* want to change in the *lineup*?",
        ),
    ),
    "movies": (
        L(
            "We watched the new detective series over the weekend, all eight episodes in two days",
            "All eight *episodes* in two days! Did you guess who the *killer* was?",
        ),
        L(
            "I finally saw that film about the long train journey, and I loved the soundtrack",
            "I'm glad! The *soundtrack* is wonderful; do you know who wrote the *music*?",
        ),
    ),
    "family": (
        L(
            "My parents come on Friday, stay the weekend, and my brother might join us for "
            "Sunday lunch",
            "Lovely. Do you want ideas for the *Sunday lunch* with your *brother*?",
        ),
        L(
            "The kids start swimming lessons next week, Tuesdays after school, and I'll pick "
            "them up after work",
            "Great. Pack a *snack* for after *swimming*; they'll be starving.",
        ),
    ),
    "budget": (
        L(
            "So we're under budget on travel, over on software, and about even on everything else",
            "Then we could move some of the *travel* surplus to cover the *software* overspend.",
        ),
        L(
            "Finance approved the new tools, but only if we cut two of the conference trips",
            "Fair trade-off. Let's pick which *conference* trips matter least, and order the "
            "*tools*.",
        ),
    ),
    "hiring": (
        L(
            "The job ad is ready, the interview panel is booked, and we post it on Monday",
            "Great. Let's agree the *interview* questions before it goes out on *Monday*.",
        ),
        L(
            "The new analyst starts on the first, her laptop's ordered, and Tom will be her buddy",
            "Good. Let's make sure her *accounts* are set up before the *first*.",
        ),
    ),
    "product_launch": (
        L(
            "Press release at nine, the blog post at ten, and the social posts through the "
            "afternoon",
            "Good plan. Who's watching *support* tickets once the *press release* is out?",
        ),
        L(
            "The beta users are happy, the bugs are mostly fixed, and sales are booking demos",
            "Great progress. Let's triage the remaining *bugs* before the *demos* ramp up.",
        ),
    ),
    "schedule": (
        L(
            "Design finishes this week, development takes the next four, then two weeks of testing",
            "That puts release about seven *weeks* out; let's add a small *buffer* after testing.",
        ),
        L(
            "We moved the client review to Thursday, so the demo prep has to be done by Wednesday",
            "Okay, then let's do a *dry run* of the *demo* on Wednesday morning.",
        ),
    ),
    "incident_review": (
        L(
            "So the cause was the expired certificate, we renewed it, and we added a "
            "calendar reminder",
            "A reminder helps, but automatic *certificate* *renewal* would stop it for good.",
        ),
        L(
            "Customers were affected for about an hour, mostly in Europe, and support "
            "handled two hundred tickets",
            "Let's send *European* customers a short apology and thank the *support* team.",
        ),
    ),
    "billing": (
        L(
            "I paid the bill last week, by bank transfer, same as always",
            "Thanks. A bank *transfer* can take a few days; I'll check whether the *payment* "
            "has arrived.",
        ),
        L(
            "So I switched to the cheaper plan in March, but the bill still shows the old price",
            "Sorry about that. I'll correct the *bill* to the cheaper *plan* from March.",
        ),
    ),
    "delivery": (
        L(
            "The order was placed on the second, paid the same day, and I got the "
            "confirmation email",
            "Thanks. Let me find the *order* from the second and check its *shipping* status.",
        ),
        L(
            "The courier came while I was at work, left a card, and the depot is closed at "
            "weekends",
            "I can arrange *redelivery* on a weekday, or send it to a *pickup point* near you.",
        ),
    ),
    "returns": (
        L(
            "I printed the label, packed the shoes in the original box, and dropped them at "
            "the post office",
            "Thanks. Your *refund* goes out as soon as the *shoes* reach the warehouse.",
        ),
        L(
            "The coat was a present, it still has the tags on, and it's just the wrong size",
            "No problem. With the *tags* on, I can *exchange* it for the right size.",
        ),
    ),
    "account_access": (
        L(
            "I reset my password this morning, logged in fine, and now it's locking me out again",
            "Sorry about that. I'll *unlock* the *account* and check the failed sign-ins.",
        ),
        L(
            "I've got a new phone, moved all my apps over, but the banking app wants a code I "
            "can't get",
            "I'll send the *code* to your new *phone* after a few security questions.",
        ),
    ),
    "technical_fault": (
        L(
            "The engineer came yesterday, replaced the cable, and it worked for about three hours",
            "Sorry it's back. I'll book a *follow-up* visit and test the *line* from here.",
        ),
        L(
            "So the TV works, the laptop works, but the printer won't connect to the new wifi",
            "The *printer* probably still has the old *wifi* details; re-run its setup.",
        ),
    ),
    "experience": (
        L(
            "So that was my first job, two years in logistics, and then I moved into events",
            "Thanks. What made you move from *logistics* into *events*?",
        ),
        L(
            "In the end we delivered the project two weeks early and under budget",
            "Impressive. What made the *project* finish *early*?",
        ),
    ),
    "strengths": (
        L(
            "So I'd say I'm organised, calm under pressure, and people trust me with deadlines",
            "Those matter here. Tell me about a time people relied on you for a *deadline*.",
        ),
        L(
            "My manager put me in charge of onboarding because I'm patient and explain "
            "things clearly",
            "Nice. How did you structure the *onboarding* for new starters?",
        ),
    ),
    "conflict": (
        L(
            "In the end we agreed on a compromise, half the features now and half next quarter",
            "A good *compromise*. How did the *team* feel about splitting it?",
        ),
        L(
            "After that conversation, the two of us actually got on much better",
            "Good outcome. What did you say in that *conversation* that made the difference?",
        ),
    ),
    "goals": (
        L(
            "So in five years I see myself leading a team, maybe running a whole programme",
            "Great. What do you think you need to learn to run a *programme*?",
        ),
        L(
            "I'd like to stay in this field, get more senior, and eventually mentor junior "
            "coordinators",
            "*Mentoring* is valued here. Have you *mentored* anyone before?",
        ),
    ),
    "motivation": (
        L(
            "So I like the mission, the team seems great, and the commute is short",
            "All good reasons. What about the *mission* speaks to you most?",
        ),
        L(
            "I've followed your work for years, especially the school meals campaign",
            "Thank you. What did you like about the *school meals* campaign?",
        ),
    ),
}
"""Per topic: statements to finish with a trailing tail (take_turn.slight_overlap)."""
