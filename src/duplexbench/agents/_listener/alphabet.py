"""Spellings as whisper writes them: the phonetic alphabet and its near misses, a
caller's lead-in misheard, letters written as words, and the letters most readings of
one value agree on."""

from __future__ import annotations

import difflib
import re

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
    r"\b(?:alpha|alfa|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliett?e?|kilo|lima|"
    r"mike|november|oscar|papa|quebec|romeo|sierra|tango|uniform|victor|whiske?y|x-?ray|"
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
LEAD_START = re.compile(
    r"^\s*(?:(?:sure(?: thing)?|of course|okay|ok|right|yes|yeah|alright|mm-?hm+|uh-?huh)"
    r"\b[,.!]?\s*)+",
    re.IGNORECASE,
)
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


def consensus(readings: list[str]) -> str:
    """The letters most readings agree on, place by place: each reading is aligned to the
    one closest to all the others, and every place (and every gap) takes the majority
    ("fatmcstlanos", "faimacasellanos", "fatimacasalanos" -> "fatimacastellanos" needs
    the letters to be outvoted, so it may not reach it; it never invents a letter no
    reading has)."""
    if len(readings) < 3:
        return readings[0] if readings else ""
    spine = max(readings, key=lambda r: sum(similarity(r, o) for o in readings))
    places: list[dict[str, int]] = [{} for _ in spine]
    gaps: list[dict[str, int]] = [{} for _ in range(len(spine) + 1)]
    for reading in readings:
        matcher = difflib.SequenceMatcher(None, spine, reading, autojunk=False)
        voted_gap = set()
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            for k in range(i1, i2):
                said = (
                    reading[j1 + k - i1] if op in ("equal", "replace") and j1 + k - i1 < j2 else ""
                )
                places[k][said] = places[k].get(said, 0) + 1
            if op in ("insert", "replace") and j2 - j1 > i2 - i1:
                extra = reading[j1 + (i2 - i1) : j2]
                gaps[i2][extra] = gaps[i2].get(extra, 0) + 1
                voted_gap.add(i2)
        for k in range(len(gaps)):
            if k not in voted_gap:
                gaps[k][""] = gaps[k].get("", 0) + 1
    out = []
    for k in range(len(spine) + 1):
        out.append(max(gaps[k].items(), key=lambda kv: (kv[1], kv[0] == ""))[0])
        if k < len(spine):
            out.append(max(places[k].items(), key=lambda kv: (kv[1], kv[0] == spine[k]))[0])
    return "".join(out)


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
    return _alphabet(word) or len(word) == 1 or word.isdigit()


def letter_sounds(text: str) -> str:
    """A dictated code's letters as letters ("our F" -> "R F")."""
    return re.sub(
        r"\b(?:our|hour)\b", lambda m: _LETTER_SOUNDS[m.group(0).lower()], text, flags=re.I
    )


def is_phonetic(text: str) -> bool:
    """Whether a spelling was said in phonetic-alphabet words ("Tango, X-ray, ...")."""
    return len(_PHONETIC.findall(text)) >= 2
