"""Reading what the caller said: values by field type, yes/no, corrections.

Rule-based and deterministic. It sees only the words (as heard, possibly
misrecognized by ASR) and the field schemas.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from duplexbench.agents._notes.schema import FieldInfo
from duplexbench.values import (
    format_number,
    parse_date,
    parse_interval,
    parse_number,
    phone_digits,
    split_items,
)

_FILLER = re.compile(
    r"^(?:(?:ok(?:ay)?|sure|yes|yeah|so|well|um+|uh+|right)[,.]?\s+)*"
    r"(?:it'?s|it is|it was|that would be|that's|that is|we need|i need|it came to|"
    r"the \w+(?: \w+)? (?:is|was|would be)|my \w+(?: \w+)? is|i'd like|i would like|"
    r"let's do|let's say|please use|use)\s+",
    re.IGNORECASE,
)
_YES = re.compile(r"\b(yes|yeah|yep|correct|right|go ahead|please do|approve|sure|ok(ay)?)\b", re.I)
_NO = re.compile(r"\b(no|not yet|don'?t|do not|stop|wait|hold (on|off)|cancel)\b", re.I)
_UNKNOWN = re.compile(r"\b(don'?t (know|have)|not sure|no idea|couldn'?t tell)\b", re.I)
_CORRECTION = re.compile(
    r"\b(actually|sorry|misspoke|correction|instead|make it|change it|should be|not right)\b"
    r"|^\s*no\b[,.]?\s+(the|it'?s)\b"
    r"|, not \S+|\bnot \S+, (it'?s|but)\b"
    r"|\bi need (?:the|my|our|its) [\w' ]{1,40}? to be\b",
    re.I,
)
_OLD = re.compile(r"\b(?:not|instead of)\s+([^,.;!?]+)", re.I)
_STOP = {"the", "a", "an", "my", "our", "please", "plan", "and", "of", "for", "to", "is"}
_NAME = re.compile(r"[A-Z][a-zA-Z'\-]+(?:\s+[A-Z][a-zA-Z'\-]+)+")
_ORDINAL_FILLER = re.compile(r"^(first|then|next|finally|and|also|plus|the|lastly)\s+", re.I)


_LEAD = re.compile(
    r"^(?:sorry,? what was that\??|oh|um+|uh+|hmm+|right|okay|ok|so|well|hi|hello\??|yes|"
    r"let me (?:see|think|check)|i think|i believe|probably|quickly:?|sorry|it'?s,? uh,? sorry)"
    r"[,.:!?]?\s+",
    re.IGNORECASE,
)
_TAIL = re.compile(
    r"[,.]?\s*(?:if i remember correctly|i believe|i think|next|yes|please)[.!?]?\s*$",
    re.IGNORECASE,
)
_SAID_AGAIN = re.compile(r"^(.+?),\s*i mean,?\s*(?:yes,?\s*)?(.+)$", re.IGNORECASE)


def clean(text: str) -> str:
    """The value part of an answer: fillers, hedges and trailing punctuation removed
    ("Sorry, what was that? Oh, X." -> "X"; "X, if I remember correctly" -> "X";
    "X, I mean, yes, X" -> "X")."""
    out = text.strip()
    again = _SAID_AGAIN.match(out)
    if again:
        out = again.group(2)
    previous = None
    while previous != out:
        previous = out
        out = _FILLER.sub("", out).strip()
        out = _LEAD.sub("", out).strip()
        out = _TAIL.sub("", out).strip()
    return out.rstrip(" .!?,")


_SPELLED_EXAMPLE = re.compile(r"e\.g\.\s*([A-Z0-9]+(?:-[A-Z0-9]+)+)\b")


def spelled_identifier(value: str, description: str) -> str | None:
    """An identifier dictated letter by letter ("C M dash 9667 dash GP", "eg-7838-ua"),
    written like the field's example (e.g. EG-4821-KQ): upper case, dashes, no spaces."""
    example = _SPELLED_EXAMPLE.search(description)
    if example is None:
        return None
    text = re.sub(r"\b(?:dash|hyphen|minus)\b", "-", value, flags=re.IGNORECASE)
    text = re.sub(r"\s*-\s*", "-", text)
    compact = re.sub(r"[^A-Za-z0-9\-]", "", text).upper().strip("-")
    return _like(compact, example.group(1)) if compact else None


def _like(heard: str, example: str) -> str:
    """Dashes where the example has them, when the characters line up (letter for
    letter, digit for digit); otherwise what was heard."""
    bare, shape = heard.replace("-", ""), example.replace("-", "")
    if len(bare) != len(shape) or any(
        a.isdigit() != b.isdigit() for a, b in zip(bare, shape, strict=True)
    ):
        return heard
    out, i = [], 0
    for ch in example:
        if ch == "-":
            out.append("-")
        else:
            out.append(bare[i])
            i += 1
    return "".join(out)


def is_yes(text: str) -> bool:
    return bool(_YES.search(text)) and not _NO.search(text)


def is_no(text: str) -> bool:
    return bool(_NO.search(text))


def is_unknown(text: str) -> bool:
    return bool(_UNKNOWN.search(text))


_ASKED_AGAIN = re.compile(
    r"\b(?:sorry|pardon|excuse me),? (?:what was that|come again|what did you say|"
    r"could you repeat that|say that again)\?*",
    re.IGNORECASE,
)
"""A caller who did not catch the question ("Sorry, what was that? Oh, X."): the
"sorry" corrects nothing."""


