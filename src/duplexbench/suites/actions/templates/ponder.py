"""Take Turn (delayed) material: turns that invite a considered reply.

Each text is spoken as two segments, `"<situation> | <request to think it
over>"`; a reply a few seconds after the user stops is as good as an
immediate one. Replies star their expected terms.
"""

from __future__ import annotations

from duplexbench.suites.actions.templates.model import Line

L = Line

PONDER: dict[str, tuple[Line, ...]] = {
    "travel": (
        L(
            "I've got ten days off in October and can't decide between hiking in the "
            "Dolomites and a beach in Greece. | Have a think and tell me which you'd pick.",
            "I'd pick *Greece*: October is still warm by the sea, while the *Dolomites* start "
            "closing trails.",
        ),
        L(
            "I want to take my parents somewhere for their anniversary, somewhere easy to get "
            "around. | Think it over and tell me what you'd suggest.",
            "Maybe a short *city break* in *Vienna*: compact, easy trams, concerts and cafés.",
        ),
    ),
    "cooking": (
        L(
            "I'm cooking for a friend who's vegan and another who can't eat spicy food. | "
            "Take a moment and suggest one dish that works for both.",
            "A creamy *mushroom* risotto made with *olive oil* and vegetable stock suits both.",
        ),
        L(
            "I've got chicken, a lemon, some potatoes and half a bag of spinach. | Have a "
            "think about what I could make with that.",
            "Roast the *chicken* with *lemon* and potatoes, then wilt the *spinach* in the "
            "pan juices.",
        ),
    ),
    "sports": (
        L(
            "I want to get fitter, but I only have thirty minutes a day and no gym. | Think "
            "about it and tell me what routine you'd suggest.",
            "Try *bodyweight* circuits three days a week and brisk *walking* on the others.",
        ),
        L(
            "My daughter wants to start a sport; she's shy but loves being outdoors. | Have a "
            "think and tell me what might suit her.",
            "*Climbing* or *orienteering* could suit her: outdoors, individual, with a "
            "friendly group.",
        ),
    ),
    "movies": (
        L(
            "I want to show my dad a film he's never seen; he loves westerns and old war "
            "films. | Take a moment and tell me what you'd pick.",
            "Try *The Good, the Bad and the Ugly*; it's the classic *western* people still miss.",
        ),
        L(
            "I'm hosting a film night for six people with really different tastes. | Think "
            "it over and suggest something everyone could enjoy.",
            "Go for a crowd-pleaser like *Paddington 2*: funny, warm, and good for any *taste*.",
        ),
    ),
    "family": (
        L(
            "My brother and I can't agree on whether Mum should move closer to one of us. | "
            "Have a think about how we could decide fairly.",
            "Ask *Mum* what she wants first, then compare practical points like *doctors*, "
            "friends and travel time.",
        ),
        L(
            "My kids fight every single morning about who gets the bathroom first. | Think "
            "about it and tell me what might help.",
            "Try a simple *rota* with set *times*, and swap the order each week.",
        ),
    ),
    "budget": (
        L(
            "We have fifty thousand left and three teams asking for it. | Take a moment and "
            "tell me how you'd split it.",
            "I'd fund the request with the clearest *return* first and split the rest, "
            "keeping a small *reserve*.",
        ),
        L(
            "The board wants a ten percent cut, and we'd rather not touch salaries. | Have a "
            "think about where the cut could come from.",
            "Look at *software* licences we barely use, then *travel* and events, before "
            "anything else.",
        ),
    ),
    "hiring": (
        L(
            "We can hire one senior engineer or two juniors for the same money. | Think it "
            "over and tell me which you'd go for.",
            "With a small team I'd hire the *senior* engineer, who can work alone and "
            "*mentor* later hires.",
        ),
        L(
            "Our best candidate wants a fully remote contract, but the team is in the office "
            "three days a week. | Have a think about how we should handle it.",
            "Offer *remote* work with one office *visit* a month and clear overlap hours.",
        ),
    ),
    "product_launch": (
        L(
            "Two of our biggest customers want early access, but the product isn't fully "
            "stable yet. | Take a moment and tell me what you'd do.",
            "Give them a *beta* with clear caveats and a direct *support* line; it builds "
            "goodwill.",
        ),
        L(
            "We could launch on time with fewer features or wait a month for the full set. | "
            "Think about it and tell me which you'd choose.",
            "I'd launch *on time* with the core features and ship the rest in a quick *update*.",
        ),
    ),
    "schedule": (
        L(
            "Two projects need the same tester in the same two weeks. | Have a think about "
            "how we could sort that out.",
            "Split the *tester*'s weeks by *priority*, and have developers cover basic checks "
            "on the other project.",
        ),
        L(
            "The client wants the demo a week early, and we're already stretched. | Think it "
            "over and tell me how you'd respond.",
            "Offer a smaller *demo* of the finished parts early, with the full *version* on "
            "the original date.",
        ),
    ),
    "incident_review": (
        L(
            "Next sprint we can work on monitoring or on the feature sales promised. | Take "
            "a moment and tell me which you'd prioritise.",
            "I'd prioritise *monitoring*: another *outage* would cost more than a late feature.",
        ),
        L(
            "The engineer whose change caused the outage wants to step back from on-call. | "
            "Have a think about how we should respond.",
            "Keep it *blameless*: reassure them, fix the *process*, and let them choose about "
            "on-call.",
        ),
    ),
    "billing": (
        L(
            "I'm on the basic plan, but I go over my data limit most months. | Take a moment "
            "and tell me whether upgrading would save me money.",
            "If you go over most months, the *upgrade* is probably cheaper than the *extra "
            "data* charges.",
        ),
        L(
            "I can pay yearly with a discount or keep paying monthly. | Think it over and "
            "tell me which makes more sense for me.",
            "If you'll stay a year, *yearly* saves money; *monthly* keeps you flexible.",
        ),
    ),
    "delivery": (
        L(
            "I'm away all next week, and my order is due on Wednesday. | Have a think about "
            "the best way to handle that.",
            "You could send it to a *pickup point* or move the *delivery* until you're back.",
        ),
        L(
            "The sofa can come to the front door, or into the room for extra. | Think about "
            "it and tell me what you'd do.",
            "If you live upstairs, pay for *room* delivery; carrying a *sofa* up stairs is hard.",
        ),
    ),
    "returns": (
        L(
            "I can return the laptop for a refund or swap it for the newer model for a "
            "hundred more. | Take a moment and tell me which you'd choose.",
            "If the *newer model* fixes what bothered you, the *swap* is worth it.",
        ),
        L(
            "The dress came in the wrong colour, but I actually quite like it. | Have a "
            "think: should I keep it or send it back?",
            "If you *like* it and it fits, *keep* it; I can add a small credit for the mix-up.",
        ),
    ),
    "account_access": (
        L(
            "My husband and I share one account, and we keep getting each other's "
            "notifications. | Think it over and tell me how we should set it up.",
            "Best to create a *second* *profile*, so you each get your own notifications.",
        ),
        L(
            "I use the same password everywhere, and now I'm worried. | Take a moment and "
            "tell me what I should do first.",
            "Start with your *email* password, then move the rest into a *password manager*.",
        ),
    ),
    "technical_fault": (
        L(
            "I can wait for an engineer on Friday or try a replacement router myself. | Have "
            "a think and tell me which is more likely to fix it.",
            "Try the *replacement router* first, and keep the *engineer* visit as a backup.",
        ),
        L(
            "The house is big and the wifi doesn't reach the garden office. | Think about it "
            "and tell me what would work best.",
            "A *mesh* system or a powerline *adapter* out to the garden office would work best.",
        ),
    ),
    "experience": (
        L(
            "I've led small projects but never officially managed a team. | Take a moment "
            "and tell me whether that's enough for this role.",
            "Leading *projects* informally counts; I'd want to hear how you guided *people* "
            "without authority.",
        ),
        L(
            "I could tell you about a failed launch or a successful one. | Have a think and "
            "tell me which would be more useful.",
            "Tell me about the *failed* launch; what you *learned* usually says more.",
        ),
    ),
    "strengths": (
        L(
            "I'm not sure whether to present myself as a specialist or a generalist. | Think "
            "it over and tell me what this role needs more.",
            "This role needs a *generalist* who can juggle several *projects* at once.",
        ),
        L(
            "I've been told I'm sometimes too detail-oriented. | Take a moment and tell me "
            "if that would be a problem here.",
            "*Detail* matters here, as long as you know when good enough is enough on *deadlines*.",
        ),
    ),
    "conflict": (
        L(
            "I could describe a conflict I handled well or one I handled badly. | Have a "
            "think and tell me which you'd prefer.",
            "Tell me about the one you handled *badly* and what you'd do *differently*.",
        ),
        L(
            "In my last job my manager and I disagreed about almost everything. | Think it "
            "over: should I even mention that here?",
            "Yes, mention it, and focus on how you kept *working* together and what you *learned*.",
        ),
    ),
    "goals": (
        L(
            "I'm torn between specialising in risk management and moving into people "
            "management. | Take a moment and tell me which fits better here.",
            "Here *people management* has the clearer path, but *risk* skills are valued too.",
        ),
        L(
            "I'd like to study part-time for a master's degree next year. | Think about "
            "whether that would work with this role.",
            "*Part-time* study usually works here; we'd agree *flexible* hours around exams.",
        ),
    ),
    "motivation": (
        L(
            "I have offers from a big company and from a small charity. | Have a think and "
            "tell me what I should weigh up.",
            "Weigh *growth* and stability at the company against the *impact* at the charity.",
        ),
        L(
            "Honestly, the salary here is lower than what I earn now. | Take a moment and "
            "tell me if that's something we could talk about.",
            "Yes, we can discuss *salary* at the offer stage, along with the *benefits*.",
        ),
    ),
}
"""Per topic: a situation, then a request to think it over (take_turn.delayed)."""
