"""The ten physical settings of Ignore and Hold Floor items.

Each has other-directed remarks (the user speaking to someone there, in the
user's own voice) and background chatter (a third party nearby, another
voice). Neither mentions anything a conversation topic would, so the words
only they contain are the item's ignored terms.
"""

from __future__ import annotations

from duplexbench.suites.actions.templates.model import Setting

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "kitchen",
        "in their kitchen",
        remarks=(
            "Honey, can you turn the oven down? The sauce is bubbling over.",
            "Can you pass me the colander, please? The blue one.",
            "Kids, dinner's in ten minutes, go and wash your hands.",
        ),
        chatter=(
            "Has anybody seen the big wooden spoon? It was right here.",
            "The water's boiling, should I put the rice in now?",
            "We're out of milk again, I'll pick some up tomorrow.",
        ),
    ),
    Setting(
        "car",
        "in their car, talking hands-free",
        remarks=(
            "Can you check whether that was our exit? I think we need the next one.",
            "Could you turn the radio down a little, please?",
            "Grab me a water from the back seat, would you?",
        ),
        chatter=(
            "Mum, how much longer until we get there? I'm starving.",
            "And now the traffic: delays of twenty minutes on the northbound bridge.",
            "Can we stop at the petrol station? I need the toilet.",
        ),
    ),
    Setting(
        "open_plan_office",
        "at their desk in an open-plan office",
        remarks=(
            "Hey Sam, can you send me those slides when you get a sec?",
            "Priya, are you still using the stapler? Can I borrow it?",
            "Thanks, just leave the printout on my keyboard.",
        ),
        chatter=(
            "Did anyone book the big meeting room for three o'clock?",
            "The printer on this floor is jammed again, fantastic.",
            "There's cake in the break room, it's Marco's birthday.",
        ),
    ),
    Setting(
        "cafe",
        "at a busy café",
        remarks=(
            "Could I get a glass of tap water as well, please?",
            "Oh, thanks, you can just leave the cup right there.",
            "Excuse me, is this chair free? Can I take it?",
        ),
        chatter=(
            "Large oat latte with an extra shot for Maya!",
            "Sorry, we're all out of the blueberry muffins today.",
            "Can I pay by card? I don't have any cash on me.",
        ),
    ),
    Setting(
        "living_room",
        "in their living room",
        remarks=(
            "Can you pause the telly for a second, please?",
            "Could you let the dog out into the garden? He's whining.",
            "Leave the remote on the sofa when you're done, okay?",
        ),
        chatter=(
            "Coming up after the break: the ten most beautiful beaches in Europe.",
            "Who left their muddy shoes in the hallway again?",
            "Have you seen my phone charger? The white one?",
        ),
    ),
    Setting(
        "street",
        "walking along a busy street",
        remarks=(
            "Sorry, do you know if this bus goes to the central station?",
            "No thanks, I'm not interested, have a good day.",
            "Excuse me, could you let me past? Thank you.",
        ),
        chatter=(
            "Fresh flowers, two bunches for five pounds!",
            "Taxi! Over here, over here!",
            "Did you see the new bakery opened on the corner?",
        ),
    ),
    Setting(
        "train_platform",
        "waiting on a train platform",
        remarks=(
            "Excuse me, is this the platform for the train to Leeds?",
            "Sorry, is anyone sitting here? Can I put my bag down?",
            "Could you watch my suitcase for a second? Thanks so much.",
        ),
        chatter=(
            "The train now arriving at platform two is the eight fifteen to Brighton.",
            "Please stand behind the yellow line at all times.",
            "We apologise for the delay to the service to Cambridge.",
        ),
    ),
    Setting(
        "home_office",
        "in their home office",
        remarks=(
            "Sweetie, I'm on a call, can you play in your room for a bit?",
            "Could you close the door on your way out, please?",
            "Yes, leave the parcel on the stairs, I'll open it later.",
        ),
        chatter=(
            "Did you remember to call the plumber about the sink?",
            "The delivery driver left a box next to the garage.",
            "I'm popping to the shops, do we need anything?",
        ),
    ),
    Setting(
        "park",
        "in a park",
        remarks=(
            "Buddy, leave it! Drop the stick and come here.",
            "Can you push your sister on the swing for a minute?",
            "Don't go near the pond, stay where I can see you!",
        ),
        chatter=(
            "Throw it over here! No, to me, to me!",
            "Ice creams, get your ice creams, two flavours for three pounds!",
            "Has anyone seen a little brown dog with a red collar?",
        ),
    ),
    Setting(
        "shop",
        "in a shop",
        remarks=(
            "Excuse me, where would I find the batteries?",
            "Yes, a bag would be great, thanks.",
            "Could you check if you have these shoes in a size nine?",
        ),
        chatter=(
            "Cleanup needed in aisle five, please, cleanup in aisle five.",
            "Customers, the store will close in fifteen minutes.",
            "Two for one on all the frozen pizzas this week!",
        ),
    ),
)
