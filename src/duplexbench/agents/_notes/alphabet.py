"""Spellings as whisper writes them: the phonetic alphabet and its near misses, a
caller's lead-in (heard or misheard), alphabet words whisper writes as other words, and
how clearly a spelling came through."""

from __future__ import annotations

import difflib
import re

from duplexbench.values import spell

_NATO = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
    "mike",
    "november",
    "oscar",
    "papa",
    "quebec",
    "romeo",
    "sierra",
    "tango",
    "uniform",
    "victor",
    "whiskey",
    "xray",
    "yankee",
    "zulu",
]
_PHONETIC = re.compile(
    r"\b(?:alpha|alfa|bravo|charlie|delta|echo|foxtrot|golf|hotel|juliett?e?|kilo|lima|"
    r"mike|november|oscar|papa|quebec|romeo|sierra|tango|victor|whiske?y|"
    r"yankee|zulu)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_]+")
_JOINED = (
    (re.compile(r"\bx[\s-]?rays?\b", re.I), "xray"),
    (re.compile(r"\bfox[\s-]trot\b", re.I), "foxtrot"),
)
_LEAD_WORDS = 4
"""The most words a misheard lead-in may take ("Chair of the thing" for "Sure thing")."""
_FIRST = re.compile(r"^\s*([^,.!?]+)[,.!?]\s*")
_NEAR_NATO = 0.55
"""How close a word next to phonetic-alphabet words must come to one to be read as it
("Tierre, Uniform" -> Sierra, "Romato, Fox-Trot" -> Romeo: whisper's near misses)."""
_NEAR_NATO_BETWEEN = 0.5
_NEAR_WORDS = (*_NATO, "space", "dash")
_NOT_LETTERS = frozenset(
    [
        "space",
        "dash",
        "hyphen",
        "period",
        "point",
        "underscore",
        "slash",
        "plus",
        "apostrophe",
        "with",
        "accent",
        "acute",
        "grave",
        "tilde",
        "umlaut",
        "cedilla",
        "ring",
        "stroke",
        "tilda",
        "attilda",
        "atilda",
        "example",
        "double",
        "triple",
        "and",
        "the",
        "dot",
        "com",
        "yes",
        "for",
        "its",
        "one",
        "two",
        "six",
        "ten",
        "sure",
        "okay",
        "course",
        "thing",
    ]
)
_LETTER_SOUNDS = {"our": "R", "hour": "R"}
"""Letters whisper writes as words in a dictated code that `read_spelled` does not
know ("our F 9 9 9 8")."""


def similarity(a: str, b: str) -> float:
    """How alike two canonical readings are, 0 to 1."""
    return difflib.SequenceMatcher(None, a, b).ratio()


def nato_near(text: str) -> str:
    """Words next to a phonetic-alphabet word that nearly are one, replaced by it (a word
    between two of them needs to be less near; a word read so counts for its
    neighbours); a near "space" or "dash" there is that separator."""
    for pattern, word in _JOINED:
        text = pattern.sub(word, text)
    if not is_phonetic(text):
        return text  # the caller's own alphabet ("Michael, Apple" is no "Charlie")
    for _ in range(2):
        text = _nato_pass(text)
    return text


def _nato_pass(text: str) -> str:
    words = list(_WORD.finditer(text))
    exact = [_alphabet(w.group(0)) for w in words]
    out, last = [], 0
    for i, word in enumerate(words):
        said = word.group(0).lower().replace("-", "")
        before = i > 0 and exact[i - 1]
        after = i + 1 < len(words) and exact[i + 1]
        if exact[i] or not (before or after) or len(said) < 3 or said in _NOT_LETTERS:
            continue
        need = _NEAR_NATO_BETWEEN if before and after else _NEAR_NATO
        scored = max((difflib.SequenceMatcher(None, said, n).ratio(), n) for n in _NEAR_WORDS)
        if scored[0] >= need:
            out.append(text[last : word.start()] + scored[1])
            last = word.end()
    return "".join(out) + text[last:]


def _alphabet(word: str) -> bool:
    said = word.lower().replace("-", "")
    return said in _NATO or said in ("alfa", "juliett", "juliette", "whisky", "space", "dash")


