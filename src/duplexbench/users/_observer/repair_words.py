"""The words of repair requests, item-independent (read by `repairs.py`).

Regular expressions over normalized text (`cues.normalize`: lower case, words
only, one space around each): the cues of each repair act, with the words
that make them no request (the agent as the subject, a negation, an action
done again), the phonetic alphabet, and the filler words of a request (what
is left names a slot, or nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from duplexbench.users._observer.cues import word_set

_YOU = (
    r"(?:(?:could|can|would|will|might|do|did) you|would you mind|do you mind|if you (?:could|"
    r"can|would|don't mind)|i need you to|i'd like you to|mind|please)"
)
_ADV = r"(?: (?:please|just|maybe|possibly|kindly|quickly|actually|also|perhaps|quite|mind))*"
OPENERS = (
    r"(?:sorry|um+|uh+|er+|oh|so|okay|ok|right|and|hmm+|just|please|hold on|hang on|wait|whoa|"
    r"woah)"
)
_AGAIN = r"(?:again|once more|one more time|one more go|over again)"
_END = (
    r"(?= (?:there|for|a bit|a little|on me|on us|again|just|then|at|a moment|briefly|and|"
    r"sorry|completely|slightly|mid|halfway)\b| $)"
)
"""A line fault ends its clause ("you cut out there", "you broke up a bit"); "you cut off
the water" is no fault of the line."""
_OBJECT = (
    r"(?:that|it|this|those|them|all that|all of that|what you (?:just )?said|"
    r"(?:the|your|their|his|her|that) (?:(?!(?:a|an|to|it|and|or|off|from|on) )\S+ ){0,3}?\S+)"
)
"""What a repeat verb takes: "that", "the reference number", "your email" (no "a": "give
us a call again" is no repeat; nothing read "off the label")."""
SELF = re.compile(
    r"\b(?:let me|let's|i'll|i will|i'm going to|i'm gonna|i am going to|we'll|we will|"
    r"me to|i can|i could|shall i|should i|shall we|i'd|i've|i have|i'm|i am|we're|we can|"
    r"i need to|i just|ill|lets|i|we)\b"
)
TO_YOU = re.compile(r"\b(?:you|please|mind|sorry|pardon)\b")
NEGATED = re.compile(
    r"\b(?:no need to|don't need to|needn't|don't have to|won't have to|without|avoid|never|"
    r"don't|won't|not)(?: \S+)? $"
)
FILLER = word_set(
    """
    a an the and or of for to in on at by with from as is are was were be been it its it's
    this that these those there here what what's which who whom when where how why do does
    did can could would will shall should may might must i i'm i'll i'd i've me my we our
    you you're your they their them he she his her please just so okay ok um uh er oh well
    also then now again sorry pardon excuse apologies quite catch caught hear heard get got
    missed miss say said tell give read repeat repeating spell spelling spelled spelt out
    once more one time bit little last part end first start middle word words letter letters
    digit digits number numbers slowly slower slow down fast quick line go going sure think
    mind need like want let know if thanks thank really very kind way exactly correctly
    properly right write type down jot note system clearly all everything still using use
    phonetic phonetically alphabet nato code broke break breaking cut cutting dropped lost
    went quiet second seconds sec moment connection crackly garbled audio voice sound speak
    up louder afraid apologise apologize understand follow make pick come beg sorry anything
    kind thing sort example something stuff but half rest bits nice clear hang hold wait
    """
)
"""Words of the request itself: a sentence with nothing else names no slot ("could you
repeat the last part for me?"). "number" alone is generic ("read the number slowly")."""
NAME_WORDS = word_set("name names surname surnames first last family full given middle")
PERSON_NAME = re.compile(r"\b(?:(?:first|last|family|full|given|middle|sur) ?name|surname|name)\b")


KIND_WORDS = (
    (re.compile(r"\b(?:e ?mail|email address|inbox)\b"), "email"),
    (re.compile(r"\b(?:phone|mobile|cell|telephone|direct line|number to reach)\b"), "phone"),
    (re.compile(r"\b(?:address|street|postcode|zip code|zip)\b"), "address"),
)
"""A value kind named outright: "the email" is the item's one email, whatever the semantic
layer makes of a sentence about spelling."""
UNSPELLED = frozenset({"enum", "yesno", "date", "time", "count", "money", "percent"})
"""Kinds no one spells or reads digit by digit: a slot of these read for a spelling request
is a misreading ("spell the email" is not the contact preference "email")."""


