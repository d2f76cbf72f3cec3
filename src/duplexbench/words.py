"""What counts as a word, for every rule that counts words.

A word is a whitespace-separated token with at least one letter or digit
(any script): "Okay — got it." is three words ("Okay", "got", "it."); the
spaced dash, a lone "...", "?" or "&" is no word. Punctuation attached to a
word stays with it ("it." is one word). Used wherever a count decides
something: substantive vs backchannel agent segments, takeovers and
follow-through word counts (`scoring/_actions/`), the cue controller and the
takeover detector of action replays (`orchestrator/_cue.py`) and backchannel
candidates in corpus extraction (`suites/actions/`).

It also holds the one table of English number words (:data:`UNIT_WORDS`,
:data:`TEEN_WORDS`, :data:`TENS_WORDS`, :data:`SCALE_WORDS`,
:data:`ORDINAL_WORDS`), read by every layer that turns spoken numbers into
values: the spelled-number parser of `values/_numbers.py`, the WER normalizer
of `speech/_voice_check.py` and the caller's words of `users/_spoken.py`. Each
reader keeps its own extras next to it ("zero", "oh", which scales it reads).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping, Sequence

_WORD_CHAR = re.compile(r"[^\W_]")
"""A letter or digit in any script (`\\w` without the underscore)."""


def is_word(token: str) -> bool:
    """Whether `token` is a word: it has a letter or a digit."""
    return _WORD_CHAR.search(token) is not None


def word_tokens(text: str | Iterable[str]) -> list[str]:
    """The words of `text` (split on whitespace) or of a token sequence, in order."""
    tokens = text.split() if isinstance(text, str) else (t for s in text for t in s.split())
    return [t for t in tokens if is_word(t)]


def count_words(text: str | Iterable[str]) -> int:
    """How many words `text` (or the token sequence) has."""
    return len(word_tokens(text))


def edits(reference: Sequence[Hashable], hypothesis: Sequence[Hashable]) -> int:
    """Levenshtein distance: the fewest substitutions, deletions and insertions that turn
    `reference` into `hypothesis` (words for a word error rate, characters for a string)."""
    previous = list(range(len(hypothesis) + 1))
    for i, ref in enumerate(reference, 1):
        current = [i]
        for j, hyp in enumerate(hypothesis, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ref != hyp)))
        previous = current
    return previous[-1]


# ------------------------------------------------------------ number words

UNIT_WORDS: Mapping[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9,
}  # fmt: skip
"""The number words one to nine ("zero" is each reader's own)."""
TEEN_WORDS: Mapping[str, int] = {
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
"""The number words ten to nineteen."""
TENS_WORDS: Mapping[str, int] = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
"""The tens from twenty to ninety."""
SCALE_WORDS: Mapping[str, int] = {
    "thousand": 10**3,
    "million": 10**6,
    "billion": 10**9,
    "trillion": 10**12,
}
"""The scales that multiply the group before them ("hundred" is not one: it is read
inside a group)."""
ORDINAL_WORDS: Mapping[str, str] = {
    "first": "one", "second": "two", "third": "three", "fourth": "four", "fifth": "five",
    "sixth": "six", "seventh": "seven", "eighth": "eight", "ninth": "nine", "tenth": "ten",
    "eleventh": "eleven", "twelfth": "twelve", "thirteenth": "thirteen",
    "fourteenth": "fourteen", "fifteenth": "fifteen", "sixteenth": "sixteen",
    "seventeenth": "seventeen", "eighteenth": "eighteen", "nineteenth": "nineteen",
    "twentieth": "twenty", "thirtieth": "thirty", "fortieth": "forty", "fiftieth": "fifty",
    "sixtieth": "sixty", "seventieth": "seventy", "eightieth": "eighty",
    "ninetieth": "ninety", "hundredth": "hundred", "thousandth": "thousand",
    "millionth": "million",
}  # fmt: skip
"""Ordinal words to the cardinal word they end a number as ("twenty first" is 21)."""
