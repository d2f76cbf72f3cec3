"""Cues of Stop, Hold Floor and Recover, and the reply frames that follow them.

Cues are what the user says while the agent is answering a lead-in (see
`leadins.py`). Reply frames take the lead-in's `gist` (a lower-case clause)
or `example` (a sentence); `shift_topic` cues take a topic's `shift` text.
`FOLLOW_UPS` are per-topic news the agent should ask about (ask_follow_up).
"""

from __future__ import annotations

from duplexbench.suites.actions.templates.model import Line

L = Line

STOP_CUES: tuple[str, ...] = (
    "Sorry, stop there for a second.",
    "Hang on, stop for a moment.",
    "Wait, sorry, can you stop there?",
    "Sorry, hold on a second.",
    "Stop, stop, just a second.",
)
STOP_MORE: tuple[str, ...] = (
    "I need to check something on my end.",
    "Someone's at the door.",
    "Let me grab a pen first.",
    "I just want to read back what you said.",
    "My other phone is ringing.",
)
"""Optional second segment of a Stop cue."""
STOP_REPLIES: tuple[str, ...] = (
    "Of course, take your time.",
    "Sure, I'll wait.",
    "No problem, go ahead.",
    "Sure, let me know when you're ready.",
)

HOLD_CUES: dict[str, tuple[str, ...]] = {
    "continue": ("Mm-hmm.", "Uh-huh.", "Right.", "Okay.", "Yeah."),
    "shorten": (
        "Mm, the short version is fine.",
        "Mm-hmm, just the gist is fine.",
        "Okay, keep it brief, I'm in a bit of a rush.",
        "Right, just the main point is fine.",
    ),
    "simplify": (
        "In plain words, please.",
        "Hmm, in simpler terms?",
        "Mm, can you say that more simply?",
        "Sorry, in plain English?",
    ),
}
"""User cues of the hold-floor conditions spoken by the user."""

HOLD_REPLIES: dict[str, tuple[str, ...]] = {
    "continue": (
        "So, as I was saying, {gist}.",
        "And the main thing is, {gist}.",
        "Right, so {gist}.",
    ),
    "shorten": ("Sure, in short: {gist}.", "Short version: {gist}."),
    "simplify": ("In plain words: {gist}.", "Put simply, {gist}."),
    "ignore_distractor": ("So, {gist}.", "And basically, {gist}."),
}
"""What the agent says after a hold-floor cue, by adaptation."""

RECOVER_CUES: dict[str, tuple[str, ...]] = {
    "wrap_up": (
        "Sorry, I need to leave in a minute.",
        "Sorry, I've only got a minute before I have to go.",
        "Oh, sorry, I have to run soon.",
        "Sorry, I'm almost out of time.",
    ),
    "repeat": (
        "Sorry, I missed that, what was the last part?",
        "Sorry, the line cut out, can you say that last bit again?",
        "Wait, I didn't catch the last part.",
        "Sorry, could you repeat that last bit?",
    ),
    "enrich": (
        "Can you give me an example?",
        "Could you give me a concrete example of that?",
        "Hmm, what would that look like in practice?",
        "Sorry, can you make that more concrete?",
    ),
    "shift_topic": (
        "Actually, can we talk about {shift} instead?",
        "Sorry, before we go on, can we switch to {shift}?",
        "Actually, I'd rather talk about {shift} now.",
    ),
}
"""Generic recover cues (revise and ask_follow_up cues are per topic)."""

RECOVER_REPLIES: dict[str, tuple[str, ...]] = {
    "wrap_up": (
        "No problem, I'll be quick: {gist}. We can pick this up another time.",
        "Of course. In one sentence: {gist}. Talk soon!",
    ),
    "repeat": ("Sure. The last part was that {gist}.", "Of course. I said that {gist}."),
    "enrich": ("Sure. {example}", "Of course. {example}"),
}

