"""Turns that open with a complete sentence but an unfinished thought.

Each `TWO_PART` text is spoken as two segments: "I have two questions about
my bill. | The first is ...". Wait (inter-sentential pause) puts a pause
between them; Ignore puts the other-directed or background speech there.
The reply answers the whole turn; starred words are expected terms.
"""

from __future__ import annotations

from duplexbench.suites.actions.templates.model import Line

L = Line

TWO_PART: dict[str, tuple[Line, ...]] = {
    "travel": (
        L(
            "I have two questions about my trip to Japan. | The first is whether I need a rail "
            "pass for ten days, and the second is if April is too crowded.",
            "For ten days of city hopping a *rail pass* usually pays off. *April* is cherry "
            "blossom season, so it's busy; book hotels early.",
        ),
        L(
            "I've narrowed the summer trip down to two places. | It's either Scotland in June "
            "or Croatia in September, and I can only afford one of them.",
            "*Scotland* in June has long, cool days; *Croatia* in September is warm and "
            "quieter. Which matters more to you, the sea or hiking?",
        ),
    ),
    "cooking": (
        L(
            "I have a question about my curry. | It always ends up too watery, so should I "
            "simmer it longer or add something to thicken it?",
            "Simmer it uncovered for longer to reduce it, or stir in a little *yogurt* or "
            "ground almonds to *thicken* it.",
        ),
        L(
            "There's something new I want to try this weekend. | I've never made fresh "
            "pasta, and I want to know if I need a machine or just a rolling pin.",
            "A *rolling pin* is fine for fresh *pasta*; roll it as thin as you can and let "
            "it rest before cutting.",
        ),
    ),
    "sports": (
        L(
            "I want to sign up for a half marathon. | The race is in twelve weeks, and right "
            "now I can only run about five kilometres.",
            "Twelve *weeks* is tight but doable from five *kilometres*: add a long run each "
            "weekend and build up about ten percent a week.",
        ),
        L(
            "I have two questions about swimming. | How do I stop getting out of breath, "
            "and should I breathe every two strokes or every three?",
            "Slow down and breathe out fully underwater; breathing every *three strokes* "
            "keeps your *breathing* even on both sides.",
        ),
    ),
    "movies": (
        L(
            "I need a film recommendation. | Something like the old heist films, clever and "
            "fast, but nothing too violent.",
            "Try *Ocean's Eleven*: it's a clever, stylish *heist* film and hardly violent at all.",
        ),
        L(
            "I watched a really strange film last night. | Everyone around me loved the "
            "ending, but honestly I didn't understand it at all.",
            "Endings like that are often left open on purpose. Which part of the *ending* "
            "lost you? We can go through it.",
        ),
    ),
    "family": (
        L(
            "I need some advice about my sister's birthday. | She's turning forty and says "
            "she doesn't want a party, but I think she'd secretly love one.",
            "Maybe a small *dinner* with a few close *friends*: special, but not the big "
            "party she said she didn't want.",
        ),
        L(
            "There are two things I need to sort out for the holidays. | First, who's "
            "hosting dinner this year, and second, how we split the cost.",
            "You could take turns *hosting* each year and have everyone bring one *dish*, "
            "which keeps the cost fair.",
        ),
    ),
    "budget": (
        L(
            "I have two concerns about the budget. | The first is the software licences going "
            "up, and the second is that we haven't planned for any contractors.",
            "Both fair. Let's put a number on the *licences* increase and add a small "
            "*contractor* reserve.",
        ),
        L(
            "Something doesn't add up in this spreadsheet. | The total says four hundred "
            "thousand, but the lines underneath only add up to three eighty.",
            "That's a twenty thousand gap: maybe a *hidden row* or a line left out of the "
            "*total*. Let's check the formulas.",
        ),
    ),
    "hiring": (
        L(
            "Let me give you the update on hiring. | We've got three strong candidates for "
            "the engineer role, and one of them wants an answer by Friday.",
            "Then let's schedule the final *interviews* this week so we can decide by *Friday*.",
        ),
        L(
            "I have a question about the intern programme. | Do we have enough mentors to "
            "take on four interns this summer?",
            "Four *interns* need at least two *mentors* with time blocked out; let's check "
            "who can commit.",
        ),
    ),
    "product_launch": (
        L(
            "I've got two updates on the launch. | The landing page is done, but the pricing "
            "page still needs legal approval.",
            "Good news on the *landing page*. Let's chase *legal* today so the *pricing* "
            "page doesn't block us.",
        ),
        L(
            "There's a problem with the launch plan. | The support team hasn't been trained "
            "on the new features yet, and they're the first line for customers.",
            "Let's book a *training* session for *support* this week, before customers see "
            "the new features.",
        ),
    ),
    "schedule": (
        L(
            "I want to flag something about the schedule. | The vendor delivery slipped by "
            "ten days, and everything after it depends on that.",
            "A ten-*day* slip on the *vendor* delivery is critical; let's see which tasks "
            "can start without it.",
        ),
        L(
            "We need to make a decision today. | Either we cut the reporting feature, or we "
            "push the release by two weeks.",
            "I'd lean towards cutting the *reporting* feature for now and shipping it in "
            "the next *release*.",
        ),
    ),
    "incident_review": (
        L(
            "I have two takeaways from the outage. | One, our alerts were too noisy to notice "
            "the real one, and two, the runbook was out of date.",
            "Agreed. Let's cut the noisy *alerts* and give someone ownership of the *runbook*.",
        ),
        L(
            "Let me go through the timeline first. | The deploy went out at ten, errors "
            "started at ten fifteen, and we rolled back at eleven.",
            "So it took forty-five *minutes* to *roll back* after errors started; the "
            "question is why detection was slow.",
        ),
    ),
    "billing": (
        L(
            "I have two questions about my bill. | The first is what the service fee is, and "
            "the second is whether I can pay it in two parts.",
            "The *service fee* covers the monthly line charge, and yes, we can split this "
            "bill into two *payments*.",
        ),
        L(
            "There's a charge on my statement I don't recognise. | It says premium support, "
            "fifteen dollars, and I never signed up for that.",
            "I'm sorry about that. I can remove the *premium support* and refund the "
            "fifteen *dollars*.",
        ),
    ),
    "delivery": (
        L(
            "I need to change something about my order. | It's going to my old address, and "
            "I moved last week.",
            "No problem. If it hasn't shipped yet, I can update the *address* on the "
            "*order* right now.",
        ),
        L(
            "I'm calling about a delivery that went wrong. | The box arrived crushed and the "
            "lamp inside is broken.",
            "I'm sorry about the *lamp*. I can send a *replacement* straight away; you don't "
            "need to return the broken one.",
        ),
    ),
    "returns": (
        L(
            "I have a question about a return. | I sent the blender back three weeks ago and "
            "I still haven't had my money back.",
            "Let me look. *Refunds* usually take five days after the *blender* reaches the "
            "warehouse, so something has held it up.",
        ),
        L(
            "I need to return a gift. | I don't have the receipt, but I do have the order "
            "number from the person who bought it.",
            "That works. With the *order number* I can set up the *return* and give you "
            "store credit.",
        ),
    ),
    "account_access": (
        L(
            "Something weird happened with my account. | I got an email saying someone "
            "logged in from another country, and it wasn't me.",
            "Let's secure it now: change your *password*, and I'll sign out every other "
            "*session* on the account.",
        ),
        L(
            "I have two problems with signing in. | The app keeps saying my password is "
            "wrong, and the reset email never arrives.",
            "Check the *spam* folder for the *reset email* first; if it isn't there, I'll "
            "send a new one.",
        ),
    ),
    "technical_fault": (
        L(
            "I've already tried the obvious things. | I restarted the router twice and "
            "unplugged everything, and it still drops every hour.",
            "Thanks for trying that. Since a *restart* didn't help, I'll run a *line test* "
            "and check for faults on our side.",
        ),
        L(
            "I have two questions about the new router. | Which cable goes into which port, "
            "and do I need to keep the old one connected?",
            "The grey *cable* goes into the port marked broadband, and you can disconnect "
            "the *old router* completely.",
        ),
    ),
    "experience": (
        L(
            "I should explain the gap in my CV. | I took a year off to look after my father, "
            "and I did some freelance work during that time.",
            "Thanks for explaining. What kind of *freelance* work did you do during that *year*?",
        ),
        L(
            "My background is a bit unusual for this role. | I started in hospitality and "
            "moved into project work when our hotel opened a second site.",
            "That's an interesting path. What did you manage when the *hotel* opened its "
            "second *site*?",
        ),
    ),
    "strengths": (
        L(
            "There are two things I'm proud of. | I'm very reliable with follow-ups, and I'm "
            "good at spotting risks early.",
            "*Follow-ups* and spotting *risks* early are both key here. How do you keep "
            "track of risks?",
        ),
        L(
            "I want to be honest about something. | Organisation is my strength, but I'm "
            "still building confidence in presenting to large groups.",
            "I appreciate that. What have you done so far to build confidence in *presenting*?",
        ),
    ),
    "conflict": (
        L(
            "Let me tell you about a difficult colleague. | He kept missing handoffs, and the "
            "rest of the team ended up covering for him.",
            "That's hard. How did you raise the missed *handoffs* with him directly?",
        ),
        L(
            "I had a conflict with a client last year. | They wanted a feature we couldn't "
            "deliver on time, and they were quite angry about it.",
            "How did you handle the *client* when you couldn't deliver the *feature* on time?",
        ),
    ),
    "goals": (
        L(
            "I have a clear plan for the next two years. | I want to get a project management "
            "certificate and then take on bigger projects.",
            "A *certificate* is a good step. Which one are you considering?",
        ),
        L(
            "I'll be honest about my goals. | I see this role as a way to move into product "
            "management eventually.",
            "Thanks for being open. What draws you to *product management*?",
        ),
    ),
    "motivation": (
        L(
            "There are two reasons I applied. | I like your focus on sustainability, and the "
            "role would be a step up for me.",
            "Both good reasons. What does *sustainability* mean to you in a project role?",
        ),
        L(
            "I wasn't actually looking for a new job. | A former colleague who works here "
            "told me about the team, and it sounded like a great fit.",
            "That's nice to hear. What did your *colleague* tell you about the *team*?",
        ),
    ),
}
"""Per topic: a complete first sentence, then the rest of the thought."""
