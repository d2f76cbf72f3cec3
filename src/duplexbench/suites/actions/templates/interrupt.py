"""Interrupt situations: hazards (household and driving) and help needs.

Each is told inside a narration: the user says what they are doing
(`before`), then states the hazard or mistake clearly (`statement`, whose
end is the target point), then carries on talking as if nothing were wrong.
The reply is an intervention that names the problem and what to do instead.
"""

from __future__ import annotations

from duplexbench.suites.actions.templates.model import Situation

S = Situation

HOUSEHOLD: tuple[Situation, ...] = (
    S(
        "kitchen",
        "in their kitchen",
        "Sorry, I'm cooking dinner while we talk.",
        "I've put a pan of oil on the stove on full heat, and I'm popping out to the garden "
        "while it warms up.",
        "Please don't leave that pan! *Oil* on full heat can catch fire in minutes; turn the "
        "*stove* off before you go outside.",
    ),
    S(
        "laundry_room",
        "in their laundry room",
        "I'm doing the ironing while we chat.",
        "I've left the iron face down on my good shirt, switched on, while I go and look for "
        "hangers.",
        "Go back and lift the *iron* off the shirt; face down and switched on it can scorch it "
        "and start a fire. Stand it up or *unplug* it.",
    ),
    S(
        "living_room",
        "in their living room",
        "It's absolutely freezing in here today.",
        "I've pushed the space heater right up against the curtains so the room warms up faster.",
        "Please move the *heater* away from the *curtains*; fabric that close can catch fire. "
        "Keep about a metre clear around it.",
    ),
    S(
        "bathroom",
        "in their bathroom",
        "Sorry, I'm cleaning the bathroom at the same time.",
        "I'm mixing the bleach with some ammonia cleaner in a bucket to make it extra strong.",
        "Please stop: mixing *bleach* and *ammonia* releases a toxic gas. Open a window and "
        "leave the room if you smell anything.",
    ),
    S(
        "home",
        "at home, downstairs",
        "I'm running a bath for later, by the way.",
        "The bath taps are on full upstairs, and I'll just leave them until we're done talking.",
        "Please turn the *bath* off first; on full it can *overflow* within minutes and flood "
        "the floor.",
    ),
    S(
        "living_room",
        "in their living room",
        "I've made the living room nice and cosy tonight.",
        "There's a lit candle on the windowsill, and the curtain keeps blowing onto it in the "
        "draught.",
        "Please blow out the *candle* or move it away from the *curtain* now; it could easily "
        "catch fire.",
    ),
    S(
        "kitchen",
        "in their kitchen",
        "My toddler is playing on the kitchen floor next to me.",
        "She's got the box of dishwasher pods open and she's squeezing them like toys.",
        "Please take the *pods* away from her now; they're poisonous if she bites one. If any "
        "gets in her mouth, call *poison* control.",
    ),
    S(
        "kitchen",
        "in their kitchen",
        "I'm just heating up some lunch.",
        "I've put my soup in the microwave, still in its metal tin, for five minutes.",
        "Stop the *microwave*: *metal* in there can spark and start a fire. Pour the soup into "
        "a bowl first.",
    ),
    S(
        "garage",
        "in their garage",
        "I'm warming the car up before I head out.",
        "I've left the engine running in the garage with the door shut so it's warm when I get in.",
        "Please open the *garage* door or switch off the *engine* now; exhaust fumes build up "
        "fast in a closed space.",
    ),
    S(
        "home_office",
        "in their home office",
        "I'm changing a light bulb while we talk.",
        "I'm standing on my wheelie office chair to reach the ceiling light, and it's a bit "
        "wobbly.",
        "Please get down; a *chair* on wheels can roll out from under you. Use a *ladder* or a "
        "steady step instead.",
    ),
)
"""Household hazards (interrupt.safety)."""

DRIVING: tuple[Situation, ...] = (
    S(
        "car",
        "driving their car",
        "I'm driving to work right now, by the way.",
        "I'm just going to type a reply to my sister's text while I drive, it'll only take a "
        "second.",
        "Please don't *text* while you're *driving*; even a second with your eyes off the road "
        "is dangerous. Reply once you've stopped.",
    ),
    S(
        "car",
        "driving their car",
        "I've been on the road since five this morning.",
        "I keep nodding off at the wheel for a second, but I'll push through, it's only two "
        "more hours.",
        "Please pull over somewhere safe and *rest*; nodding off at the *wheel* is extremely "
        "dangerous. Even a twenty-minute nap helps.",
    ),
    S(
        "car",
        "driving their car on the motorway",
        "I'm on the motorway on the way to my cousin's.",
        "Oh no, I've missed my exit, so I'll just stop on the hard shoulder and reverse back "
        "to it.",
        "Please don't *reverse* on the *motorway*; it's very dangerous. Carry on to the next "
        "*exit* and turn around there.",
    ),
    S(
        "car",
        "driving their car",
        "I'm driving round the ring road at the moment.",
        "I'm typing the new address into the sat nav with one hand while I drive.",
        "Please don't type into the *sat nav* while you're *driving*; pull over first, or use "
        "voice input.",
    ),
    S(
        "car",
        "driving their car on an icy morning",
        "The roads are really icy this morning.",
        "I'm doing eighty on the motorway to make up time, even though the car slid a bit earlier.",
        "Please *slow* down; on *ice* your braking distance is many times longer, and the car "
        "has already slid once.",
    ),
    S(
        "car",
        "driving their car",
        "I've got both kids in the back today.",
        "The little one didn't want his car seat, so he's sitting on his brother's lap for "
        "this trip.",
        "Please stop and put him in his *car seat*; without it, even a small bump could hurt "
        "him badly.",
    ),
)
"""Driving hazards (interrupt.safety)."""

