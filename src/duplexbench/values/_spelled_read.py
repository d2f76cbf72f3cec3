"""Reading a spelling back: an ASR transcript of a spelled value -> the written value.

:func:`read_spelled` reads every style :func:`~duplexbench.values._spelled.spell`
speaks, and the way people and ASR write them. Left to right, each word is:

- a letter: a single letter ("T", "n"), a word of the NATO alphabet ("Tango",
  "Alfa", "x-ray") or of duplexbench's spelling alphabet ("Apple", "Boston"; a
  near miss of four letters or more, such as "Quebeck", counts too; so do
  spelling words the ASR ran together, "tangohotel"), or a letter's sound as an
  ASR writes it ("bee", "see", "you", "are", "why", "ex", "double-u", "aitch",
  ...); a word in capitals ("NAKA", "TX") is spelled letters; so is a short word
  without a vowel ("km");
- an unknown word of 3 letters or more with a spelling word within two words on
  each side ("Apple, Eder, Henry"): its first letter (not a lead-in before the
  spelling, "Of course. Apple, ...", nor a word after it);
- "X as in WORD" ("as", "as in", "for", "like", "is for", and ASR's "is in", "as
  a", "isn't"): the letter is WORD's (its alphabet letter, else its first
  letter), whatever the letter before it was heard as;
- "with a(n) MARK (accent)" after a letter: that letter with the mark ("E with an
  acute accent" -> "É"; "umlaut", "ring", "hacek" and Unicode's names are marks);
- a digit: digits ("2895" is four digits), digit words ("two", "zero", "niner";
  not a count, "four times"),
  "double"/"triple" before a character, and next to another digit "oh" (0) and
  the sounds an ASR writes for a digit ("for", "to", "ate", "sex", "free");
- a separator: its name ("dash", "hyphen", "dot", "period", "at", "underscore",
  "space", "slash", "plus", "apostrophe", ...), or the character itself where the
  ASR wrote it inside a word ("example.com", "2895-ZF", "g@x"); a hyphen between
  single characters or spelling words ("A-K-A", "alpha-delta") and the dots of an
  abbreviation ("J.D.") only join them; other punctuation is the ASR's;
- after "at": the domain of an email, whose words are kept as words ("at example
  dot com", "At example. com." -> "@example.com"); an email the ASR wrote out
  ("g.adeyemi@example.com") is kept as written;
- anything else ("okay", "that's", "it's", "so") is not part of the value.

Case: letters come back in capitals ("TX-2895", "NAKAMURA"), unless the value
holds an "@" (an email), which comes back in lower case. Compare the result with
the value case-insensitively.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass

from duplexbench.values._spelled_names import (
    DIGIT_WORDS,
    LETTER_WORDS,
    SEPARATOR_WORDS,
    SPELLING_WORDS,
    compose,
)

__all__ = ["read_spelled"]

_PRESUB = (
    (re.compile(r"\bx[\s-]?rays?\b", re.I), " xray "),
    (re.compile(r"\bdouble[\s-]?(?:u|you|yu)\b|\bdubb?(?:ya|eya)\b", re.I), " doubleu "),
    (re.compile(r"\bfox[\s-]trot\b", re.I), " foxtrot "),
    (re.compile(r"\b(?:[A-Za-z]\.){2,}(?![A-Za-z])"), lambda m: m.group().replace(".", " ")),
    (re.compile(r"\bwithin\b", re.I), " with an "),
    (re.compile(r"\ba cute\b", re.I), " acute "),
    (re.compile(r"\bwith\s+at+ild[ae]\b", re.I), " with a tilde "),
)
_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+|\S")
_LITERAL = {"@": "@", "_": "_", "/": "/", "+": "+", "&": "&", "#": "#"}
_IGNORED = frozenset(
    {
        "ok", "okay", "hmm", "hm", "mm", "mhm", "uh", "um", "er", "ah", "so", "that's", "it's",
        "is", "the", "my", "name", "spelled", "spell", "that", "it", "yes", "yeah", "right",
        "and", "then", "sure", "of", "course", "thing", "certainly", "said", "i've", "times",
        "now", "already", "sorry", "again", "please", "well", "oh",
    }
)  # fmt: skip
_NO_VOWEL = re.compile(r"[b-df-hj-np-tv-xz]{2,4}")
_LEADS = frozenset({"as", "is", "isn't", "for", "like"})
_LINKS = frozenset({"in", "an", "a", "and", "for", "is", "as"})
_FILLERS = frozenset({"a", "an", "the", "accent", "mark"})
_TEENS = {
    "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14",
    "fifteen": "15", "sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19",
}  # fmt: skip
_TENS = {
    "twenty": "2", "thirty": "3", "forty": "4", "fifty": "5", "sixty": "6", "seventy": "7",
    "eighty": "8", "ninety": "9",
}  # fmt: skip
_REPEAT = {"double": 2, "triple": 3}
_SOUNDS_LIKE_DIGIT = {
    "oh": "0", "for": "4", "far": "4", "to": "2", "too": "2", "ate": "8", "won": "1",
    "sex": "6", "free": "3", "tree": "3",
}  # fmt: skip
"""Words that are digits next to another digit ("five five five oh one", "2 for 6")."""
_NEAR = 0.8
"""How close (difflib ratio) an unknown word must be to a phonetic word to count as it."""
_NEAR_SEPARATORS: dict[tuple[str, ...], str] = {
    ("kamma",): ",",
    ("kama",): ",",
    ("karma",): ",",
    ("spass",): " ",
}
"""Separator names as an ASR mishears them between spelling words ("Kamma, Space")."""


@dataclass(frozen=True)
class _Token:
    word: str  # lower case without accents (a single letter keeps its own), or a symbol
    raw: str
    glued: bool  # touches a literal separator character (no space between)
    symbol: bool = False
    soft: bool = False  # a full stop between words: a dot only inside an email's domain


def _folded(word: str) -> str:
    """`word` in lower case; a word of two letters or more also without its accents
    ("Dát" -> "dat"), a single letter keeps them ("é")."""
    lower = word.lower()
    if len(lower) < 2:
        return lower
    return "".join(c for c in unicodedata.normalize("NFKD", lower) if not unicodedata.combining(c))


def _tokens(text: str) -> list[_Token]:
    """Words, digit runs and the separator characters the ASR wrote inside words."""
    for pattern, repl in _PRESUB:
        text = pattern.sub(repl, text)
    found = list(_TOKEN.finditer(text))
    out: list[_Token] = []
    for k, match in enumerate(found):
        raw = match.group()
        if raw[0].isalnum():
            chunk = (
                text[: match.start()].rsplit(None, 1)[-1:] + text[match.end() :].split(None, 1)[:1]
            )
            out.append(_Token(_folded(raw), raw, glued="@" in "".join(chunk)))
            continue
        char = _symbol(found, k)
        if char:
            out.append(_Token(char, raw, glued=True, symbol=True))
        elif raw == "." and k + 1 < len(found) and found[k + 1].group()[0].isalnum():
            out.append(_Token(".", raw, glued=False, symbol=True, soft=True))
    return out


def _neighbours(found: list[re.Match[str]], k: int) -> tuple[str, str]:
    """The tokens touching token `k` on the left and right ("" where a space or nothing)."""
    match, after = found[k], found[k + 1] if k + 1 < len(found) else None
    left = found[k - 1].group() if k and found[k - 1].end() == match.start() else ""
    right = after.group() if after is not None and after.start() == match.end() else ""
    return left, right


def _symbol(found: list[re.Match[str]], k: int) -> str:
    """The separator a symbol stands for, or "" for the ASR's own punctuation."""
    char = found[k].group()
    left, right = _neighbours(found, k)
    inside = left[:1].isalnum() and right[:1].isalnum()
    if char in _LITERAL:
        return char
    if char == "." and inside:
        return "."
    if char == "-" and inside:
        singles = len(left) == 1 and len(right) == 1
        joins_letters = left.isalpha() and right.isalpha() and min(len(left), len(right)) == 1
        spelled = bool(_phonetic(_folded(left)) or _phonetic(_folded(right)))
        return "" if singles or joins_letters or spelled else "-"
    return ""