FOLLOW_UPS: dict[str, tuple[Line, ...]] = {
    "travel": (
        L(
            "Oh, by the way, I've decided to take the train instead of flying.",
            "Oh, the *train*! What made you decide that, and do you need help with *tickets*?",
        ),
        L(
            "Oh, I should say, my brother might come along now.",
            "Nice, your *brother*! Will he join for the whole *trip* or just part of it?",
        ),
    ),
    "cooking": (
        L(
            "Oh, I just found out one of the guests is gluten-free.",
            "Good to know. Is the *gluten*-free diet for an *allergy*, or a preference?",
        ),
        L(
            "Actually, I've decided to have my birthday dinner outside in the garden.",
            "In the *garden*, lovely! Will you cook on a *barbecue* out there?",
        ),
    ),
    "sports": (
        L(
            "Oh, by the way, I've signed up for a triathlon in the autumn.",
            "A *triathlon*! Which distance, and how's your *swimming*?",
        ),
        L(
            "Oh, I forgot to say, my physio told me to rest my ankle for a month.",
            "Oh no, your *ankle*! What happened, and can you still *swim* or cycle?",
        ),
    ),
    "movies": (
        L(
            "Oh, I've decided to cancel my streaming subscription.",
            "Oh, you're *cancelling*? Was it the *price*, or not enough good shows?",
        ),
        L(
            "Oh, by the way, a friend just offered me tickets to a film premiere.",
            "A *premiere*! Which *film* is it?",
        ),
    ),
    "family": (
        L(
            "Oh, by the way, we're expecting our second baby in the spring.",
            "Congratulations! How is your first child taking the news about the *baby*?",
        ),
        L(
            "Oh, I've decided my mum will move in with us next year.",
            "That's a big step. How does your *mum* feel about the *move*?",
        ),
    ),
    "budget": (
        L(
            "By the way, finance just told me our budget is frozen until July.",
            "Frozen until *July*? Does that include spending that's already *approved*?",
        ),
        L(
            "Oh, I've decided we're dropping the trade show this year.",
            "Dropping the *trade show*? What will we do with that *money* instead?",
        ),
    ),
    "hiring": (
        L(
            "By the way, our top candidate just accepted another offer.",
            "That's a shame. Do we go back to the *second* *candidate*, or reopen the role?",
        ),
        L(
            "Oh, I've decided we'll hire a contractor for the first six months.",
            "A *contractor* first? Would we want to make them *permanent* afterwards?",
        ),
    ),
    "product_launch": (
        L(
            "By the way, our biggest competitor launched something similar yesterday.",
            "Really? How close is the *competitor*'s product, and does it change our "
            "*launch* date?",
        ),
        L(
            "Oh, I've decided to drop the mobile app from the first release.",
            "Dropping the *mobile app*? When would it ship instead?",
        ),
    ),
    "schedule": (
        L(
            "By the way, two developers are off sick this week.",
            "Two people *off sick*? Which *tasks* are they on, and can anyone cover?",
        ),
        L(
            "Oh, I've agreed with the client to add a second demo.",
            "A *second demo*? When is it, and what do they want to see?",
        ),
    ),
    "incident_review": (
        L(
            "By the way, the same error happened again last night.",
            "Again *last night*? Was it the same *service*, and did it recover on its own?",
        ),
        L(
            "Oh, I've decided we'll freeze deploys until the review is done.",
            "A *deploy freeze*? Do we need an exception for urgent *fixes*?",
        ),
    ),
    "billing": (
        L(
            "Oh, by the way, I'm moving abroad next month.",
            "Oh, *abroad*! Which country, and do you want to keep the *account* open?",
        ),
        L(
            "Actually, I've decided to cancel the TV package.",
            "Cancelling the *TV package*? Is it the *price*, or do you not use it much?",
        ),
    ),
    "delivery": (
        L(
            "Oh, by the way, I won't be home on Thursday after all.",
            "Not home on *Thursday*? Which *day* would work better for you?",
        ),
        L(
            "Actually, I've decided to pick it up from the depot myself.",
            "From the *depot*? What *time* would you go, so it's ready for you?",
        ),
    ),
    "returns": (
        L(
            "Oh, I've decided I'd rather have store credit than a refund.",
            "Store *credit* then. Would you like it on your *account* or as a gift card?",
        ),
        L(
            "By the way, the thing I'm returning was a gift.",
            "A *gift*, okay. Do you have the *order number* from the person who bought it?",
        ),
    ),
    "account_access": (
        L(
            "Oh, by the way, I think someone else might know my password.",
            "That's important. Do you know *who* might know it, and have you seen any odd "
            "*activity*?",
        ),
        L(
            "Actually, I've decided to close this account and open a new one.",
            "*Close* it? Is that because of the sign-in *problems*, or something else?",
        ),
    ),
    "technical_fault": (
        L(
            "Oh, by the way, the neighbours have exactly the same problem.",
            "The *neighbours* too? Are they with the same *provider*? That points to a line fault.",
        ),
        L(
            "Actually, I've decided to switch to fibre next month.",
            "*Fibre*, nice. Do you already have an installation *date*?",
        ),
    ),
    "experience": (
        L(
            "Oh, I should mention I also ran a small business for two years.",
            "Interesting! What kind of *business* was it, and what did you *learn* running it?",
        ),
        L(
            "By the way, I've just finished a course in data analysis.",
            "Great. How have you used *data analysis* in your work so far?",
        ),
    ),
    "strengths": (
        L(
            "Oh, I should say, I also speak fluent Spanish.",
            "That's useful. Have you used your *Spanish* at *work* before?",
        ),
        L(
            "By the way, my last manager has offered to be a reference.",
            "That's great. What do you think your *manager* would say about you?",
        ),
    ),
    "conflict": (
        L(
            "Oh, I should mention that the colleague I told you about later became my manager.",
            "Interesting! How did things go once he became your *manager*?",
        ),
        L(
            "By the way, I actually left that job partly because of that conflict.",
            "I see. How did you decide that *leaving* was the right call?",
        ),
    ),
    "goals": (
        L(
            "Oh, by the way, I've just been accepted onto an MBA programme.",
            "Congratulations on the *MBA*! Would you study *part-time* alongside this role?",
        ),
        L(
            "Actually, I've decided I want to stay hands-on rather than manage people.",
            "Good to know. What kind of *hands-on* work would you like to grow into?",
        ),
    ),
    "motivation": (
        L(
            "Oh, by the way, I've also applied to two other charities.",
            "Thanks for telling me. What would make you choose us over the other *charities*?",
        ),
        L(
            "Actually, I've decided I'd be open to relocating for this role.",
            "That's helpful. Which *cities* would you consider *relocating* to?",
        ),
    ),
}
"""Per topic: news or a decision the agent should ask about (recover.ask_follow_up)."""