def lead_off(text: str) -> str:
    """A spelling without the caller's lead-in as the ASR may mishear it ("Chirping,
    Foxtrot, ..." or "Chair thing Papa November" for "Sure thing. Foxtrot, ..."): the
    first few words before the first letter, digit or phonetic-alphabet word, if none
    of them is one."""
    first = _FIRST.match(text)
    if first is not None:
        words = first.group(1).split()
        if len(words) <= _LEAD_WORDS and not any(_spelled(w) for w in words):
            return text[first.end() :]
    words = text.split()
    lead = next((i for i, w in enumerate(words) if _spelled(w.strip(",.!?"))), 0)
    return " ".join(words[lead:]) if 0 < lead <= _LEAD_WORDS else text


def _spelled(word: str) -> bool:
    return _alphabet(word) or len(word) == 1 or any(c.isdigit() for c in word)


def letter_sounds(text: str) -> str:
    """A dictated code's letters as letters ("our F" -> "R F")."""
    return re.sub(
        r"\b(?:our|hour)\b", lambda m: _LETTER_SOUNDS[m.group(0).lower()], text, flags=re.I
    )


def is_phonetic(text: str) -> bool:
    """Whether a spelling was said in phonetic-alphabet words ("Tango, Oscar, ..."):
    two words of it at least that the caller's own alphabet does not have (both have
    India, Uniform and X-ray)."""
    return len(_PHONETIC.findall(text)) >= 2


_HEARD_AS = {
    "theater": "Peter",
    "theatre": "Peter",
    "theaters": "Peter",
    "calm": "Tom",
    "came": "King",
    "kane": "King",
    "can": "King",
    "cane": "King",
    "cain": "King",
    "mansey": "Nancy",
    "mancy": "Nancy",
    "com": "Tom",
    "wing": "Queen",
    "spass": "space",
    "sves": "space",
    "kamma": "comma",
    "kama": "comma",
    "karma": "comma",
    "romel": "Romeo",
    "lena": "Lima",
    "thulu": "Zulu",
    "fulu": "Zulu",
}
"""Words of the spelling alphabets as whisper tiny.en writes them in the piper voice's
spellings (workflows-mini clean: "theater, Ocean" for "Peter, Ocean", "calm" for "Tom",
"Kamma, Space" for "comma, space"): read as the word said, inside a spelling only."""
_HEARD = re.compile(r"\b(" + "|".join(_HEARD_AS) + r")\b", re.IGNORECASE)
_SPACE_NEAR = re.compile(r"\b[Tt][ -](?:face|base|pace)\b")
"""Whisper's "T face", "T base" for "space" between spelling words."""


_HEARD_PHONETIC = {"health": "Golf", "anki": "Yankee", "yanki": "Yankee", "antie": "Yankee"}
"""Whisper's words for piper's phonetic alphabet, in a phonetic spelling only."""
_HEARD_NATO = re.compile(r"\b(" + "|".join(_HEARD_PHONETIC) + r")\b", re.IGNORECASE)


def heard_words(text: str, email: bool = False) -> str:
    """A spelling with whisper's known mishearings of alphabet words put right (not
    "com" in an email: "example dot com")."""
    text = _SPACE_NEAR.sub("space", text)

    def put_right(match: re.Match[str]) -> str:
        word = match.group(1)
        return word if email and word.lower() == "com" else _HEARD_AS[word.lower()]

    text = _HEARD.sub(put_right, text)
    if is_phonetic(text):
        text = _HEARD_NATO.sub(lambda m: _HEARD_PHONETIC[m.group(1).lower()], text)
    return email_dots(text) if email else text


_AT = re.compile(r"\bat\b|@", re.IGNORECASE)
_STOP = re.compile(r"(?<=[^\W\d_])\.\s+(?=[^\W\d_])")
_COMMA = re.compile(r"(?<=[^\W\d_]),\s+(?=[^\W\d_])")
_LONE_D = re.compile(r"\bD\b\.?")
_DOT_HEARD = re.compile(r"\b(?:Dr|Doc|Dock|Dawt)\b\.?", re.IGNORECASE)
"""Whisper's words for a spelled email's "dot" ("Robert, Dr. King", "Nancy, Doc, Queen")."""
_AT_HEARD = re.compile(r"\b(?:add|had|ad)(?=\s+example\b)", re.IGNORECASE)


