"""Dialogue-act cues: the form of a sentence, independent of any item.

Everything here reads plain words, with or without punctuation or capitals
(ASR transcripts often have neither): is it a question or a request, which
wh-word asks (who, when, where, how many, ...), does it ask to confirm, read
back, approve, or take leave. The layers combine these with what the item
says (slots, values, actions).
"""

from __future__ import annotations

import re

_SENTENCE = re.compile(r"(?:[^.?!]|[.?!]+(?=[^\s.?!]))+[.?!]*")
"""A sentence ends at . ? or ! followed by a space or the end: "12.50", "n.okafor@example.com"
and "555.123.4567" stay whole."""
_NON_WORD = re.compile(r"[^a-z0-9']+")
_CONTRACTIONS = (
    (re.compile(r"\b(what|who|where|when|how|that|there)s\b"), r"\1's"),
    (re.compile(r"\b(you|they)ll\b"), r"\1'll"),
    (
        re.compile(r"\b(don|can|won|isn|aren|didn|doesn|hasn|haven|wouldn|couldn|shouldn)t\b"),
        r"\1't",
    ),
    (re.compile(r"\bim\b"), "i'm"),
    (re.compile(r"\b(you|they)re\b"), r"\1're"),
    (re.compile(r"\b(you|we|they)ve\b"), r"\1've"),
    (re.compile(r"\b(you|they)d\b"), r"\1'd"),
)
"""ASR transcripts drop apostrophes; these are restored where the bare form is not a word
of its own ("its", "id", "ill", "well", "were" are left alone)."""


def normalize(text: str) -> str:
    """Lower case, words and digits only, apostrophes straightened, single spaces, padded
    with one space each side (so `" name "` finds whole words). ASR-style contractions
    without apostrophes ("whats", "youll") are restored."""
    low = text.casefold().replace("’", "'").replace("‘", "'")
    low = " " + _NON_WORD.sub(" ", low).strip() + " "
    for pattern, repl in _CONTRACTIONS:
        low = pattern.sub(repl, low)
    return low


def sentences(text: str) -> list[str]:
    """The sentences of an utterance, punctuation kept."""
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


_CLAUSE_START = (
    r"(?:^ |(?:okay|ok|alright|all right|right|great|perfect|thanks|thank you|got it|"
    r"lovely|good|sure|fine|cool|noted|wonderful|brilliant|excellent|super|so|and|now|then|"
    r"next|also|um+|uh+|hmm+|oh|well|yes|yeah) )"
)
_WH_LEAD = (
    r"(?:(?:between|under|in|on|at|for|from|by|to|with|about|around|roughly|approximately|"
    r"exactly|just) )?"
)
"""A preposition or hedge before the wh-word: "between what times ...", "roughly how many"."""
_WH_OPEN = re.compile(
    _CLAUSE_START
    + r"+"
    + _WH_LEAD
    + r"(what|what's|which|when|where|who|who's|whom|whose|how|how's|why)\b"
    + r"|^ "
    + _WH_LEAD
    + r"(what|what's|which|when|where|who|who's|whom|whose|how|how's|why) "
)
_WH_FIRST = re.compile(
    r"^ (?:(?:okay|ok|alright|so|and|now|also|um+|uh+|great|perfect|thanks|got it|right) )*"
    + _WH_LEAD
    + r"(what|what's|which|when|where|who|who's|whom|whose|how|how's|why) "
)
_AUX_OPEN = re.compile(
    r"^ (?:(?:okay|ok|alright|so|and|now|also|um+|uh+|great|perfect|thanks|got it|right) )*"
    r"(could|can|would|will|do|does|did|is|are|was|were|may|might|shall|should|have|has|"
    r"any chance|is there|are there)\b"
)
_REQUEST = re.compile(
    r"\b(i'll need|i will need|i need|we need|we'll need|i'd need|next i need|i'd like|"
    r"i would like|let's get|let's grab|let's have|let's do|let's take|let's start with|"
    r"let's move on to|let's go to|let's (?:also )?(?:nail|pin|sort|go|run|talk|pick|fill|"
    r"work|figure|set|lock|cover|note|jot|write|add|put)|"
    r"moving on to|next up|next is|now for|on to|"
    r"may i have|can i have|can i get|could i get|could i have|can i grab|could i grab|"
    r"please give|please tell|please provide|please confirm|please read|"
    r"give me|tell me|read me|walk me through|"
    r"run me through|fill me in|let me know|i'm going to need|i'm gonna need|need to get|"
    r"need to know|want to get|want to know|wanted to ask|i'd love to know|"
    r"do you happen to|do you know|do you have|any idea|mind telling|mind giving|"
    r"remind me|i'll also need|i also need|what about|how about)\b"
)
_ELLIPTIC = re.compile(
    r"^ (?:(?:oh|okay|ok|great|thanks|got it|perfect|right) )*(?:and|also|plus|next|now) "
    r"(?:(?:also|then|next) )?(?:the|your|their|his|her|its|our|a|an) "
)
_FINITE = re.compile(r" (is|are|was|were|comes|came|has|have|had|will|won't|depends|goes|'s) ")
MAX_ELLIPTIC_WORDS = 7
_WH_WORD = re.compile(
    r"\b(what|what's|which|when|where|who|who's|whom|whose|how many|how much|how long|"
    r"how often|how|why)\b"
)

