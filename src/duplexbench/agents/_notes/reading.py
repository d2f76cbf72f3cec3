"""A value out of what an agent heard, read by the field's ear (`kinds.py`).

A plain answer ("Um, Summit Learning, I believe.") is read where it speaks about the
field ("the client name is X", "I need the X to be Y"), else sentence by sentence
from the last (values come last: "Hold on, I'm on the phone, honey. Sorry, X."),
skipping questions ("Sorry, why do you need the email? Anyway, X"), else whole; the
reference agent's readers do the rest (`_notes/understand.py`: fillers, hedges,
numbers, dates, phones, lists, intervals, choices). A spelling ("Sure. Tango, X-ray,
dash, 2, 8, 9, 5.") is read with `values.read_spelled`, after its lead-in.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import replace
from typing import Any

from duplexbench.agents._notes.alphabet import (
    after_lead,
    heard_words,
    lead_off,
    letter_sounds,
    nato_near,
)
from duplexbench.agents._notes.kinds import Target
from duplexbench.agents._notes.understand import (
    about,
    best_choice,
    clean,
    parse_value,
    spelled_identifier,
)
from duplexbench.values import parse_number, phone_digits, read_spelled, split_items

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\.\.\.+\s*")
_EXTRA = re.compile(
    r"^(?:[,;:\-\s]+|(?:(?:it|that|they)\s+)?(?:should|would|will|must)\s+be\b\s*"
    r"|no[,.]\s*|(?:actually|anyway|well|to be|now|oh|so|and|wait|sorry|i said)\b[,.:]?\s*"
    r"|(?:that'?s\s+)?not (?:right|correct)\b[,.]?\s*"
    r"|the [a-z' ]{1,40}? (?:is|are|as)\s+(?=\S)|(?:is|are)\s+(?=\S))+",
    re.IGNORECASE,
)
"""What comes before a value, also in a correction of one read back ("That's not right,
the payment type is invoice.": the field named by another name; "the core skills are
X", where the field's own name was cut off first)."""
_SAID_AGAIN = re.compile(r"\bi mean\b[,.]?\s*(?:yes\b[,.]?\s*)?", re.IGNORECASE)
_EXTRA_TAIL = re.compile(r"[,\s]+(?:now|actually|please|instead|then)[.!]?\s*$", re.IGNORECASE)
_EMAIL = re.compile(r"[^\W_][\w.%+\-]*@[\w\-]+(?:\.[\w\-]+)+")
_SAID_MARKS = (
    (re.compile(r"\s+(?:dot|period|point)\s+"), "."),
    (re.compile(r"\s+at\s+"), "@"),
    (re.compile(r"\s+underscore\s+"), "_"),
    (re.compile(r"\s+(?:dash|hyphen)\s+"), "-"),
    (re.compile(r"(?<=\b[a-z])\s+\.(?=[a-z])"), "."),  # whisper's "a .nacamura"
)
_DIGIT = re.compile(r"\d")
_NAME = re.compile(r"[^\W\d_][\w .'&\-]*", re.UNICODE)
_SHAPE = re.compile(r"e\.g\.\s*([A-Z0-9]+(?:-[A-Z0-9]+)+|[A-Z]+\d+[A-Z0-9]*)\b")
_ORDINAL = re.compile(
    r"^(?:(?:first|then|next|finally|also|plus|lastly|and|the)\b[,]?\s*)+", re.IGNORECASE
)
_CAPITALISED = re.compile(r"[^\W\d_a-z][^\W\d_]*(?:[\s\-'][^\W\d_a-z][^\W\d_]*)+")
"""A name of two or more capitalised words ("Tomás Quiñones")."""
_CLOCK = (
    (re.compile(r"(\d)\s*p(?:g|\s+them)(?![a-z])", re.IGNORECASE), r"\1 pm"),
    (re.compile(r"(\d)\s*a(?:g|\s+them)(?![a-z])", re.IGNORECASE), r"\1 am"),
)
"""Whisper's "2pg", "2p them" for "2 pm" (piper's "p m" misheard)."""
_PHONE_DIGITS = 10
_FUZZY = 0.75
"""How close heard words must come to a choice to read as it ("euro" for "EUR")."""


def sentences(text: str) -> list[str]:
    return [p.strip() for p in _SENTENCE.split(text) if p.strip()]


def _trim(text: str) -> str:
    """What `clean` leaves, less the openers of corrections and the tails of asides."""
    out, previous = text.strip(), None
    while out != previous:
        previous = out
        out = _EXTRA_TAIL.sub("", _EXTRA.sub("", clean(out))).strip()
    return out.strip(" \"'")


def value_texts(text: str, words: list[str], named_only: bool = False) -> list[str]:
    """Parts of an utterance that may hold a field's value, best first; `named_only`:
    only where it is named in a statement ("the client name is X", not "what is the
    client name for?")."""
    statements = [s for s in sentences(text) if not s.endswith("?")]
    told = " ".join(statements)
    out: list[str] = []
    for word in words:
        if word and re.search(rf"\b{re.escape(word)}\b", told, re.IGNORECASE):
            out.append(about(told, word))
    if named_only:
        return out
    said_again = _SAID_AGAIN.split(told)
    if len(said_again) > 1:  # "X. I mean, yes, X": the value said again, in full
        out.append(said_again[-1])
    out += reversed(statements)
    out.append(told or text)
    return list(dict.fromkeys(p for p in out if p.strip()))


def read_plain(
    target: Target, text: str, year: int, words: list[str], named_only: bool = False
) -> Any:
    """The value of a plain answer, or None when no part of it reads as one."""
    for part in value_texts(text, [target.words, *words], named_only):
        value = read_as(target, part, year)
        if value is not None and well_formed(target, value):
            return value
    return None


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def ambiguous(target: Target, text: str) -> bool:
    """A plain answer holding two numbers where one is wanted ("$1,700, $10." for "one
    thousand seven hundred ten dollars"): not to be trusted."""
    if target.ear not in ("number", "integer"):
        return False
    said = [n.replace(",", "") for n in _NUMBER.findall(text)]
    return len(set(said)) > 1


def read_as(target: Target, text: str, year: int) -> Any:
    info, ear = target.info, target.ear
    body = _trim(text)
    if not body:
        return None
    if ear == "enum":
        return choose(body, info.choices)
    if ear in ("list", "names"):
        return read_list(body)
    if ear == "interval":
        body, text = clock_words(body), clock_words(text)
    if ear in ("number", "integer", "phone", "date", "interval"):
        info = replace(info, kind=ear)  # a date or phone typed "string" in its schema
        found = parse_value(info, body, year)
        return found if found is not None else parse_value(info, text, year)
    if ear == "email":
        return _email(body)
    if ear == "code":
        return _code(read_spelled(letter_sounds(body)), info.description, target.path == ("id",))
    named = parse_value(info, body, year)  # "my husband, Arjun Raman" -> "Arjun Raman"
    value = named if isinstance(named, str) and named else body
    if re.search(rf"\buse {re.escape(value)}\W*$", text, re.IGNORECASE):
        value = f"use {value}"  # "use loading dock" is the value, not "use" + a value
    return value.lower() if target.lower else value


def read_list(text: str) -> list[str] | None:
    """Items said in a row ("A, B and C"): the names when most items hold one (they
    keep their capitals: "me, Jordan Blake and Lena Park" -> the two names), else
    every item in lower case, without "first", "then", "the"."""
    items = [_ORDINAL.sub("", _trim(p)) for p in split_items(text) or []]
    names = [max(_CAPITALISED.findall(i), key=len, default="") for i in items]
    if sum(bool(n) for n in names) * 2 >= max(1, len(items)):
        return [n for n in names if n] or None
    return [i.lower() for i in items if i] or None


def read_spelling(target: Target, text: str, year: int) -> Any:
    """The value of a spelled (or digit by digit) answer, or None."""
    email = target.ear == "email"
    heard = heard_words(after_lead(text), email)
    if not heard:
        return None
    spoken = heard
    if heard == heard_words(text.strip(), email):
        spoken = lead_off(heard)  # no lead-in heard: it may have been misheard
    parts = [heard]
    ear, info = target.ear, target.info
    if ear in ("date", "interval"):
        return parse_value(info, clock_words(" ".join(parts)), year)
    said = read_spelled(nato_near(letter_sounds(spoken) if ear == "code" else spoken))
    if not said:
        return None
    if ear == "enum":
        return choose(said.lower(), info.choices)
    if ear in ("names", "list"):
        items = [n.strip() for n in split_items(said) or [] if n.strip()]
        return [n.title() if ear == "names" else n.lower() for n in items] or None
    if ear in ("number", "integer"):
        written = re.sub(r"[^\d.]", "", " ".join(parts))
        number = parse_number(max(re.sub(r"[^\d.]", "", said), written, key=len) or said)
        if number is None:
            return None
        return int(number) if ear == "integer" or number.is_integer() else number
    if ear == "phone":
        digits = max(phone_digits(said), phone_digits(" ".join(parts)), key=len)
        return f"{digits[:3]}-{digits[3:6]}-{digits[6:]}" if len(digits) == 10 else digits or None
    if ear == "email":
        return _email(said)
    if ear == "code":
        return _code(said, info.description, target.path == ("id",))
    if target.lower or ear == "text":
        return said.lower()
    return said.title()


def clock_words(text: str) -> str:
    """Times as whisper may write them ("2pg") as times ("2 pm")."""
    for pattern, repl in _CLOCK:
        text = pattern.sub(repl, text)
    return text


def choose(text: str, choices: tuple[str, ...]) -> str | None:
    """The choice the text names: most words shared, else the closest in letters."""
    found = best_choice(text, choices)
    if found is not None or not choices:
        return found
    heard = _letters(text)
    scored = [(difflib.SequenceMatcher(None, heard, _letters(c)).ratio(), c) for c in choices]
    score, best = max(scored)
    return best if score >= _FUZZY else None


def _email(text: str) -> str | None:
    """An email said in words ("n dot okafor at example dot com"), as written, or
    spelled letter by letter: the reading with the longest name before the "@"."""
    said = f" {text.lower()} "
    for mark, char in _SAID_MARKS:
        said = mark.sub(char, said)
    found = [m.group(0).rstrip(".") for m in _EMAIL.finditer(said.strip().rstrip(".,"))]
    found += [m.group(0) for m in _EMAIL.finditer(read_spelled(text).lower())]
    return max(found, key=lambda e: len(e.partition("@")[0]), default=None)


def _code(said: str, description: str, record_id: bool = False) -> str | None:
    """A code in capitals, shaped like the field's example; a record id without
    separators (records are filed under ids like "RF9998")."""
    kept = r"[^A-Za-z0-9]" if record_id else r"[^A-Za-z0-9\-]"
    compact = re.sub(kept, "", said).upper().strip("-")
    if sum(c.isalnum() for c in compact) < 2:
        return None
    example = _SHAPE.search(description)
    if example is not None:
        compact = conform(compact, example.group(1))
    return spelled_identifier(compact, description) or compact


_AS_DIGIT = {"A": "8", "O": "0", "I": "1"}
_AS_LETTER = {v: k for k, v in _AS_DIGIT.items()}
_MAX_SWAPS = 2


def conform(code: str, example: str) -> str:
    """A code heard with as many characters as the field's example, a letter where the
    example has a digit or the other way round put right where whisper confuses them
    (a spoken 8 written "A" next to letters, O and 0, I and 1); at most two."""
    bare, shape = code.replace("-", ""), example.replace("-", "")
    if len(bare) != len(shape):
        return code
    out, swaps = [], 0
    for have, want in zip(bare, shape, strict=True):
        swap = (_AS_DIGIT if want.isdigit() else _AS_LETTER).get(have)
        if have.isdigit() != want.isdigit() and swap is not None:
            out.append(swap)
            swaps += 1
        else:
            out.append(have)
    if swaps == 0 or swaps > _MAX_SWAPS:
        return code
    fixed = iter(out)
    return "".join(c if c == "-" else next(fixed) for c in code)


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.casefold())


