"""The spoken names of characters, shared by the speller and its reader.

One table per kind: the phonetic alphabet (NATO, with the spellings a TTS voice
says right: "Alpha", "Juliet", "X-ray"), the words an ASR writes for a letter
said alone ("bee", "you", "are", "why", "double-u"), separators ("dash",
"dot", "at", ...), digit words, and the accents of Latin letters. A character
with no name here is said by its Unicode name in lower case
(:func:`unicode_words`), or as "character number N" when it has none.
"""

from __future__ import annotations

import string
import unicodedata

__all__ = [
    "ACCENTS",
    "ACCENT_WORDS",
    "DIGIT_WORDS",
    "LETTER_WORDS",
    "NATO",
    "NATO_WORDS",
    "SEPARATORS",
    "SEPARATOR_WORDS",
    "SPELLING_WORDS",
    "WORDS",
    "accented",
    "compose",
    "unicode_words",
]

NATO: dict[str, str] = {
    "A": "Alpha", "B": "Bravo", "C": "Charlie", "D": "Delta", "E": "Echo", "F": "Foxtrot",
    "G": "Golf", "H": "Hotel", "I": "India", "J": "Juliet", "K": "Kilo", "L": "Lima",
    "M": "Mike", "N": "November", "O": "Oscar", "P": "Papa", "Q": "Quebec", "R": "Romeo",
    "S": "Sierra", "T": "Tango", "U": "Uniform", "V": "Victor", "W": "Whiskey",
    "X": "X-ray", "Y": "Yankee", "Z": "Zulu",
}  # fmt: skip
"""The phonetic alphabet as spoken ("Alpha" and "Juliet": the ICAO spellings "Alfa" and
"Juliett" are for non-English speakers and read the same)."""

WORDS: dict[str, str] = {
    "A": "Apple", "B": "Boston", "C": "Charles", "D": "David", "E": "Edward", "F": "Frank",
    "G": "George", "H": "Henry", "I": "India", "J": "John", "K": "King", "L": "London",
    "M": "Michael", "N": "Nancy", "O": "Ocean", "P": "Peter", "Q": "Queen", "R": "Robert",
    "S": "Sam", "T": "Tom", "U": "Uniform", "V": "Violet", "W": "William", "X": "X-ray",
    "Y": "Yellow", "Z": "Zachary",
}  # fmt: skip
"""duplexbench's spelling alphabet: a word per letter that both neural voices say so
that whisper tiny.en writes it back (measured word by word in lists of four, six
orders: each came back at least 5 times in 6 in both voices but Zachary, 4 in 6
for hibari; the NATO words Lima, Romeo, Zulu, Foxtrot, Juliet came back 0 to 1 times
in 3 from piper). Its words are common names and words."""

NATO_WORDS: dict[str, str] = {
    **{word.lower().replace("-", ""): letter for letter, word in NATO.items()},
    "alfa": "A",
    "juliett": "J",
    "juliette": "J",
    "whisky": "W",
    "xray": "X",
    "x-ray": "X",
    "kilowatt": "K",
    "yankees": "Y",
    "charly": "C",
    "ecko": "E",
    "oscars": "O",
    "gulf": "G",
    "lena": "L",
    "leema": "L",
    "tendo": "T",
    "tando": "T",
    "tano": "T",
    "cidera": "S",
    "siera": "S",
    "sera": "S",
    "soolu": "Z",
    "zoolu": "Z",
    "yanky": "Y",
    "yenki": "Y",
    "romio": "R",
    "eko": "E",
    "mic": "M",
    "osker": "O",
    "fokstrat": "F",
}

SPELLING_WORDS: dict[str, str] = {
    **NATO_WORDS,
    **{word.lower().replace("-", ""): letter for letter, word in WORDS.items()},
    "sakari": "Z", "zackary": "Z", "zachery": "Z", "micheal": "M", "violette": "V",
    "mancy": "N", "mansey": "N", "mancie": "N", "nancie": "N", "alshin": "O",
}  # fmt: skip  # fmt: skip
"""Phonetic-alphabet words as an ASR writes them, lower case, to their letter."""


LETTER_WORDS: dict[str, str] = {
    **{c.lower(): c for c in string.ascii_uppercase},
    "ay": "A", "eh": "A", "bee": "B", "be": "B", "cee": "C", "see": "C", "sea": "C",
    "si": "C", "dee": "D", "ee": "E", "ef": "F", "eff": "F", "gee": "G", "jee": "G",
    "aitch": "H", "haitch": "H", "age": "H", "eye": "I", "aye": "I", "jay": "J",
    "kay": "K", "cay": "K", "el": "L", "ell": "L", "elle": "L", "em": "M", "en": "N",
    "oh": "O", "owe": "O", "pee": "P", "pea": "P", "cue": "Q", "queue": "Q", "que": "Q",
    "are": "R", "ar": "R", "ess": "S", "es": "S", "tee": "T", "tea": "T", "you": "U",
    "yu": "U", "ewe": "U", "vee": "V", "doubleu": "W", "ex": "X", "why": "Y", "wye": "Y",
    "zee": "Z", "zed": "Z",
}  # fmt: skip
"""A letter said alone, as an ASR may write it (lower case), to the letter."""

