"""Identifiers spelled out for TTS engines that read every digit string as a number.

``hibari`` reads ``555-993-9731.`` as "five hundred fifty-five, nine hundred
ninety-three, ..." and ``0042`` as "forty-two", and its letters become words
(``AL`` "al", ``VS`` "V's", ``ER`` "er"). A caller reads an identifier out
character by character; :func:`speak_digits` rewrites the text so the engine
does too. It is a pure function of the text (no engine state), so a clip's
cache key still depends only on the text the caller says; its rule has a
version, :data:`DIGITS_RULE`, that engines using it put in their version.

What is rewritten (left to right, the first rule that matches wins):

1. Kept as written: times (``10:30``, ``9:05:10``), dates (``2026-03-17``,
   ``3/17/2026``, ``17.03.2026``), amounts (``$240``, ``$1,250.99``, ``£30``),
   grouped and decimal numbers (``1,250``, ``2.5``).
2. Phone numbers: digit groups joined by ``-``, ``.``, spaces or parentheses,
   with an optional leading ``+`` (``555-993-9731``, ``+1 (555) 900-9209``,
   ``07700 900123``, ``2024-0042``), when they hold 7 or more digits or a group
   with a leading zero (groups joined by spaces alone: 7 or more digits in at
   least three groups, or a first group with a leading zero, so "in 2024 200
   people" stays). Every digit is spaced, the groups are joined by ``", "``
   (a short pause), ``+`` becomes "plus": ``5 5 5, 9 9 3, 9 7 3 1``.
3. Codes: uppercase letters and digits, optionally in dash-joined parts, with
   a digit and a run of 1 to 3 letters (``E1042``, ``UT2579``, ``CC-330``,
   ``EG-5636-AL``, ``INV-2024-0042``, ``SN-79AS-298``, ``S25``). Digits are
   spaced, letter runs of up to 3 are spelled letter by letter (longer runs
   are words and stay), the dashes are spoken, as the suites' own ``say``
   texts do: ``E G dash 5 6 3 6 dash A. L``. Times of day (``10AM``) and sizes
   (``16GB``) are not codes.
4. Other digit runs: a run with a leading zero (``0042``) or of 7 or more
   digits (an account number) is spaced; shorter runs stay numbers, so
   quantities ("240 dollars", "3289", "10630"), years ("March 17th, 2026",
   "tax year 2023") and house numbers read as numbers.
5. The letter ``A`` alone next to other spelled characters (``E G dash ... A
   L``, a suite's ``say`` text, or a code above) is written ``A.``: hibari reads
   a bare ``A`` as the article "uh", and whisper then drops it.

Why these forms, measured through hibari and whisper tiny.en (the repository's
ASR):

- spaced digits, not digit words: hibari renders ``2 5 7 9`` and ``two five
  seven nine`` to the same samples;
- letters apart: of the 195 two-letter runs in the suites' codes, in "The code
  is XY dash 4 7 1.", 187 came back spaced (``X Y``, ``A.`` for A), 180
  hyphenated (``X-Y``), 175 as written (``XY``: hibari reads many as words);
- 4- to 6-digit numbers stay numbers: read as numbers they came back whole
  ("3289", "10,630", "48,213"), spaced they came back as "202.3" for 2023 and
  "55560" for 5560;
- codes and phone numbers spelled: the suites' identifiers in their answer
  templates came back 13 of 15 times with this rule, 9 without
  (tests/speech/test_hibari.py).
"""

from __future__ import annotations

import re

__all__ = ["DIGITS_RULE", "speak_digits"]

DIGITS_RULE = "digits-1"
"""The version of the rule; part of the version of every engine that applies it."""