def canonical(target: Target, value: Any) -> str:
    """The form two readings are compared in (letters and digits, case-folded)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, list):
        return "|".join(_letters(str(v)) for v in value)
    if target.ear == "email":
        return str(value).lower()
    return _letters(str(value))


def well_formed(target: Target, value: Any) -> bool:
    """Whether a reading has the shape of the field's values."""
    if value is None or value in ("", []):
        return False
    ear = target.ear
    if ear == "email":
        return bool(_EMAIL.fullmatch(str(value)))
    if ear == "name":
        text = str(value)
        return bool(_NAME.fullmatch(text)) and len(text.split()) <= 6 and not _DIGIT.search(text)
    if ear == "names":
        return isinstance(value, list) and all(
            bool(_NAME.fullmatch(str(v))) and len(str(v).split()) <= 4 and not _DIGIT.search(str(v))
            for v in value
        )
    if ear == "code":
        example = _SHAPE.search(target.info.description)
        if example is None:
            return bool(re.fullmatch(r"[A-Z0-9]+(?:-[A-Z0-9]+)*", str(value)))
        return _shape(str(value)) == _shape(example.group(1))
    if ear == "enum":
        return value in target.info.choices
    if ear == "interval":  # "2-3" lost its "pm": say it again
        return isinstance(value, str) and ":" in value
    if ear == "phone":  # "555-851-5": whisper dropped the last digits
        return len(phone_digits(str(value))) == _PHONE_DIGITS
    return True


def _shape(code: str) -> str:
    """A code's pattern: letters as A, digits as 9, dashes kept."""
    return re.sub(r"[A-Z]", "A", re.sub(r"\d", "9", code.upper()))
