"""How the simulated caller phrases things, by behavior profile (the template realizer).

Disfluency follows the profile: ambiguous callers hedge, distracted callers
lose the thread, correction-prone callers repair themselves mid-sentence,
verbose callers pad, time-pressured callers clip. Templates carry `{value}`
(the plan's fact) and, in openings, `{<fact id>}` placeholders; `{task}`,
`{slot}` and `{verb}` are filled in when the item is composed.
"""

from __future__ import annotations

OPEN = {
    "cooperative": ["Hi, I need help with {task}.", "Hello, I'm calling about {task}."],
    "ambiguous": ["Hi, um, I think I need to do {task}?", "Hello, it's about {task}, I guess."],
    "correction_prone": [
        "Hi, I need to sort out, uh, I mean I need help with {task}.",
        "Hello, I'd like to do {task}.",
    ],
    "expert": ["Hi. {task}, please.", "Hello, I need {task} done."],
    "distracted": ["Sorry, hi, yes, I need {task}.", "Hello? Yes, um, {task}."],
    "verbose": [
        "Hi there, thanks for picking up, I'm calling because I need help with {task} today.",
        "Hello, good morning, so I've been meaning to call about {task} for a while now.",
    ],
    "time_pressured": ["Hi, quickly, I need {task}.", "Hello, I'm short on time: {task}."],
}
ANSWER = {
    "cooperative": ["{value}.", "It's {value}.", "That would be {value}."],
    "ambiguous": ["I think it's {value}.", "Probably {value}.", "Um, {value}, I believe."],
    "correction_prone": [
        "It's, uh, sorry, {value}.",
        "{value}, I mean, yes, {value}.",
        "Let me see, {value}.",
    ],
    "expert": ["{value}.", "{value}, yes."],
    "distracted": ["Sorry, what was that? Oh, {value}.", "Um, {value}.", "Right, {value}."],
    "verbose": [
        "Okay, so that would be {value}, if I remember correctly.",
        "Let me think, yes, it's {value}.",
        "Sure, that's {value}.",
    ],
    "time_pressured": ["{value}.", "Quickly: {value}.", "It's {value}, next."],
}
VOLUNTEER = ["The {slot} is {{{fact}}}.", "For the {slot}, it's {{{fact}}}."]
CHANGE = ["I need to change the {slot}: it should be {{{fact}}} now."]
FOLLOW_UP = "I'm calling back to finish what we started last time."
CORRECT = [
    "Sorry, I misspoke, the {slot} is {value}.",
    "Wait, correction, the {slot} is actually {value}.",
    "Oh, no, sorry, the {slot} should be {value}.",
]
BARGE = [
    "Sorry, one second, someone is at the door. Okay, go on.",
    "Hold on, sorry. Okay, please continue.",
]
REVOKE = [
    "Wait, please don't {verb} yet. The {slot} should be {value}.",
    "Hold on, don't {verb}. I need the {slot} to be {value}.",
]
CANCEL = [
    "Actually, please don't {verb} at all. Let's leave it as it is.",
    "Wait, cancel that, I don't want you to {verb} after all.",
]
CLARIFY = ["Sorry, why do you need the {slot}? Anyway,", "What is the {slot} for? Well,"]
BACKCHANNEL = ["Mm-hm, okay.", "Right, okay."]
SIDE_SPEECH = "Hold on, I'm on the phone, honey. Sorry, "
LONG_PAUSE = "Let me check... one moment... "
