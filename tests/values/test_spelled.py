"""Spelled forms: spell, digit_groups and read_spelled (no TTS, no ASR)."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplexbench.values import (
    DEFAULT_SPELLING_STYLE,
    SPELL_GAP_MS,
    SPELLING_STYLES,
    SpelledForm,
    SpellingStyle,
    digit_groups,
    read_spelled,
    spell,
)

VALUES = [
    "Nakamura",
    "Hannah Delacroix",
    "Mary-Jane Smith",
    "Siobhan O'Connor",
    "Amara Thorvaldsen",
    "Tomás Quiñones",
    "Zoë Müller",
    "François Çelik",
    "Kwame Achterberg-Okafor",
    "Li",
    "X",
    "TX-2895-ZF",
    "UT2579",
    "EG-5636-AL",
    "VS-825-LC8",
    "SN-79AS-298",
    "EV-AS26-6",
    "PN-PX4988",
    "CC-677-D",
    "ER-775",
    "O0O0",
    "A1B2C3",
    "g.adeyemi@example.com",
    "n.quiñones@example.com",
    "s.fairweather@example.com",
    "first_last@mail.example.org",
    "a+tag@example.co.uk",
    "x@one.com",
    "555-993-9731",
    "+44 7700 900123",
    "(415) 555-0134",
    "07700 900123",
    "16601",
    "a/b",
    "path_to/file.txt",
    "-dash-",
]


def _written(value: str) -> str:
    """The value as read back is compared: blanks squeezed, case folded."""
    return re.sub(r"\s+", " ", value.strip()).casefold()


@pytest.mark.parametrize("style", SPELLING_STYLES)
@pytest.mark.parametrize("value", VALUES)
def test_round_trip(value: str, style: SpellingStyle) -> None:
    form = spell(value, style)
    assert form.pieces and all(piece.strip() for piece in form.pieces)
    assert read_spelled(form.text).casefold() == _written(value)
    # the pieces read one by one give the same value (the realization says them apart)
    assert read_spelled(" ".join(form.pieces)) == read_spelled(form.text)


def test_styles_and_defaults() -> None:
    assert set(SPELLING_STYLES) == {"letters", "confusable", "phonetic", "words"}
    assert DEFAULT_SPELLING_STYLE in SPELLING_STYLES
    assert DEFAULT_SPELLING_STYLE == "words"
    assert 200 <= SPELL_GAP_MS <= 500  # under the 700 ms endpointing of the built-in agents
    assert spell("Nakamura", "letters").pieces == ("N, A, K, A,", "M, U, R, A.")
    assert spell("Nakamura", "phonetic").pieces == (
        "November, Alpha, Kilo, Alpha, Mike, Uniform, Romeo, Alpha.",
    )
    assert spell("Dan", "confusable").pieces == ("D as in David, A, N as in Nancy.",)
    # words: a clip per letter (the separator leads the next one)
    assert spell("Nakamura", "words").pieces == (
        "Nancy,", "Apple,", "King,", "Apple,", "Michael,", "Uniform,", "Robert,", "Apple.",
    )  # fmt: skip
    assert spell("TX-28", "words").pieces == ("Tom,", "X-ray,", "dash, 2,", "8.")
    assert spell("Nakamura") == spell("Nakamura", DEFAULT_SPELLING_STYLE)
    assert spell("TX-2895-ZF", "phonetic").pieces == (
        "Tango, X-ray,",
        "dash, 2, 8, 9, 5,",
        "dash, Zulu, Foxtrot.",
    )


def test_text_joins_the_pieces() -> None:
    form = SpelledForm(("T, X.", "dash, 2, 8, 9, 5."))
    assert form.text == "T, X. dash, 2, 8, 9, 5."
    with pytest.raises(AttributeError):
        cast(Any, form).pieces = ()  # frozen


def test_email_domain_said_as_words() -> None:
    pieces = spell("g.adeyemi@example.com", "letters").pieces
    assert pieces[-1] == "at example dot com."
    assert pieces[0] == "G, dot, A, D, E,"  # a lone letter joins the next piece
    # a domain the reader could not read back as words is spelled
    assert spell("x@one.com", "letters").pieces == ("X, at, O, N, E,", "dot, C, O, M.")


def test_separators_are_named() -> None:
    text = spell("a_b/c+d'e f.g-h", "letters").text
    for name in ("underscore", "slash", "plus", "apostrophe", "space", "dot", "dash"):
        assert name in text


def test_accents_are_named_and_read_back() -> None:
    assert spell("é", "letters").pieces == ("E with an acute accent.",)
    assert spell("ñ", "phonetic").pieces == ("November with a tilde.",)
    assert "U with an umlaut" in spell("Müller", "letters").text
    assert "C with a cedilla" in spell("ç", "letters").text
    assert read_spelled("E with an acute accent") == "É"
    assert read_spelled("u with an umlaut, n") == "ÜN"
    assert read_spelled("A with a ring") == "Å"


@pytest.mark.parametrize(
    "value", ["😀", "東京", "✓", "\x00", "\U000e0001", "Ωmega", "ß", "Æ", "\u0301"]
)
def test_unspeakable_characters_still_speak(value: str) -> None:
    for style in SPELLING_STYLES:
        form = spell(value, style)
        assert form.pieces and all(p.strip() for p in form.pieces)
        assert all(p.isprintable() for p in form.pieces)
    assert spell("😀", "letters").pieces == ("grinning face.",)
    assert spell("\x00", "letters").pieces == ("character number 0.",)


def test_blank_values_have_no_pieces() -> None:
    assert spell("", "letters").pieces == ()
    assert spell(" \t\n", "phonetic").pieces == ()
    assert digit_groups("").pieces == ()
    assert digit_groups("--").pieces == ()


def test_long_words_are_cut_in_groups() -> None:
    assert spell("Thorvaldsen", "letters").pieces == ("T, H, O,", "R, V, A, L,", "D, S, E, N.")
    assert spell("Thorvaldsen", "phonetic").pieces == (
        "Tango, Hotel, Oscar, Romeo, Victor, Alpha, Lima, Delta, Sierra, Echo, November.",
    )
    assert spell("UT2579", "letters").pieces == ("U, T,", "2, 5, 7, 9.")


@pytest.mark.parametrize(
    ("value", "pieces"),
    [
        ("555-0142", ("5 5 5,", "0 1 4 2.")),
        ("16601", ("1 6,", "6 0 1.")),
        ("TX-2895-ZF", ("T X,", "2 8 9 5,", "Z F.")),
        ("UT2579", ("U T,", "2 5 7 9.")),
        ("5559939731", ("5 5 5,", "9 9 3,", "9 7 3 1.")),
        ("(415) 555-0134", ("4 1 5,", "5 5 5,", "0 1 3 4.")),
        ("+44 7700 900123", ("4 4,", "7 7 0 0,", "9 0 0,", "1 2 3.")),
        ("CC-677-D", ("C C,", "6 7 7 D.")),
        ("ab", ("A B.",)),
        ("7", ("7.",)),
    ],
)
def test_digit_groups(value: str, pieces: tuple[str, ...]) -> None:
    form = digit_groups(value)
    assert form.pieces == pieces
    assert digit_groups("555-0142").text == "5 5 5, 0 1 4 2."
    assert re.sub(r"\W", "", read_spelled(form.text)) == re.sub(r"\W", "", value.upper())


@pytest.mark.parametrize(
    ("heard", "value"),
    [
        ("T X dash 2 8 9 5", "TX-2895"),
        ("Tango X-ray dash two eight nine five", "TX-2895"),
        ("tango xray dash 2895", "TX-2895"),
        ("D as in David, A, N", "DAN"),
        ("D for David, A, N.", "DAN"),
        ("D is in Delta, A, and as in November.", "DAN"),
        ("N, A, K, A, M, U, R, A", "NAKAMURA"),
        ("N. A. K. A. M. U. R. A.", "NAKAMURA"),
        ("NAKA. AMU. RA.", "NAKAAMURA"),
        ("N-A-K-A-M-U-R-A.", "NAKAMURA"),
        ("g dot a d e y e m i at example dot com", "g.adeyemi@example.com"),
        ("G. Dot, A-D-E. Y-E-M-I. At example.com.", "g.adeyemi@example.com"),
        ("g.adeyemi@example.com", "g.adeyemi@example.com"),
        ("Okay, that's U T 2 5 7 9.", "UT2579"),
        ("Bee, see, dee, you, are, why, ex, double-u", "BCDURYXW"),
        ("Alfa, Juliett, x ray, Whisky", "AJXW"),
        ("Boston, Charles, Zachary, Violet", "BCZV"),
        ("Kilo. Dott. Bravo. Echo. At example. Com.", "k.be@example.com"),
        ("At example. com.", "@example.com"),
        ("2 for 6, oh", "2460"),
        ("November with attilda", "Ñ"),
        ("double five, oh, four", "5504"),
        ("five five five, oh one four two", "5550142"),
        ("U-T-5-9-7-4.", "UT5974"),
        ("J.D. 7 6 7 4.", "JD7674"),
        ("Quebeck, Romel, Foxtrott", "QRF"),
        ("S space O apostrophe C", "S O'C"),
        ("F I R S T underscore L A S T", "FIRST_LAST"),
        ("", ""),
        ("Hmm, okay.", ""),
        # whisper's full stops between the pieces do not part a digit from its neighbours
        ("Sure. Peter. Michael. Dash. Free. Five. Five. Four. Dash. Uniform.", "PM-3554-U"),
        ("Dash. 2. To. 5.", "-225"),
        # whisper's "Kamma" and "Spass" between spelling words, "within (a cute) accent"
        ("Apple, Nancy, Kamma, Space, Boston", "AN, B"),
        ("Apple, Spass, Boston", "A B"),
        ("Tango, Oscar, Mike, Alpha within acute accent, Sierra", "TOMÁS"),
        ("Tango, Oscar, Mike, Alpha with a cute accent. Sierra", "TOMÁS"),
    ],
)
def test_read_spelled(heard: str, value: str) -> None:
    assert read_spelled(heard) == value


def test_read_spelled_case() -> None:
    assert read_spelled("t x") == "TX"
    assert read_spelled("A T at example dot com") == "at@example.com"


_ASCII = st.text(
    alphabet=st.sampled_from(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._@/+' "
    ),
    max_size=24,
)


@settings(max_examples=300, deadline=None)
@given(value=_ASCII, style=st.sampled_from(SPELLING_STYLES))
def test_round_trip_any_ascii_value(value: str, style: SpellingStyle) -> None:
    form = spell(value, style)
    assert all(piece.strip() for piece in form.pieces)
    assert read_spelled(form.text).casefold() == _written(value)


@settings(max_examples=300, deadline=None)
@given(value=st.text(max_size=16), style=st.sampled_from(SPELLING_STYLES))
def test_any_string_spells_and_reads(value: str, style: SpellingStyle) -> None:
    form = spell(value, style)
    assert all(piece.strip() and piece.isprintable() for piece in form.pieces)
    assert bool(form.pieces) == bool(value.strip())
    read_spelled(form.text)
    digit_groups(value)


@settings(max_examples=200, deadline=None)
@given(
    value=st.text(
        alphabet=st.characters(min_codepoint=0xC0, max_codepoint=0x17F, categories=["Lu", "Ll"]),
        min_size=1,
        max_size=8,
    )
)
def test_latin_letters_with_marks_round_trip(value: str) -> None:
    # every Latin letter with one mark comes back; letters without a base (ß, æ, ĳ) are said
    # by name or as two letters
    single = all(
        unicodedata.name(c).split(" LETTER ")[-1][:1].isalpha() and " WITH " in unicodedata.name(c)
        for c in value
    )
    read = read_spelled(spell(value, "letters").text)
    if single:
        assert read == value.upper() or read.casefold() == value.casefold()


@given(text=st.text(max_size=60))
def test_read_spelled_never_raises(text: str) -> None:
    read_spelled(text)


@pytest.mark.parametrize(
    ("heard", "read"),
    [
        ("Sure. Apple, Boston, Charles.", "ABC"),
        ("Of course. November, Alpha.", "NA"),
        ("Sure thing. David, Apple, Nancy.", "DAN"),
        ("I've said it four times now. Sure. Apple, Boston, Eder, Henry.", "ABEH"),
        ("That's three times I've said it. Of course. 5 5 5, 0 1 4 2.", "5550142"),
    ],
)
def test_the_callers_lead_in_and_patience_are_no_letters(heard: str, read: str) -> None:
    assert read_spelled(heard) == read
