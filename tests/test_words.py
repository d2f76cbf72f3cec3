"""What counts as a word (duplexbench.words): a token with a letter or digit."""

from __future__ import annotations

import pytest

from duplexbench.words import count_words, is_word, word_tokens


def test_the_issue_example_is_three_words() -> None:
    assert count_words("Okay — got it.") == 3
    assert word_tokens("Okay — got it.") == ["Okay", "got", "it."]


@pytest.mark.parametrize("token", ["—", "-", "–", "...", "?", "!", "&", "…", "_", "'", "(", ")"])
def test_tokens_without_a_letter_or_digit_are_not_words(token: str) -> None:
    assert not is_word(token)
    assert count_words(f"yes {token} no") == 2


@pytest.mark.parametrize("token", ["a", "I", "5", "3:30", "mm-hmm", "it's", "$20", "café", "日本"])
def test_tokens_with_a_letter_or_digit_are_words(token: str) -> None:
    assert is_word(token)


def test_token_sequences_count_the_same_as_text() -> None:
    tokens = ("Okay", "—", "got", "it.")
    assert count_words(tokens) == count_words(" ".join(tokens)) == 3
    assert count_words(["two words", " — "]) == 2  # each item is split on whitespace
    assert count_words("") == count_words([]) == 0