@dataclass(frozen=True)
class Cue:
    kind: str
    pattern: re.Pattern[str]
    agent_blocks: bool = False
    """Not when the agent is the subject ("let me repeat", "shall I spell it?")."""
    to_caller: bool = False
    """Only when said to the caller ("could you", "please", "sorry") or as an imperative."""


def _cue(kind: str, pattern: str, agent_blocks: bool = False, to_caller: bool = False) -> Cue:
    return Cue(kind, re.compile(pattern), agent_blocks, to_caller)


# ---------------------------------------------------------------- the cues

_NUMBER_OBJECT = (
    r"(?: (?:me|us|it|that|them|those))?(?: (?:the|that|your|those|these|their|his|her)"
    r"(?: \S+){0,3}? (?:number|numbers|digits|figures))"
)
DIGITS_CUES = (
    _cue(
        "DIGITS",
        r"\b(?:digit by digit|number by number|(?:one|a|single) (?:digit|number) at a time|"
        r"(?:digits?|numbers) (?:out |back )?one (?:at a time|by one)|(?:each|every) "
        r"(?:single )?digit|(?:individual|separate) digits|as single digits|digits? (?:separately|"
        r"individually)|(?:two|three|a couple of|a few) digits at a time|(?:in|into) (?:pairs|"
        r"groups) of digits|(?:digits|numbers) in (?:pairs|twos|threes|groups)|pause between "
        r"(?:each|the) (?:digit|number)s?)\b",
        agent_blocks=True,
    ),
    _cue(
        "DIGITS",
        rf"\b(?:read|say|give|go through|read out|repeat|call out|dictate){_NUMBER_OBJECT}"
        r"(?: \S+){0,3}? (?:(?:nice and|really|very|a bit|a little|bit|little) )?"
        r"(?:slowly|slower|more slowly)\b",
        agent_blocks=True,
    ),
    _cue(
        "DIGITS",
        rf"\bslowly (?:read|say|give|go through|read out|repeat){_NUMBER_OBJECT}",
        agent_blocks=True,
    ),
)
NOT_DIGITS = re.compile(r"\b(?:enter|type|key|press|dial|punch|input)\b")
"""Keying digits in is an instruction about a device, not a way of saying them."""

SPELL_CUES = (
    _cue(
        "SPELL",
        r"\bhow (?:do|would|should|did|does|can|could) (?:you|i|we|they|one) (?:\S+ )?spell\b"
        r"|\bhow(?:'s| is| was| are| were| would) (?:(?!(?:a|an) )\S+ ){1,4}?(?:be )?"
        r"(?:spelled|spelt)\b"
        r"|\bhow are you spelling\b"
        rf"|^ (?:{OPENERS} )*(?:is|was) (?:that|it|this) (?:\S+ )?(?:spelled|spelt)\b",
    ),
    _cue(
        "SPELL",
        r"\b(?:spell|(?:mind|you|start|try|be) spelling)\b(?! (?:out (?:what|how|why|where|"
        r"when|which|whether|the (?:terms|details|steps|process|options|plan|conditions|costs|"
        r"changes|next steps|reasons|situation|problem|issue|scope|timeline|rules|policy))))",
        agent_blocks=True,
        to_caller=True,
    ),
    _cue(
        "SPELL",
        r"\b(?:what's|what is|get|have|check|confirm|need|take|grab|give me|go through|run "
        r"through|and) (?:the|your|their|its|that|his|her) (?:exact )?spelling\b(?! (?:mistake|"
        r"mistakes|error|errors|check|issue|is fine|was wrong))",
    ),
    _cue(
        "SPELL",
        r"\b(?:letter by letter|(?:one|a) letter at a time|letter for letter|each letter)\b",
        agent_blocks=True,
    ),
    _cue(
        "SPELL",
        r"\b(?:what are|what were|which are) the letters\b"
        r"|\b(?:read|give|tell|say|go through|run through|walk through|take) (?:me |us )?"
        r"(?:through )?(?:the|its|those|these) letters\b"
        r"|\bletters (?:one|two|a couple|a few) at a time\b",
        agent_blocks=True,
    ),
    _cue(
        "SPELL",
        r"\b(?:need|get|want|like) (?:that|it|this|them|the \S+|your \S+) (?:spelled|spelt)"
        r"(?: out)?\b(?! in\b)",
    ),
)
NOT_SPELL = re.compile(
    r"\b(?:spell(?:ing)? (?:check|checker|mistake|mistakes|error|errors)|spells|spell out the "
    r"next|(?:spelled|spelt) out in|spelling bee)\b"
)