class _Reader:
    """One left-to-right pass over the tokens (module docstring)."""

    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.out: list[str] = []
        self.letter_from = -2  # the token that gave the last letter
        self.domain = False
        self.repeat = 1

    def word(self, i: int) -> str:
        return self.tokens[i].word if i < len(self.tokens) else ""

    def beside(self, i: int, step: int) -> int:
        """The token next to token `i` (`step` -1 or 1), past the full stops the ASR put
        between the pieces of a spelling ("Dash. Free. Five.")."""
        j = i + step
        while 0 <= j < len(self.tokens) and self.tokens[j].soft:
            j += step
        return j

    def emit(self, chars: str, token: int, letter: bool = False) -> None:
        for char in chars:
            self.out.extend([char] * self.repeat)
            self.repeat = 1
        if letter:
            self.letter_from = token

    def read(self) -> str:
        i = 0
        while i < len(self.tokens):
            i = self.step(i)
        text = "".join(self.out).strip()
        text = re.sub(r" {2,}", " ", text)
        return text.lower() if "@" in text else text.upper()

    def step(self, i: int) -> int:
        token = self.tokens[i]
        if token.soft:  # "example. com": a dot between the words of a domain
            if self.domain and _domain_word(self.word(i - 1)) and _domain_word(self.word(i + 1)):
                self.emit(".", i)
            return i + 1
        if token.symbol:
            self.emit(token.word, i)
            self.domain = self.domain or token.word == "@"
            return i + 1
        for reader in (self.separator, self.accent, self.as_in, self.number):
            after = reader(i)
            if after is not None:
                return after
        self.letters(i)
        return i + 1

    def separator(self, i: int) -> int | None:
        for size in (3, 2, 1):
            words = tuple(self.word(j) for j in range(i, i + size))
            char = SEPARATOR_WORDS.get(words) or _NEAR_SEPARATORS.get(words)
            if char is not None:
                self.emit(char, i)
                self.domain = self.domain or char == "@"
                return i + size
        return None

    def accent(self, i: int) -> int | None:
        """ "with a MARK (accent)" after a letter: that letter with the mark."""
        if self.word(i) != "with" or self.letter_from != i - 1 or not self.out:
            return None
        marks: list[tuple[int, str]] = []
        j = i + 1
        while j < len(self.tokens) and len(marks) < 3:
            if self.word(j) not in _FILLERS:
                marks.append((j, self.word(j)))
            j += 1
        for count in range(len(marks), 0, -1):
            char = compose(self.out[-1].upper(), [w for _, w in marks[:count]])
            if char is not None:
                self.out[-1] = char
                end = marks[count - 1][0] + 1
                return end + 1 if self.word(end) in ("accent", "mark") else end
        return i + 1

    def as_in(self, i: int) -> int | None:
        """ "D as in David" (or as an ASR writes it: "D is in David", "D as a Delta"):
        the word's letter, replacing the letter said just before it."""
        lead = self.word(i)
        if lead not in _LEADS:
            return None
        j = i + 1
        while self.word(j) in _LINKS and j < i + 3:
            j += 1
        if lead != "as" and j == i + 1 and self.letter_from != i - 1:
            return None  # "for" or "like" alone, not after a letter
        key = self.word(j)
        if not _key_word(key):
            return None
        letter = _phonetic(key) or key[0].upper()
        if self.letter_from == i - 1 and self.out:
            self.out.pop()
        self.emit(letter, j, letter=True)
        return j + 1

    def number(self, i: int) -> int | None:
        word = self.word(i)
        if self.word(i + 1) in ("times", "time") and not self._numeric(self.beside(i, -1)):
            return i + 2  # "I've said it four times now": a count, not a digit
        if word.isdigit():
            self.emit(word, i)
        elif word in DIGIT_WORDS:
            self.emit(DIGIT_WORDS[word], i)
        elif word in _SOUNDS_LIKE_DIGIT and (
            self._numeric(self.beside(i, -1)) or self._numeric(self.beside(i, 1))
        ):
            self.emit(_SOUNDS_LIKE_DIGIT[word], i)
        elif word in _TEENS:
            self.emit(_TEENS[word], i)
        elif word in _TENS:
            unit = DIGIT_WORDS.get(self.word(i + 1), "")
            self.emit(_TENS[word] + (unit or "0"), i)
            return i + (2 if unit else 1)
        elif word in _REPEAT:
            self.repeat = _REPEAT[word]
        else:
            return None
        return i + 1

    def _numeric(self, i: int) -> bool:
        word = self.word(i) if i >= 0 else ""
        return word.isdigit() or word in DIGIT_WORDS or word in _SOUNDS_LIKE_DIGIT

    def letters(self, i: int) -> None:
        token = self.tokens[i]
        word = token.word
        if word in LETTER_WORDS or word in SPELLING_WORDS:
            self.emit(LETTER_WORDS.get(word) or SPELLING_WORDS[word], i, letter=True)
        elif self.domain or token.glued:
            self.emit(word, i)
        elif word in _IGNORED:
            return
        elif (token.raw.isupper() and token.raw.isascii()) or _NO_VOWEL.fullmatch(word):
            self.emit(word.upper(), i, letter=True)
        else:
            said = _phonetic(word) or _compound(word) or self.among_words(i)
            if said:
                self.emit(said, i, letter=True)

    def among_words(self, i: int) -> str:
        """The first letter of an unknown word of 3 letters or more said between spelling
        words, within two words on each side ("Apple, Boston, Eder, Henry": "Eder" is an
        E); else ""."""
        word = self.word(i)
        if len(word) < 3 or not word.isascii() or not _key_word(word):
            return ""
        before = [self.word(j) for j in (i - 2, i - 1) if j >= 0]
        after = [self.word(j) for j in (i + 1, i + 2) if j < len(self.tokens)]
        inside = any(_phonetic(w) for w in before) and any(_phonetic(w) for w in after)
        return word[0].upper() if inside else ""