HAZARDS: tuple[Situation, ...] = HOUSEHOLD + DRIVING

HELP: tuple[Situation, ...] = (
    S(
        "home_office",
        "in their home office",
        "Sorry, I'm paying the rent while we talk.",
        "I'm sending it to the account on last year's invoice, even though the landlord "
        "emailed to say they'd changed banks.",
        "Wait, before you send it: the landlord *changed* banks, so use the *new* account from "
        "their *email*, or the rent may go astray.",
    ),
    S(
        "home_office",
        "in their home office",
        "I'm just answering an email from HR.",
        "I'm about to hit reply all with my salary numbers, and there are forty people on "
        "that thread.",
        "Hold on, don't hit *reply all*: forty people would see your *salary*. Reply only to *HR*.",
    ),
    S(
        "living_room",
        "in their living room",
        "I'm trying to stop my streaming subscription from renewing.",
        "I've gone through every menu four times now and I still can't find where to turn "
        "off auto-renewal.",
        "It's usually under *Account*, then *Subscription*; look for *auto-renew* there and "
        "switch it off.",
    ),
    S(
        "kitchen",
        "in their kitchen",
        "I have to submit a form for my visa today.",
        "The upload closes at noon and it's already eleven fifty, but I'll finish my coffee first.",
        "It's ten to *noon*: upload the *form* now, before the *deadline*, and finish the "
        "coffee after.",
    ),
    S(
        "home_office",
        "in their home office",
        "I've been writing my report all afternoon.",
        "I'm about to shut the laptop, and I don't think I've saved the report even once.",
        "Before you close it, *save* the *report*; an afternoon of work could be lost.",
    ),
    S(
        "home_office",
        "in their home office",
        "I'm finishing a job application at the same time.",
        "I'm going to submit it now without the portfolio, even though the posting says it's "
        "required.",
        "Hold on: the *portfolio* is required, so *attach* it before you submit, or they may "
        "reject the application.",
    ),
    S(
        "living_room",
        "in their living room",
        "I'm buying concert tickets on my phone right now.",
        "I've picked the Saturday show, but I'm fairly sure I'm working that day, and the "
        "tickets are non-refundable.",
        "Check the *date* first: if you're working on *Saturday*, pick another show, since the "
        "tickets are *non-refundable*.",
    ),
    S(
        "home_office",
        "in their home office",
        "I'm setting up a call with a new client in Tokyo.",
        "I'm booking it for nine in the morning my time, which is eleven at night for them.",
        "Wait, that's *eleven at night* in *Tokyo*; offer your late afternoon instead, which "
        "is their morning.",
    ),
    S(
        "living_room",
        "in their living room",
        "I'm trying to connect the new printer to the wifi.",
        "I've typed the wifi password six times now and it keeps saying it's wrong.",
        "Passwords are case-sensitive, so check the *capital* letters, and use the *password* "
        "printed on the *router*.",
    ),
    S(
        "street",
        "parking in town",
        "I'm just parking in town.",
        "I'm leaving the car in the loading bay for a couple of hours, the sign says loading "
        "only until six.",
        "That *loading bay* is loading only, so you could get a *ticket* or be towed; find a "
        "normal space or a *car park*.",
    ),
    S(
        "kitchen",
        "in their kitchen",
        "I'm baking bread for the party tonight.",
        "I'm putting in a tablespoon of salt, although the recipe says a teaspoon.",
        "That's three times too much *salt*; the recipe says a *teaspoon*, so take some back out.",
    ),
    S(
        "home_office",
        "in their home office",
        "I just got a text from my bank.",
        "It says my account is locked, so I'm typing my card details into the link they sent.",
        "Stop, please don't enter your *card* details: banks don't send *links* like that. It "
        "looks like a *scam*; call the number on your card.",
    ),
)
"""Mistakes the user is heading for, or a struggle (interrupt.help)."""