_WHEN = (  # times and dates, kept
    r"\b\d{1,2}:\d{2}(?::\d{2})?\b"
    r"|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{1,2}\.\d{1,2}\.\d{4}\b"
)
_AMOUNT = (  # amounts, grouped and decimal numbers, kept
    r"[$£€]\s?\d[\d,]*(?:\.\d+)?|\b\d{1,3}(?:,\d{3})+(?:\.\d+)?\b|\b\d+\.\d+\b"
)
_GROUP = r"(?:\(\d{1,5}\)|\d{1,6})"
_PHONE = rf"(?<![\w+.,$£€/:-])(?:\+\s?)?{_GROUP}(?:(?:[ .-]|(?<=\))\s?){_GROUP})+(?![\w-]|[.,]\d)"
_CODE = r"(?<![\w.-])(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]+(?:-[A-Z0-9]+)*(?![\w-])"
_RUN = r"(?<![\w.,$£€+])\d+(?![\w]|[.,]\d)"
_TOKENS = re.compile(
    rf"(?P<when>{_WHEN})|(?P<phone>{_PHONE})|(?P<amount>{_AMOUNT})|(?P<code>{_CODE})|(?P<run>{_RUN})"
)
_NO_PHONE = re.compile(rf"(?P<amount>{_AMOUNT})|(?P<code>{_CODE})|(?P<run>{_RUN})")

_NOT_CODE = re.compile(r"\d{1,2}(?:AM|PM)|\d+(?:KB|MB|GB|TB)")
_PIECE = re.compile(r"[A-Z]+|\d+")
_LONE_A = re.compile(
    r"(?:(?<=\b[A-Z0-9] )|(?<=\bdash ))A\b(?![.'-])|\bA\b(?![.'-])(?= [A-Z](?![\w'-]))"
)
_PHONE_DIGITS = 7
_LONG_RUN = 7
_SPELLED_LETTERS = 3


def speak_digits(text: str) -> str:
    """`text` with its identifiers, phone numbers and codes spelled out
    character by character, quantities, times and dates left as they are
    (the rule is in the module docstring)."""
    spelled = _TOKENS.sub(_rewrite, text)
    return _LONE_A.sub("A.", spelled)


def _rewrite(match: re.Match[str]) -> str:
    kind, token = match.lastgroup, match.group()
    if kind == "phone":
        return _phone(token)
    if kind == "code":
        spoken = _code(token)
        # "W A.." would be read "W uh": the sentence's own full stop ends the A.
        ends_sentence = match.string.startswith(".", match.end())
        return spoken[:-1] if ends_sentence and spoken.endswith(" A.") else spoken
    if kind == "run":
        return _run(token)
    return token


def _spaced(digits: str) -> str:
    return " ".join(digits)


def _leading_zero(digits: str) -> bool:
    return len(digits) > 1 and digits.startswith("0")


def _phone(token: str) -> str:
    """Digit groups read digit by digit with a pause between groups, when the
    token is a phone number (see the module docstring); else its parts one by one."""
    groups = re.findall(r"\d+", token)
    total = sum(len(group) for group in groups)
    plus = token.startswith("+")
    if re.fullmatch(r"[\d\s]+", token):  # "in 2024 200 people" is no phone number
        phone = total >= _PHONE_DIGITS and (len(groups) >= 3 or _leading_zero(groups[0]))
    elif re.fullmatch(r"[\d.]+", token):  # "1.05" neither
        phone = total >= _PHONE_DIGITS and len(groups) >= 3
    else:
        phone = total >= _PHONE_DIGITS or any(_leading_zero(group) for group in groups)
    if not phone or all(len(group) == 1 for group in groups):
        return _NO_PHONE.sub(_rewrite, token)
    spoken = ", ".join(_spaced(group) for group in groups)
    return f"plus {spoken}" if plus else spoken


def _code(token: str) -> str:
    """Digits spaced, short letter runs spelled, dashes spoken."""
    if _NOT_CODE.fullmatch(token):
        return token
    pieces = [_PIECE.findall(part) for part in token.split("-")]
    if not any(p.isalpha() and len(p) <= _SPELLED_LETTERS for part in pieces for p in part):
        return re.sub(r"\d+", lambda digits: _run(digits.group()), token)  # e.g. COVID-19
    return " dash ".join(" ".join(_piece(p) for p in part) for part in pieces)


def _piece(piece: str) -> str:
    """Digits spaced; up to 3 letters spelled apart, ``A`` as ``A.`` (hibari reads
    a bare ``A`` as "uh"); a longer run of letters is a word and stays."""
    if piece.isdigit():
        return _spaced(piece)
    if len(piece) > _SPELLED_LETTERS:
        return piece
    return " ".join("A." if letter == "A" else letter for letter in piece)


def _run(digits: str) -> str:
    if _leading_zero(digits) or len(digits) >= _LONG_RUN:
        return _spaced(digits)
    return digits