REPEAT_CUES = (
    _cue(
        "REPEAT",
        r"\brepeat(?:ing)? (?:that|it|this|yourself|what|your|their|his|her|those|them|please|"
        r"for|again|once|one|a bit|a little|slowly|slower|more|louder|the (?!(?:process|steps|"
        r"test|tests|order|visit|inspection|procedure|reset|cycle)\b(?! (?:number|code|"
        r"reference|id|date|details|address|time)\b)))|\brepeat(?:ing)? $",
        agent_blocks=True,
        to_caller=True,
    ),
    _cue(
        "REPEAT",
        rf"\b(?:say|saying|give|giving|tell|telling|read|reading)(?: (?:me|us))?(?: {_OBJECT})?"
        rf"(?: (?:out|back|over))? {_AGAIN}\b",
        agent_blocks=True,
        to_caller=True,
    ),
    _cue(
        "REPEAT",
        r"\b(?:go over|go through|run through|take me through) (?:that|it|this|all that|all of "
        rf"that) {_AGAIN}\b|\brun (?:that|it|this) (?:by|past) me {_AGAIN}\b|\bgo back (?:over|"
        r"through|to) (?:that|it|this|what you (?:just )?said)\b",
        agent_blocks=True,
        to_caller=True,
    ),
    _cue(
        "REPEAT",
        rf"\bsay (?:that|it|this)(?: {_AGAIN})?(?: (?:a (?:bit|little) )?(?:louder|slower|more "
        r"slowly|slowly|please|for me|sorry))* $",
        agent_blocks=True,
        to_caller=True,
    ),
    _cue(
        "REPEAT",
        r"\b(?:what|who|when|where|which|how much|how many|how long)(?: \S+){0,2}? (?:was|were|"
        r"is|'s|are)(?: (?!(?:can|could|should|would|will|shall|might|may|'ll|to|going|gonna|"
        r"want|wanna|do|does|did|happen|happens|work|works)\b)\S+){0,6}? (?:again|once more)\b"
        r"|\b(?:what's|who's|when's|where's)(?: (?!(?:can|could|should|would|will|to|going|"
        r"gonna|do|does|did)\b)\S+){0,6}? (?:again|once more)\b",
    ),
    _cue("REPEAT", r"\bwhat did you (?:just )?say\b(?! to\b)"),
    _cue(
        "REPEAT",
        r"\b(?:only|just) (?:got|caught|heard) (?:half|part|some|bits|the (?:start|end|first "
        r"(?:bit|part)|last (?:bit|part))) of (?:that|it|what you said)\b"
        r"|\bgot the (?:first|last) (?:bit|part) but not the rest\b",
    ),
    _cue(
        "REPEAT",
        rf"^ (?:{OPENERS} )*(?:sorry|i'm sorry|pardon|pardon me|excuse me|apologies|my "
        r"apologies|sorry about that)(?: \S+){0,2}? (?:what|who|when|where|which|how much|how "
        r"many)(?: \S+)? (?:was|were|did you say|did you give)\b(?! (?:i|we)\b)",
    ),
    _cue(
        "REPEAT",
        r"\bwhat (?:was|were) (?:that|those|it)(?: again| you said| last (?:part|bit|word))?"
        r"(?: sorry| please)? $|\bsorry (?:\S+ )?what's that $",
    ),
    _cue(
        "REPEAT",
        r"(?:^ |\bi |\bsorry |\bafraid i )(?:\S+ )?(?:didn't|did not|couldn't|could not|don't "
        r"think i|not sure i|wasn't able to|didn't manage to|can't|cannot|never) (?:\S+ )?"
        r"(?:quite )?(?:catch|caught|make out|made out|make (?:that|it|you|what you said) out|"
        r"pick up|picked up)\b(?! on\b)",
    ),
    _cue(
        "REPEAT",
        r"(?:^ |\bi |\bsorry |\bafraid i )(?:\S+ )?(?:didn't|did not|couldn't|could not|don't "
        r"think i|not sure i|wasn't able to|can't|cannot) (?:quite |really |fully |properly |"
        r"clearly )?(?:get|got|hear|heard|understand|follow) (?:that|it|this|you|all|all of that|"
        r"any of that|everything|what you|the last|the end|the whole|a word|your|the (?!(?:"
        r"invoice|email|payment|confirmation|letter|parcel|package|delivery|message|text|form|"
        r"chance|call) )\S+)\b(?! (?:back|from|about|to)\b)",
    ),
    _cue(
        "REPEAT",
        r"\b(?:i|sorry|think i|may have|might have|must have)(?: (?!(?:you|they|he|she|it|we|the|"
        r"your|their)\b)\S+){0,3} missed (?!(?:your|a|the|"
        r"my|our|their) (?:call|calls|deadline|payment|payments|appointment|delivery|meeting|"
        r"flight|train|bus|visit|window|email|message|messages)\b)\S+",
    ),
    _cue(
        "REPEAT",
        r"\byou(?:'re| are| were)? (?:just |kind of |sort of )?(?:broke|break|breaking|cut|"
        r"cutting|dropped|dropping|went|kept|keep|faded|fading|fade) (?:up|out|off|quiet|silent|"
        r"all crackly|a bit "
        rf"crackly|cutting out|breaking up|dropping out){_END}"
        r"|\byou(?:'re| are) (?:quite |very |really |a bit |a little |so )?(?:faint|muffled|"
        r"crackly|breaking up|cutting out)\b"
        r"|\b(?:that|it|you|your voice|the last bit) (?:didn't|did not) (?:quite |really )?come "
        r"(?:through|across)\b"
        r"|\blost you\b|\b(?:the|our|this) (?:line|call) (?:just )?(?:dropped|cut out|went "
        r"(?:a bit |all )?(?:quiet|dead|silent|funny|weird|crackly|fuzzy)|broke up|crackled|"
        rf"glitched){_END}"
        r"|\bbad (?:line|connection)(?= (?:there|sorry|here|on my|on your|on our)\b| $)"
        r"|\b(?:it|that|the audio|your voice|your line|the sound) (?:just )?(?:broke up|cut "
        r"out|dropped out|got garbled|came through garbled|was garbled|got cut off|went (?:a bit "
        rf"|all )?(?:funny|weird|crackly|fuzzy|quiet|silent)){_END}",
    ),
    _cue(
        "REPEAT",
        r"\b(?:you|please)(?: \S+){0,2} speak up\b|\bspeak up(?: a (?:bit|little))?(?: please| "
        r"for me| sorry)? $|\b(?:speak|talk|say (?:that|it)|repeat (?:that|it)|go) (?:a (?:bit|"
        r"little|touch) )?louder\b|\blouder(?: please| for me| sorry)? $",
        agent_blocks=True,
    ),
    _cue(
        "REPEAT",
        r"\b(?:the|that) (?:last|final|end|middle|second|first|other) (?:part|bit|piece|half|"
        r"section|word|couple of words|few words|few digits|few letters)\b(?! of\b)"
        r"(?=.*\b(?:what|repeat|say|again|catch|hear|missed|sorry|once more)\b)"
        r"|\b(?:what|which) (?:was|were) (?:the|that) (?:last|final) (?:part|bit|few|couple)\b",
    ),
    _cue(
        "REPEAT",
        rf"^ (?:{OPENERS} )*(?:the|your|their|his|her|that) (?:\S+ ){{1,4}}?{_AGAIN}"
        r"(?: please| sorry| for me)? $",
    ),
    _cue(
        "REPEAT",
        r"(?<!\bto )(?<!\bwill )(?<!'ll )(?<!\bcan )(?<!\bplease )(?<!\bwould )(?<!\bcould )"
        r"(?<!\bdo )\bcome again(?: please| sorry)? $"
        rf"|^ (?:{OPENERS} )*(?:say again|one more time|once more|again|say what|you what|beg "
        r"your pardon|i beg your pardon)(?: please| sorry| for me)? $",
    ),
)
BARE = re.compile(
    r"^ (?:(?:um+|uh+|oh|er+|hmm+|so|very|i'm|sorry|so sorry|really sorry) )*(?:sorry|pardon|"
    r"pardon me|excuse me|what|huh|sorry what|sorry pardon)(?: (?:again|there|please|sorry))? $"
)
"""A bare "Sorry?" or "pardon?" (with a question mark, or without any punctuation as ASR
writes it); "Sorry." and the clause "Sorry," are an apology or its start."""