DIGIT_WORDS: dict[str, str] = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
    "six": "6", "seven": "7", "eight": "8", "nine": "9", "niner": "9", "nought": "0",
    "naught": "0",
}  # fmt: skip
"""Digit words to digits ("oh" is 0 only next to another digit: the reader decides)."""

SEPARATORS: dict[str, str] = {
    "-": "dash", ".": "dot", "@": "at", "_": "underscore", " ": "space", "/": "slash",
    "+": "plus", "'": "apostrophe", ",": "comma", "&": "ampersand", "#": "hash",
    ":": "colon", ";": "semicolon", "(": "open bracket", ")": "close bracket",
    "[": "open square bracket", "]": "close square bracket", "{": "open brace",
    "}": "close brace", "!": "exclamation mark", "?": "question mark", "*": "star",
    "%": "percent", "$": "dollar sign", "=": "equals", "\\": "backslash",
    "|": "vertical bar", "~": "tilde", "^": "caret", "<": "less than",
    ">": "greater than", '"': "quote", "`": "backtick",
}  # fmt: skip
"""Every printable ASCII character that is neither a letter nor a digit, and the space:
its spoken name. They split a value into pieces."""

SEPARATOR_WORDS: dict[tuple[str, ...], str] = {
    **{tuple(name.split()): char for char, name in SEPARATORS.items()},
    ("hyphen",): "-", ("minus",): "-", ("dash",): "-", ("period",): ".", ("point",): ".",
    ("full", "stop"): ".", ("at", "sign"): "@", ("at", "symbol"): "@",
    ("forward", "slash"): "/", ("plus", "sign"): "+", ("hashtag",): "#", ("pound", "sign"): "#",
    ("asterisk",): "*", ("under", "score"): "_", ("back", "slash"): "\\", ("dott",): ".",
    ("dat",): ".",
}  # fmt: skip
"""Spoken separator names (one or more words, lower case) to the character."""

ACCENTS: dict[str, str] = {
    "ACUTE": "an acute accent", "GRAVE": "a grave accent", "CIRCUMFLEX": "a circumflex",
    "TILDE": "a tilde", "DIAERESIS": "an umlaut", "CEDILLA": "a cedilla", "RING ABOVE": "a ring",
    "CARON": "a caron", "MACRON": "a macron", "BREVE": "a breve", "OGONEK": "an ogonek",
    "DOT ABOVE": "a dot above", "DOUBLE ACUTE": "a double acute accent", "STROKE": "a stroke",
}  # fmt: skip
"""How the mark of a Latin letter is said after "with" (Unicode's name of the mark to
the words); a mark not listed is said by its Unicode name in lower case ("with a hook")."""

ACCENT_WORDS: dict[str, str] = {
    "umlaut": "DIAERESIS", "dieresis": "DIAERESIS", "trema": "DIAERESIS", "ring": "RING ABOVE",
    "hacek": "CARON", "háček": "CARON", "dot": "DOT ABOVE", "cedila": "CEDILLA",
    "tilda": "TILDE", "atilda": "TILDE", "attilda": "TILDE",
    "circumflex": "CIRCUMFLEX", "acute": "ACUTE", "grave": "GRAVE", "tilde": "TILDE",
}  # fmt: skip
"""Mark words a reader accepts beside Unicode's own names (``caron``, ``macron``, ...)."""


def unicode_words(char: str) -> str:
    """A character said by its Unicode name in lower case, hyphens as spaces ("grinning
    face", "cjk unified ideograph 6771"); "character number N" without a name."""
    name = unicodedata.name(char, "")
    if not name:
        return f"character number {ord(char)}"
    return name.lower().replace("-", " ")


def accented(char: str) -> tuple[str, str] | None:
    """(base letter, spoken mark) of a Latin letter with one mark ("é" -> ("E", "an acute
    accent"), "ø" -> ("O", "a stroke")); None for any other character."""
    name = unicodedata.name(char, "")
    for prefix in ("LATIN SMALL LETTER ", "LATIN CAPITAL LETTER "):
        if name.startswith(prefix):
            base, _, mark = name[len(prefix) :].partition(" WITH ")
            if len(base) == 1 and mark:
                return base, ACCENTS.get(mark, f"a {mark.lower()}")
    return None


def compose(letter: str, mark_words: list[str]) -> str | None:
    """The Latin capital `letter` with the mark named by `mark_words` (lower case, fillers
    "a", "an", "accent" removed): ``compose("E", ["acute"])`` is "É"; None if no such
    character exists."""
    for words in (mark_words, [ACCENT_WORDS.get(w, w) for w in mark_words]):
        try:
            return unicodedata.lookup(f"LATIN CAPITAL LETTER {letter} WITH {' '.join(words)}")
        except KeyError:
            continue
    return None
