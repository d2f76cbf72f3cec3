"""Spelled forms of values: what a caller says when asked "how do you spell that?".

:func:`spell` turns a value into spoken pieces, each meant to be rendered as its
own clip and joined to the next by :data:`SPELL_GAP_MS` of silence:

- in the ``words`` style (the default), a piece per character: "Nancy,",
  "Apple,", ... (each letter-word its own clip came back best through both
  voices: docs/audio.md, "Spelling through the line");
- in the other styles, a piece per word of the value (what lies between spaces
  and separators), cut where letters meet digits ("UT2579": "U T", "2 5 7 9");
  in ``letters`` and ``confusable`` a run longer than :data:`GROUP_MAX` is cut
  into groups of 3 or 4 ("Thorvaldsen": "T H O", "R V A L", "D S E N"); a piece
  of one thing said (a lone initial, a trailing "8") joins the next piece, or the
  one before when it is the last: whisper tends to stop reading after a lone
  word and a pause;
- every piece but the last ends with a comma, the last with a full stop (the
  voice keeps going up, and whisper reads on past the pause);
- letters one by one, in the style's way (:data:`SpellingStyle`); upper and lower
  case are said alike (no "capital");
- digits one by one, as numerals ("2", which every voice says "two");
- separators by name at the start of the next piece ("dash, 2, 8, 9, 5"): "dash",
  "dot", "at", "underscore", "space" (any run of white space), "slash", "plus",
  "apostrophe", and a name for every other ASCII mark (``SEPARATORS``);
- a Latin letter with a mark as its base letter and the mark ("E with an acute
  accent", "N with a tilde", "U with an umlaut", "C with a cedilla", "O with a
  stroke"), which :func:`~duplexbench.values._spelled_read.read_spelled` reads back;
- any other character (emoji, CJK, symbols) by its Unicode name in lower case
  ("grinning face"), or "character number N" when it has none: always speakable,
  never an empty piece, never an exception (it reads back as what its name spells);
- an email's domain is said as words ("at example dot com"), when the reader reads
  those words back as written; otherwise it is spelled like the rest.

An empty or all-blank value has no pieces.

:func:`digit_groups` reads digits (and the letters of a code) one by one in
groups: at the value's own separators and where letters meet digits, else in
groups of 3 or 4.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

from duplexbench.values._spelled_names import NATO, SEPARATORS, WORDS, accented, unicode_words
from duplexbench.values._spelled_read import read_spelled

SEPARATOR_CHARS = {name: char for char, name in SEPARATORS.items()}

__all__ = [
    "DEFAULT_SPELLING_STYLE",
    "GROUP_MAX",
    "SPELLING_STYLES",
    "SPELL_GAP_MS",
    "SpelledForm",
    "SpellingStyle",
    "digit_groups",
    "spell",
]

SpellingStyle = Literal["letters", "confusable", "phonetic", "words"]
"""How letters are said:

- ``letters``: plain letters ("N, A, K, A");
- ``confusable``: plain letters, with a word for the letters an ASR confuses
  (:data:`CONFUSABLE`: "D as in David", the word from ``WORDS``);
- ``phonetic``: every letter as its NATO phonetic-alphabet word ("November, Alpha");
- ``words``: every letter as its word of duplexbench's spelling alphabet
  (``WORDS``: "Nancy, Apple, King"), common words both neural voices say clearly,
  one piece per character.