def is_correction(text: str) -> bool:
    return bool(_CORRECTION.search(_ASKED_AGAIN.sub(" ", text)))


def _tokens(text: str) -> set[str]:
    return {t for t in re.findall(r"[a-z0-9]+", text.casefold()) if t not in _STOP}


def best_choice(text: str, choices: tuple[str, ...]) -> str | None:
    """The choice sharing the most words with the text (ties: the longer choice)."""
    said = _tokens(text)
    scored = [(len(_tokens(c) & said), len(c), c) for c in choices]
    best = max(scored, default=(0, 0, ""))
    return best[2] if best[0] > 0 else None


def _names(piece: str) -> str | None:
    match = max(_NAME.findall(piece), key=len, default=None)
    return match


def parse_list(text: str) -> list[str]:
    pieces = split_items(clean(text)) or []
    names = [_names(p) for p in pieces]
    if sum(n is not None for n in names) * 2 >= max(1, len(pieces)):
        return [n for n in names if n]
    out = []
    for piece in pieces:
        item = piece
        while _ORDINAL_FILLER.match(item):
            item = _ORDINAL_FILLER.sub("", item)
        if item:
            out.append(item.strip(" .").lower())
    return out


def about(text: str, words: str) -> str:
    """The part of `text` that speaks about a field: from its name to the sentence end."""
    pattern = r"\b" + r"\W+".join(re.escape(w) for w in words.split()) + r"\b"
    match = re.search(pattern, text, flags=re.IGNORECASE)
    if match is None:
        return text
    rest = text[match.end() :]
    rest = re.sub(r"^\s*(?:is|was|should be|as)?\s*:?\s*", "", rest, flags=re.IGNORECASE)
    end = re.search(r"[.!?](?:\s|$)", rest)
    return rest[: end.start()] if end else rest


_EXAMPLE = re.compile(r"e\.g\.\s*([A-Za-z]+)([-\s]?)(\d+)\b")
_IDENTIFIER = re.compile(r"^([A-Za-z](?:[\s\-]?[A-Za-z])*)[\s\-]*([\d,\s]+)$")


def conform(value: str, description: str) -> str:
    """Write an identifier the way the field's example shows ("CC 330" + "e.g. CC-100")."""
    example = _EXAMPLE.search(description)
    heard = _IDENTIFIER.match(value.strip())
    if example is None or heard is None:
        return value
    letters = re.sub(r"[\s\-]", "", heard.group(1)).upper()
    digits = re.sub(r"[\s,]", "", heard.group(2))
    return f"{letters}{example.group(2)}{digits}"


def old_value(text: str) -> str | None:
    """The value a correction takes back: "12 boxes, not 10" -> "10"."""
    match = _OLD.search(text)
    return match.group(1).strip() if match else None


def _without_old(text: str) -> str:
    """Drop the "not X" / "instead of X" part of a correction."""
    return re.sub(r"\b(not|instead of)\s+[^,.;]+", " ", text, flags=re.I)


def parse_value(info: FieldInfo, text: str, year: int) -> Any:
    """A value for the field from an answer, or None if it cannot be read."""
    body = _without_old(text) if is_correction(text) else text
    if info.kind == "enum":
        return best_choice(body, info.choices)
    if info.kind in ("number", "integer"):
        number = parse_number(_numbers_only(body))
        if number is None:
            return None
        return int(number) if info.kind == "integer" or number.is_integer() else number
    if info.kind == "date":
        return _date(body, year)
    if info.kind == "phone":
        digits = phone_digits(body)
        return f"{digits[:3]}-{digits[3:6]}-{digits[6:]}" if len(digits) == 10 else digits or None
    if info.kind == "list":
        return parse_list(body) or None
    if info.kind == "interval":
        interval = parse_interval(clean(body))
        return interval.describe().replace("/", "-") if interval else None
    spelled = spelled_identifier(clean(body), info.description)
    if spelled is not None:
        return spelled
    value = conform(clean(body), info.description)
    name = _names(value)
    if name and value[:1].islower():
        return name  # "my husband, Arjun Raman" -> "Arjun Raman"
    return value or None


def _numbers_only(text: str) -> str:
    match = re.search(
        r"[$]?\d[\d,]*(\.\d+)?|\b(?:[a-z]+[ -])*(?:hundred|thousand)\b[\w -]*", text, re.I
    )
    return match.group(0) if match else text


def _date(text: str, year: int) -> str | None:
    found = parse_date(clean(text))
    if found is None:
        found = parse_date(f"{clean(text)} {year}")
    return found.isoformat() if found else None


def spoken(value: Any) -> str:
    """How the agent says a value back."""
    if isinstance(value, float):
        return format_number(value)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


_ISO_DAY = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


def say_value(value: Any) -> str:
    """A value as an agent reads it back: a date in words, a list joined by "and", no
    comma inside a value (the caller reads a value up to the next comma)."""
    if isinstance(value, str):
        match = _ISO_DAY.match(value)
        if match:
            try:
                day = dt.date(int(match[1]), int(match[2]), int(match[3]))
            except ValueError:
                return value
            return f"{day:%B} {day.day}, {day.year}"
        return value.replace(", ", " ")  # a comma would end the value for the caller
    if isinstance(value, list):
        return " and ".join(str(v) for v in value)
    return spoken(value)