WH_CLASSES = {
    "who": ("person", "people", "company"),
    "when": ("date", "time"),
    "where": ("address", "email"),
    "how_many": ("count", "number", "people", "list"),
    "how_much": ("money", "number", "percent", "count"),
    "how_long": ("time", "count", "number", "date"),
    "what_number": ("phone", "id", "count", "number", "money", "percent"),
    "which": ("enum", "list", "text", "company", "person", "date", "time", "id"),
}
"""Value kinds a wh-word asks for (`what`/`how` alone ask for anything)."""


def is_question(raw: str) -> bool:
    """A question by punctuation or by form (wh-word or auxiliary first, as ASR text
    without punctuation needs)."""
    if raw.rstrip().endswith("?"):
        return True
    norm = normalize(raw)
    if raw.rstrip().endswith((".", "!")):  # written as a statement: a wh-word inside is
        # a clause ("it depends on the food and how the room is set up"), not a question
        clauses = [normalize(c) for c in raw.split(":")]  # "the basics: how many staff, ..."
        return any(_WH_FIRST.search(c) for c in clauses) or bool(_AUX_OPEN.search(norm))
    return bool(_WH_OPEN.search(norm) or _AUX_OPEN.search(norm))


def is_question_opening(raw: str) -> bool:
    """The sentence opens like a question (a wh-word or an auxiliary first): "Is the
    number we have still right?", not "So the number is 555-0100, right?"."""
    for clause in re.split(r"[,;:]", raw):
        norm = normalize(clause)
        if _WH_OPEN.search(norm) or _AUX_OPEN.search(norm):
            return True
    return False


def is_request(raw: str) -> bool:
    """A request for information phrased as a statement or fragment ("I'll need the ...",
    "And the email?", "next, your start date")."""
    norm = normalize(raw)
    if _REQUEST.search(norm):
        return True
    short = len(norm.split()) <= MAX_ELLIPTIC_WORDS and not _FINITE.search(norm)
    return short and bool(_ELLIPTIC.search(norm))


def wh_class_word(raw: str) -> bool:
    """Whether the sentence asks with a wh-word (what, which, who, when, where, how)."""
    return bool(_WH_OPEN.search(normalize(raw)))


def wh_class(raw: str) -> str | None:
    """The first wh-word of a sentence, as a class of `WH_CLASSES` (None: no wh-word or
    a bare `what`/`how`)."""
    norm = normalize(raw)
    if re.search(r"\b(what|which) (phone |contact |direct |mobile |cell )?(number|digits)\b", norm):
        return "what_number"
    if re.search(r"\bnumber (to|i can|we can|i should|we should|for)\b", norm):
        return "what_number"
    match = _WH_WORD.search(norm)
    if match is None:
        return None
    word = match.group(1)
    table = {
        "who": "who",
        "who's": "who",
        "whom": "who",
        "whose": "who",
        "when": "when",
        "where": "where",
        "how many": "how_many",
        "how much": "how_much",
        "how long": "how_long",
        "which": "which",
    }
    return table.get(word)


# ---------------------------------------------------------------- leave-taking