"""

SPELLING_STYLES: tuple[SpellingStyle, ...] = get_args(SpellingStyle)
DEFAULT_SPELLING_STYLE: SpellingStyle = "words"
"""The style that came back best through both neural voices and whisper tiny.en
(docs/audio.md, "Spelling through the line")."""
SPELL_GAP_MS = 250
"""The silence added between two pieces of a spelling (the clips' own edges come on top:
about 0.2 s for piper, 0.75 s for hibari)."""
GROUP_MAX = 4
"""A run longer than this is spelled in groups of 3 or 4 characters (``letters`` and
``confusable``: a word of ``phonetic`` or ``words`` is long enough as it is)."""

CONFUSABLE: frozenset[str] = frozenset("BCDEGPTVZMNFS")
"""Letters said with their word in the ``confusable`` style (the E-set, M/N, F/S)."""


@dataclass(frozen=True)
class SpelledForm:
    """A value spelled out: the spoken `pieces`, to be said with a pause between them."""

    pieces: tuple[str, ...]

    @property
    def text(self) -> str:
        """The pieces as one line of text (the text channel)."""
        return " ".join(self.pieces)


@dataclass(frozen=True)
class _Form:
    """How one style writes a piece (private: the benchmark tries variants)."""

    letter: Callable[[str], str]
    joiner: str = ", "
    end: str = ","
    """After every piece but the last (which ends with "."): a comma keeps the voice
    going up, and whisper reads on after the pause; after a full stop it often stops."""
    group: int | None = GROUP_MAX
    domain_words: bool = True
    split_kinds: bool = True
    merge_single: bool = True


def _plain(letter: str) -> str:
    return letter


def _confusable(letter: str) -> str:
    return f"{letter} as in {WORDS[letter]}" if letter in CONFUSABLE else letter


def _phonetic(letter: str) -> str:
    return NATO[letter]


def _word(letter: str) -> str:
    return WORDS[letter]


FORMS: dict[str, _Form] = {
    "letters": _Form(_plain),
    "confusable": _Form(_confusable),
    "phonetic": _Form(_phonetic, group=None),
    "words": _Form(_word, group=1, merge_single=False),
}
"""Each style's form."""


def _say(char: str, form: _Form) -> str:
    """One character of a word, spoken."""
    if char.isascii() and char.isalpha():
        return form.letter(char.upper())
    if char.isascii() and char.isdigit():
        return char
    marked = accented(char)
    if marked is not None:
        base, mark = marked
        return f"{form.letter(base)} with {mark}"
    if unicodedata.name(char, "").startswith(("LATIN SMALL LETTER ", "LATIN CAPITAL LETTER ")):
        name = unicodedata.name(char).split(" LETTER ", 1)[1]
        if name.isalpha() and name.isascii() and len(name) <= 2:  # "Æ" is "A, E"
            return ", ".join(form.letter(c) for c in name)
    return unicode_words(char)


def _words(value: str) -> list[tuple[list[str], str]]:
    """(separator names before it, word) for each word of `value`; trailing separators
    make a last entry with an empty word."""
    out: list[tuple[list[str], str]] = []
    names: list[str] = []
    word = ""
    for char in value.strip():
        sep = "space" if char.isspace() else SEPARATORS.get(char)
        if sep is None:
            word += char
            continue
        if word:
            out.append((names, word))
            names, word = [], ""
        if not (sep == "space" and names and names[-1] == "space"):
            names.append(sep)
    if word or names:
        out.append((names, word))
    return out


def _groups(size: int, most: int) -> list[int]:
    """Sizes of the groups `size` characters are cut into: as even as can be, none
    over `most`, the smaller first (5 -> 2, 3; 7 -> 3, 4; 10 -> 3, 3, 4)."""
    count = max(1, math.ceil(size / most))
    small, extra = divmod(size, count)
    return [small] * (count - extra) + [small + 1] * extra


def _cut(word: str, most: int | None) -> list[str]:
    """`word` in groups of at most `most` characters (None: whole)."""
    if most is None or len(word) <= most:
        return [word]
    parts, start = [], 0
    for size in _groups(len(word), most):
        parts.append(word[start : start + size])
        start += size
    return parts


def _runs(word: str) -> list[str]:
    """`word` cut where ASCII letters meet ASCII digits ("UT2579" -> "UT", "2579");
    any other character stays in the run it follows."""
    runs: list[str] = []
    for char in word:
        kind = _kind(char)
        last = _kind(runs[-1][-1]) if runs else None
        if runs and (kind is None or last is None or kind == last):
            runs[-1] += char
        else:
            runs.append(char)
    return runs