def _compound(word: str) -> str:
    """The letters and separators of spelling words the ASR wrote as one word
    ("tangohotel" -> "TH", "dottango" -> ".T"); "" if `word` is not made of them."""
    if not word.isascii() or not word.isalpha() or len(word) < 6:
        return ""
    best: list[str | None] = [""] + [None] * len(word)
    for end in range(3, len(word) + 1):
        for start in range(end - 3, -1, -1):
            head, part = best[start], word[start:end]
            said = SPELLING_WORDS.get(part) or SEPARATOR_WORDS.get((part,))
            if head is not None and said:
                best[end] = head + said
                break
    return best[-1] or ""


def _phonetic(word: str) -> str:
    """The letter of a phonetic-alphabet word, or of a near miss of 4 letters or more
    ("quebeck", "romel", "foxtribe"); "" for any other word."""
    if word in SPELLING_WORDS:
        return SPELLING_WORDS[word]
    near = (
        difflib.get_close_matches(word, SPELLING_WORDS, n=1, cutoff=_NEAR) if len(word) >= 4 else []
    )
    return SPELLING_WORDS[near[0]] if near else ""


def _domain_word(word: str) -> bool:
    """Whether `word` is a word of a domain said as words ("example", "com")."""
    if len(word) < 2 or not word.isalpha() or word in LETTER_WORDS or word in SPELLING_WORDS:
        return False
    return (word,) not in SEPARATOR_WORDS


def _key_word(word: str) -> bool:
    """Whether `word` can be the word of "X as in WORD" (a word, not a letter, digit or
    separator)."""
    if len(word) < 2 or not word.isalpha() or word in _IGNORED or word in _LINKS:
        return False
    return word not in DIGIT_WORDS and (word,) not in SEPARATOR_WORDS and word not in LETTER_WORDS


def read_spelled(text: str) -> str:
    """The value spelled in `text` (an ASR transcript of a spelling in any style; the rules
    are in the module docstring): "T X dash 2 8 9 5" -> "TX-2895", "D as in David, A, N"
    -> "DAN", "g dot a d e y e m i at example dot com" -> "g.adeyemi@example.com".
    Letters in capitals, an email in lower case; never raises."""
    return _Reader(_tokens(text)).read()