_FAREWELL = re.compile(
    r"\b(goodbye|good bye|bye bye|bye now|bye for now|bye|cheers now|farewell|"
    r"have a (?:great|good|nice|lovely|wonderful|fantastic|pleasant) "
    r"(?:day|one|afternoon|evening|morning|night|weekend|rest of (?:your|the) day)|"
    r"talk (?:to you )?(?:soon|later|next time))\b"
    r"|\b(?:take care|see you|see ya)(?= *$| (?:now|then|bye|goodbye|later|soon|next|out there)\b)"
)
_NOT_NOW = re.compile(
    r"\b(until|till|before|after|once|when|if|unless|then)\b(?: \S+){0,6} "
    r"(?:say |said |saying )?(?:goodbye|good bye|bye)\b"
    r"|\b(say|said|saying|says|a proper|the|our|my|your) (?:goodbye|good bye|bye)\b"
    r"|\b(?:goodbye|bye) (?:to|for now on|message|yet)\b"
    r"|\b(?:don't|do not|not|never|won't|can't|before you) (?:\S+ ){0,3}(?:goodbye|bye|hang up)\b"
)


def is_close(raw: str) -> bool:
    """A real leave-taking ("Thanks, goodbye!", "take care now"), not a mention of one
    ("until it is filed and we say goodbye", "before we say bye")."""
    norm = normalize(raw)
    if not _FAREWELL.search(norm):
        return False
    return not _NOT_NOW.search(norm)


# ---------------------------------------------------------------- read-back

_READBACK = re.compile(
    r"\b(read (?:it|that|this|everything|them|those|the details|all of that|it all|"
    r"them all|things|you) back|read back|let me read|reading back|to recap|recap|"
    r"summary|summarize|summarise|here's what i have|here is what i have|what i have so far|"
    r"what i've got|let me run through|run through|go over|going over|quick review|"
    r"just to review|let me review|let me repeat|repeat back|so far i have|"
    r"so i've got|so i have|so we have|so we've got|everything i have|all the details|"
    r"before i (?:submit|send|file|place|issue|book|publish|open|dispatch|update)|"
    r"the key details|key details)\b"
)


def announces_readback(raw: str) -> bool:
    return bool(_READBACK.search(normalize(raw)))


# ---------------------------------------------------------------- approval requests

_PERMISSION = re.compile(
    r"\b(shall i|should i|may i|can i|could i|do you want me to|would you like me to|"
    r"want me to|like me to|ok to|okay to|alright to|all right to|fine to|good to|"
    r"go ahead|proceed|approve|approval|permission|authori[sz]e|green light|"
    r"your ok|your okay|the ok|the okay|the go ahead|are you happy for me|"
    r"happy for me|ready for me|are we good to|is it ok|is it okay|is it alright|"
    r"do i have your|have your|let me know if i can|shall we|should we|can we|"
    r"ready to|are you happy|happy for me|am i okay|am i good|do i have your|okay with me|"
    r"ok with me|mind if i)\b"
)


_PERMISSION_QUESTION = re.compile(
    r"\b(shall i|should i|may i|can i|could i|do you want me to|would you like me to|"
    r"want me to|ok to|okay to|am i okay to|am i ok to|am i good to|am i clear to|"
    r"are you happy for me to|happy for me to|are we good to|is it ok to|is it okay to|"
    r"do i have your|have i got your|ready for me to|are you okay with me|are you ok with me|"
    r"okay with me|ok with me|alright if i|all right if i|fine if i|mind if i)\b"
)


def asks_permission_question(raw: str) -> bool:
    """Permission asked as a question, even inside a run-on ASR sentence ("... want me
    to send it off")."""
    return bool(_PERMISSION_QUESTION.search(normalize(raw)))


def asks_permission(raw: str) -> bool:
    """Words that ask for a go-ahead (an approval request also needs an action)."""
    return bool(_PERMISSION.search(normalize(raw)))


_NEGATED_ACTION = re.compile(
    r"\b(won't|will not|wouldn't|not going to|never|don't|do not|can't|cannot|without)\b"
)


def negates(raw: str) -> bool:
    """A statement that something will not happen ("I won't submit anything without your
    OK"): never an approval request when it is not a question."""
    return bool(_NEGATED_ACTION.search(normalize(raw)))


def word_list(text: str) -> tuple[str, ...]:
    """The words of a text block, in order (for word tables written as prose)."""
    return tuple(text.split())


def word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())