def _domain(words: list[tuple[list[str], str]]) -> str | None:
    """An email's domain said as words ("at example dot com"), if `words` is one: "at",
    then words of ASCII letters joined by named separators, which the reader reads back
    as they are (not "one", "oh", "dash", "as", ...)."""
    if not words or words[0][0] != ["at"]:
        return None
    if not all(word.isascii() and word.isalpha() for _, word in words):
        return None
    said = " ".join(" ".join([*names, word.lower()]) for names, word in words)
    written = "".join("".join(SEPARATOR_CHARS[n] for n in names) + w for names, w in words)
    return said if read_spelled(said) == written.lower() else None


def spell_with(value: str, form: _Form) -> SpelledForm:
    """`value` spelled in `form` (the rules are in the module docstring)."""
    chunks: list[list[str]] = []
    words = _words(value)
    at = next((k for k, (names, _) in enumerate(words) if "at" in names), len(words))
    domain = _domain(words[at:]) if form.domain_words else None
    for names, word in words[:at] if domain else words:
        runs = _runs(word) if form.split_kinds else [word]
        parts = [part for run in runs for part in _cut(run, form.group)] if word else [""]
        for j, part in enumerate(parts):
            chunks.append([*(names if j == 0 else []), *(_say(char, form) for char in part)])
    if domain:
        chunks.append([domain])
    if form.merge_single:
        chunks = _merged(chunks, domain)
    ends = [form.end] * (len(chunks) - 1) + ["."]
    return SpelledForm(
        tuple(form.joiner.join(c) + end for c, end in zip(chunks, ends, strict=False))
    )


def _merged(chunks: list[list[str]], domain: str | None) -> list[list[str]]:
    """A piece of one thing said ("G", "8", "dot"; not the domain) joins the next piece,
    or the one before when it is the last: whisper tends to stop after a lone word and
    a pause."""
    out: list[list[str]] = []
    carry: list[str] = []
    for chunk in chunks:
        joined = carry + chunk
        carry = joined if len(joined) == 1 and joined[0] != domain else []
        if not carry:
            out.append(joined)
    if carry and out:
        out[-1] += carry
    elif carry:
        out.append(carry)
    return out


def spell(value: str, style: SpellingStyle = DEFAULT_SPELLING_STYLE) -> SpelledForm:
    """`value` spelled in `style`: one piece per word (or group of a long word), letters
    and digits one by one, separators named (module docstring). Never raises."""
    return spell_with(value, FORMS[style])


def digit_groups(value: str) -> SpelledForm:
    """Digits and letters read one by one in groups: at the value's own separators and
    where letters meet digits, else in groups of 3 or 4, each piece ending as :func:`spell`'s
    do ("555-0142" -> "5 5 5,", "0 1 4 2."; "16601" -> "1 6,", "6 0 1."; "TX-2895-ZF" ->
    "T X,", "2 8 9 5,", "Z F."), a lone character joining the next group ("CC-677-D" ->
    "C C,", "6 7 7 D."). Other characters are dropped; a value without letters or digits
    has no pieces."""
    runs: list[str] = []
    for char in value:
        kind = _kind(char)
        if kind is None:
            runs.append("")
        elif runs and runs[-1] and _kind(runs[-1][-1]) == kind:
            runs[-1] += char
        else:
            runs.append(char)
    chunks = _merged(
        [list(part.upper()) for run in runs if run for part in _cut(run, GROUP_MAX)], None
    )
    ends = [","] * (len(chunks) - 1) + ["."]
    return SpelledForm(tuple(" ".join(c) + end for c, end in zip(chunks, ends, strict=False)))


def _kind(char: str) -> str | None:
    if char.isascii() and char.isdigit():
        return "digit"
    if char.isascii() and char.isalpha():
        return "letter"
    return None