def email_dots(text: str) -> str:
    """An email's spoken "dot" as whisper may write it inside a spelling: a full stop
    among letters it otherwise separates by commas ("India. Tom, Henry, Ocean" for
    "India, dot, Tom, Henry, Ocean"), "D." in a phonetic spelling ("India, D. Tando"),
    "Dr." or "Doc"; and "add example" for "at example". Only before the "at": the
    domain's dots are read as they are."""
    text = _AT_HEARD.sub("at", text)
    at = _AT.search(text)
    name, domain = (text[: at.start()], text[at.start() :]) if at else (text, "")
    name = _DOT_HEARD.sub("dot,", name)
    if is_phonetic(name):
        name = _LONE_D.sub("dot,", name)
    stops, commas = len(_STOP.findall(name)), len(_COMMA.findall(name))
    if stops and commas >= 3 * stops:
        name = _STOP.sub(", dot, ", name)
    return name + domain


_LEAD = re.compile(
    r"\b(?:sure(?:[ ,]+thing)?|of course|okay|ok|alright|all right|right|yes|yeah|"
    r"(?:chair|cheer|chir|jour|your)[ ,]*thing|chirping|i'?ll (?:slow down|go slower))\b[.!,]?",
    re.IGNORECASE,
)
_LEAD_REACH = 14
"""The most words before the end of a caller's lead-in ("That's five times I've said it.
Sure, I'll slow down. Of course."): a spelling starts after it."""


def after_lead(text: str) -> str:
    """The spelling without what the caller says before it (patience, "I'll slow down",
    "Sure thing", as whisper may write them); the text as it is if no lead-in is heard."""
    cut = 0
    for match in _LEAD.finditer(text):
        if len(text[: match.end()].split()) > _LEAD_REACH:
            break
        cut = match.end()
    return text[cut:].strip()


_ALPHABETS: frozenset[str] = frozenset(
    w.strip(",.").lower().replace("-", "")
    for style in ("words", "phonetic")
    for w in spell("ABCDEFGHIJKLMNOPQRSTUVWXYZ", style).text.split()
)
_PLAIN_TOKENS = frozenset(
    {"space", "dash", "hyphen", "dot", "at", "comma", "underscore", "with", "a", "an", "the"}
    | {"accent", "acute", "grave", "tilde", "umlaut", "cedilla", "example", "com"}
    | {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "oh"}
)


def clarity(text: str) -> float:
    """The share of a spelling's words that are words of a spelling (alphabet words,
    digits, separator and accent names, single letters): 1.0 when whisper wrote nothing
    else; lower when it wrote words no alphabet has ("Tandel", "Foxtratt")."""
    words = [w.lower().replace("-", "") for w in re.findall(r"[^\W_]+(?:-[^\W_]+)*", text)]
    if not words:
        return 0.0
    known = [w in _ALPHABETS or w in _PLAIN_TOKENS or w.isdigit() or len(w) == 1 for w in words]
    return known.count(True) / len(words)


_LOOP_WORDS = range(2, 9)
"""Lengths of the word runs that, said three times in a row, make whisper's loop."""


def looped(text: str) -> bool:
    """Whether whisper fell into a loop writing `text`: the same run of words three times
    in a row ("who is the only one who is the only one who is the only one"). Runs apart
    are no loop: a list spells the same first name three times ("Michael, Apple, Tom,
    Edward, Ocean, space, ..." for each Mateo)."""
    words = re.findall(r"[^\W_]+", text.lower())
    for size in _LOOP_WORDS:
        for i in range(len(words) - 3 * size + 1):
            run = words[i : i + size]
            if run == words[i + size : i + 2 * size] == words[i + 2 * size : i + 3 * size]:
                return True
    return False


_MARKED = re.compile(r"\bwith\b(?:\s+(?:an?|the)\b)?[\s,]*(\w+)", re.IGNORECASE)
_MARK_WORDS = frozenset(
    {"acute", "cute", "grave", "tilde", "tilda", "attilda", "atilda", "umlaut", "cedilla"}
    | {"ring", "circumflex", "caron", "hacek", "macron", "breve", "stroke", "dot"}
)


def mark_lost(text: str) -> bool:
    """Whether a spelling announced a letter's mark that whisper did not write ("Nancy with
    Ocean" for "Nancy with the tilde, Ocean"): the letter it read lacks its mark."""
    return any(m.group(1).lower() not in _MARK_WORDS for m in _MARKED.finditer(text))
