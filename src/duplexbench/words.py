"""What counts as a word, for every rule that counts words.

A word is a whitespace-separated token with at least one letter or digit
(any script): "Okay — got it." is three words ("Okay", "got", "it."); the
spaced dash, a lone "...", "?" or "&" is no word. Punctuation attached to a
word stays with it ("it." is one word). Used wherever a count decides
something: substantive vs backchannel agent segments, takeovers and
follow-through word counts (`scoring/_actions/`), the cue controller and the
takeover detector of action replays (`orchestrator/_cue.py`) and backchannel
candidates in corpus extraction (`suites/actions/`).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Sequence

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