SLOWER_CUES = (
    _cue(
        "SLOWER",
        rf"(?:{_YOU}{_ADV} (?:\S+ )?|\bplease |^ (?:{OPENERS} )*)slow (?:it |things )?down\b"
        r"|\bslow down (?:a (?:bit|little|touch|tad|fraction|second|sec|moment)|please|for me|"
        r"just a)\b",
        agent_blocks=True,
        to_caller=True,
    ),
    _cue(
        "SLOWER",
        r"\b(?:go|going|speak|speaking|talk|talking|say|saying|read|reading|repeat|repeating|"
        r"take it|take that|do that|run through|give|dictate|spell|spelling|go through)(?: (?:it|"
        r"that|them|those|this|it all|things|everything))?(?: out| again)? (?:a (?:bit|little|"
        r"touch|tad) |"
        r"bit |little |much |even |just )?(?:slower|more slowly|slowly)\b",
        agent_blocks=True,
        to_caller=True,
    ),
    _cue(
        "SLOWER",
        rf"^ (?:{OPENERS} )*(?:a (?:bit|little|touch|tad) |bit |little |much |even )?"
        r"(?:slower|more slowly)(?: please| for me| if you (?:can|could|don't mind)| sorry)* $",
    ),
    _cue(
        "SLOWER",
        r"\byou(?:'re| are| were) (?:going|talking|speaking|reading|rattling|racing|rushing)"
        r"(?: \S+){0,2}? (?:(?:too|very|really|quite|a bit|a little|so|pretty|way too|far too) )*"
        r"(?:fast|quick(?:ly)?)\b|\b(?:a bit|a little|bit|little|too|way too|far too|rather|bit "
        r"too) (?:fast|quick) for me\b|\bthat was (?:(?:a bit|a little|way|far|much) )?too "
        r"(?:fast|quick)\b|\bnot so fast\b",
    ),
)
NOT_SLOWER = re.compile(r"\btake your time\b")

