"""Canonical forms of dictated values: text, booleans, phones, addresses, sets and lists.

Each function takes any JSON value and never raises; where a value cannot be read as
the asked-for type the function returns None. Intervals live in
:mod:`duplexbench.values._intervals` (``parse_interval`` and ``Interval`` are re-exported
here).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from duplexbench.values._intervals import Interval, parse_interval
from duplexbench.values._numbers import format_number, int_prefix, ordinal_suffix

__all__ = [
    "ADDRESS_ABBREVIATIONS",
    "Interval",
    "address_text",
    "as_boolean",
    "canonical_items",
    "casefold_text",
    "enum_text",
    "is_empty",
    "item_key",
    "joined_text",
    "loose_text",
    "normalize_text",
    "parse_interval",
    "phone_digits",
    "split_items",
    "value_to_text",
]

_QUOTES = "\"'“”‘’«»`"
_TRAILING_PUNCT = ".!?,"
_SPLIT = re.compile(r"\s*(?:[,;\n&]|\band\b)\s*", re.IGNORECASE)
_HARD_SPLIT = re.compile(r"\s*[,;\n]\s*")
_SOFT_SPLIT = re.compile(r"(\s+(?:and|&)\s+)", re.IGNORECASE)
_LEADING_AND = re.compile(r"^(?:and|&)\s+", re.IGNORECASE)
_SIGN = re.compile(r"(?<![\w.])[-+](?=\.?[0-9])")
_DECIMAL_POINT = re.compile(r"(?<=[0-9])\.(?=[0-9])")
_KEPT_CATEGORIES = frozenset({"Sm", "Sc", "So"})
_KEPT_MARKS = frozenset("%‰")
_TRUE_WORDS = frozenset({"true", "yes", "y"})
_FALSE_WORDS = frozenset({"false", "no", "n"})
_BULLET = re.compile(r"^(?:[-*•]|[0-9]{1,3}[.)])\s+")
_WORD = re.compile(r"[0-9]+|[^\W\d_]+")
# Spaces and hyphens between the pieces of a word: any whitespace, a hyphen (U+2010) or a
# soft hyphen, and a hyphen-minus that is not a sign before a number (the rule of _SIGN).
_ENUM_SEPARATORS = re.compile(r"[\s_\-]+")
_JOINERS = re.compile(r"(?:\s|[\u00ad\u2010]|(?<=[\w.])-|-(?!\.?[0-9]))+")

ADDRESS_ABBREVIATIONS: dict[str, str] = {
    "street": "st",
    "avenue": "ave",
    "road": "rd",
    "boulevard": "blvd",
    "drive": "dr",
    "lane": "ln",
    "court": "ct",
    "place": "pl",
    "square": "sq",
    "highway": "hwy",
    "parkway": "pkwy",
    "terrace": "ter",
    "circle": "cir",
    "suite": "ste",
    "apartment": "apt",
    "building": "bldg",
    "floor": "fl",
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "northeast": "ne",
    "northwest": "nw",
    "southeast": "se",
    "southwest": "sw",
    "mount": "mt",
}


# --- plain text ---------------------------------------------------------------------------


def is_empty(value: object) -> bool:
    """True for None, "", a whitespace-only string, and an empty list or dict."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, list | dict | tuple):
        return len(value) == 0
    return False


def normalize_text(text: str) -> str:
    """Unicode NFKC, stripped, internal whitespace collapsed to one space."""
    if not text.isascii():  # NFKC leaves ASCII text as it is
        text = unicodedata.normalize("NFKC", text)
    return " ".join(text.split())