NATO = word_set(
    """
    alpha alfa bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima
    mike november oscar papa quebec romeo sierra tango uniform victor whiskey whisky xray
    yankee zulu
    """
)
NATO_WORD = re.compile(r"\b(?:" + "|".join(sorted(NATO)) + r")\b")
PHONETIC_STRONG = re.compile(
    r"\b(?:phonetic(?:ally|s)?|nato|(?:military|radio|police|spelling) alphabet|words? for "
    r"(?:the|each|every) letters?|(?:a|one) word (?:for|per) (?:each |every )?letter|alpha "
    r"bravo|alfa bravo)\b"
)
PHONETIC_WEAK = re.compile(r"\b(?:using|with|in|use) (?:code |real |simple )?words\b")
"""Only with a request to spell: "the amount in words" alone is no spelling."""
AS_IN = re.compile(r"\b([a-z]) (?:as in|for|like) ([a-z][a-z-]+)\b")
AGENT_SPELLS = re.compile(
    r"^ (?:(?:so|okay|ok|right|and|great|got it) )*(?:that's|that is|i have|i've got|i've|"
    r"let me|i'll|we have|it's|so it's|here's|i'm)\b"
)
MAX_LETTER_CHECK_WORDS = 12
"""A letter check on its own ("N as in Nancy?") is short; longer is the agent spelling."""


OFFER = re.compile(
    r"\b(?:shall i|should i|do you want me to|would you like me to|want me to|like me to|"
    r"can i|could i|happy to|i'm happy to|i can|i could)(?: (?:just|quickly|also))? (?:repeat|"
    r"spell|read|go over|go through|say|run through)\b"
)