def value_to_text(value: object) -> str:
    """A JSON value as normalized text: numbers without a trailing ".0", lists as JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        try:
            return str(value)
        except ValueError:  # more digits than int->str conversion allows
            return "<huge int>"
    if isinstance(value, float):
        return format_number(value)
    if isinstance(value, str):
        return normalize_text(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_json_item(item) for item in value) + "]"
    if isinstance(value, dict):
        items = sorted((str(k), _json_item(v)) for k, v in value.items())
        return "{" + ", ".join(f"{_json_item(k)}: {v}" for k, v in items) + "}"
    return normalize_text(str(value))


def _json_item(value: object) -> str:
    if isinstance(value, str):
        return '"' + normalize_text(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
    if value is None:
        return "null"
    return value_to_text(value)


def casefold_text(value: object) -> str:
    """Normalized, casefolded text without surrounding quotes or trailing . ! ? ,"""
    text = value_to_text(value).casefold()
    previous = None
    while text != previous:
        previous = text
        text = text.strip().strip(_QUOTES).rstrip(_TRAILING_PUNCT)
    return normalize_text(text)


def loose_text(value: object) -> str:
    """Casefolded text with punctuation turned into spaces, keeping what changes a meaning.

    Kept: a sign before a number ("-5", "+5"; "\u2212" reads as "-"), a decimal point
    between digits ("5.5"), percent and per-mille signs, and currency, math and other
    symbols ("$", "<", "°"), each symbol as a word of its own ("5%" -> "5 %"). So
    "-5 degrees" is not "5 degrees" and "5% discount" is not "5 discount"; hyphens,
    dashes, quotes and other punctuation still become spaces ("follow-up" -> "follow up").
    """
    text = casefold_text(value).replace("\u2212", "-")
    kept = {m.start() for m in _SIGN.finditer(text)}
    kept |= {m.start() for m in _DECIMAL_POINT.finditer(text)}
    out: list[str] = []
    for i, char in enumerate(text):
        if char.isalnum() or char.isspace() or i in kept:
            out.append(char)
        elif char in _KEPT_MARKS or unicodedata.category(char) in _KEPT_CATEGORIES:
            out.append(f" {char} ")
        else:
            out.append(" ")
    return normalize_text("".join(out))


def joined_text(text: str) -> str:
    """``text`` with the spaces and hyphens between its pieces removed: "on site",
    "on-site" and "onsite" all give "onsite", "e-mail" gives "email".

    For the word graders (``casefold_exact``, ``semantic``, ``enum``), applied to their
    canonical text, never to ``exact`` ("TX-2895-ZF" stays an identifier). Two things
    are kept because removing them would change a value: a sign before a number ("-5"
    stays "-5"), and a separator between two digits, which becomes one space, so that
    "10-20" and "10 20" agree but neither is "1020", nor "4 654" "4654".
    """

    def replace(match: re.Match[str]) -> str:
        start, end = match.start(), match.end()
        between_digits = start > 0 and end < len(text)
        between_digits = between_digits and text[start - 1].isdigit() and text[end].isdigit()
        return " " if between_digits else ""

    return _JOINERS.sub(replace, text)


def as_boolean(value: object) -> bool | None:
    """A JSON boolean, or a string spelling one ("true"/"yes"/"y", "false"/"no"/"n", any
    case, quotes and trailing punctuation ignored); None for anything else."""
    if isinstance(value, bool):
        return value
    if not isinstance(value, str):
        return None
    text = casefold_text(value)
    if text in _TRUE_WORDS:
        return True
    return False if text in _FALSE_WORDS else None


def enum_text(value: object) -> str:
    """Casefolded label with spaces, underscores and hyphens unified: "in_person" -> "in person"."""
    return normalize_text(_ENUM_SEPARATORS.sub(" ", value_to_text(value).casefold()))


# --- phones and addresses -----------------------------------------------------------------


def _number_run(tokens: Sequence[str], i: int) -> tuple[str, int] | None:
    """Spoken number words from ``tokens[i]`` on, concatenated as digits ("one twenty" -> "120")."""
    pieces: list[str] = []
    while i < len(tokens):
        if pieces and tokens[i] in ("oh", "o"):
            pieces.append("0")
            i += 1
            continue
        parsed = int_prefix(tokens, i, allow_ordinal=True, allow_article=False)
        if parsed is None:
            break
        value, i, ordinal = parsed
        pieces.append(f"{value}{ordinal_suffix(value)}" if ordinal else str(value))
        if ordinal:
            break
    return ("".join(pieces), i) if pieces else None


def phone_digits(value: object) -> str:
    """The digits of a phone number, spoken digits included; a leading US "1" is dropped.

    "five five five, one two three" -> "555123"; "oh" is 0, "double five" is 55, "triple
    two" is 222. An 11-digit number starting with 1 loses the 1, so "+1 555 123 4567"
    and "555-123-4567" agree.
    """
    tokens = _WORD.findall(value_to_text(value).casefold())
    digits: list[str] = []
    repeat, i = 1, 0
    while i < len(tokens):
        token = tokens[i]
        if token in ("double", "triple"):
            repeat, i = (2 if token == "double" else 3), i + 1
            continue
        if token.isascii() and token.isdigit():
            chunk, i = token, i + 1
        elif token in ("oh", "o"):
            chunk, i = "0", i + 1
        elif (run := _number_run(tokens, i)) is not None and run[0].isdigit():
            chunk, i = run
        else:
            repeat, i = 1, i + 1
            continue
        digits.append(chunk[0] * repeat + chunk[1:])
        repeat = 1
    result = "".join(digits)
    return result[1:] if len(result) == 11 and result.startswith("1") else result


def address_text(value: object) -> str:
    """Lowercase address with punctuation dropped, spoken numbers as digits, short suffixes.

    "Twelve Oak Street, Apartment #4" -> "12 oak st apt 4"; "Fifth Avenue" -> "5th ave".
    """
    text = re.sub(r"[^\w]|_", " ", value_to_text(value).casefold())
    tokens = text.split()
    out: list[str] = []
    i = 0
    while i < len(tokens):
        run = _number_run(tokens, i)
        if run is not None:
            out.append(run[0])
            i = run[1]
            continue
        out.append(ADDRESS_ABBREVIATIONS.get(tokens[i], tokens[i]))
        i += 1
    return " ".join(out)


# --- sets and lists -----------------------------------------------------------------------


def split_items(value: object) -> list[str] | None:
    """The elements of a list-like value, in order, as normalized text.

    A list gives its elements; a string is split on commas, semicolons, newlines, "&"
    and the word "and" (leading bullets such as "- " or "1. " are dropped). Blank
    elements are dropped. Dicts and other values give None. The graders do not use
    this: they split on "and" only where the gold allows it (:func:`canonical_items`).
    """
    if isinstance(value, list | tuple):
        raw = [value_to_text(item) for item in value]
    elif isinstance(value, str):
        raw = _SPLIT.split(unicodedata.normalize("NFKC", value))
    elif isinstance(value, bool | int | float):
        raw = [value_to_text(value)]
    else:
        return None
    items = [normalize_text(_BULLET.sub("", item.strip())) for item in raw]
    return [item for item in items if item]


def item_key(item: str, item_grader: str) -> str:
    """How set/list elements are compared: "exact" or (default) "casefold_exact"."""
    return normalize_text(item) if item_grader == "exact" else casefold_text(item)


def _hard_items(value: object) -> tuple[list[str], bool] | None:
    """Elements split on commas, semicolons and newlines, and whether they came from a
    string (so that "and" may split them further)."""
    if isinstance(value, list | tuple):
        return [value_to_text(item) for item in value], False
    if isinstance(value, bool | int | float):
        return [value_to_text(value)], False
    if not isinstance(value, str):
        return None
    pieces = _HARD_SPLIT.split(unicodedata.normalize("NFKC", value))
    pieces = [_LEADING_AND.sub("", _BULLET.sub("", piece.strip())) for piece in pieces]
    return pieces, True


def _split_on_and(piece: str, item_grader: str, gold: frozenset[str]) -> list[str]:
    """``piece`` split at each " and " / " & ", except inside a run that is a gold element:
    gold {"rock", "roll"} splits "rock and roll"; gold {"rock and roll"} keeps it whole."""
    parts = _SOFT_SPLIT.split(piece)
    words, separators = parts[0::2], parts[1::2]
    # A run of words joined by k separators holds at least k + 1 tokens, so no run
    # longer than the longest gold element's token count can be one: checking only
    # those keeps this linear in the value's length (it was cubic: 29 s for 1,000
    # "and"-joined words).
    longest = max((len(element.split()) for element in gold), default=0)

    def joined(i: int, j: int) -> str:
        return "".join(w + s for w, s in zip(words[i:j], separators[i:j], strict=False)) + words[j]

    out: list[str] = []
    i = 0
    while i < len(words):
        last = min(len(words) - 1, i + longest)
        j = next(
            (j for j in range(last, i, -1) if item_key(joined(i, j), item_grader) in gold),
            i,
        )
        out.append(joined(i, j))
        i = j + 1
    return out


def canonical_items(
    value: object, item_grader: str, gold: Sequence[str] | None = None
) -> list[str] | None:
    """Canonical elements in order (duplicates kept), or None when not list-like.

    A list gives its elements. A string is split on commas, semicolons and newlines
    (leading bullets and a leading "and " are dropped: "a, b, and c" is three). "and"
    and "&" split a string further only when ``gold`` (the gold value's canonical
    elements) is given, and never inside a run of words that is one of its elements:
    against gold ["rock", "roll"] "rock and roll" is two elements, against gold
    ["rock and roll"] it is one. A gold written as one string is therefore never split
    on "and" ("Rock and Roll" is one element, and "rock, roll" does not match it).
    """
    found = _hard_items(value)
    if found is None:
        return None
    pieces, from_string = found
    if from_string and gold is not None:
        allowed = frozenset(gold)
        pieces = [part for piece in pieces for part in _split_on_and(piece, item_grader, allowed)]
    keys = [item_key(normalize_text(piece), item_grader) for piece in pieces]
    return [key for key in keys if key]
