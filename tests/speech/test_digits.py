"""speak_digits: identifiers, phone numbers and codes spelled; quantities, times, dates kept.

The shapes are those of the suites' facts (workflows-v2 values and ``say`` texts)
and of the identifiers a caller dictates. The round trip through hibari and
whisper is in test_hibari.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from duplexbench.speech._digits import speak_digits

SUITES = Path(__file__).resolve().parents[2] / "src/duplexbench/suites/data"

SPELLED = [
    # phone numbers (workflows-v2 client_phone etc.; hibari's own phone rule misses
    # the one before a full stop)
    ("It's 555-993-9731.", "It's 5 5 5, 9 9 3, 9 7 3 1."),
    ("That would be 555-851-5698.", "That would be 5 5 5, 8 5 1, 5 6 9 8."),
    ("Call 07700 900123 please", "Call 0 7 7 0 0, 9 0 0 1 2 3 please"),
    ("+44 7700 900123", "plus 4 4, 7 7 0 0, 9 0 0 1 2 3"),
    ("+1 (555) 900-9209", "plus 1, 5 5 5, 9 0 0, 9 2 0 9"),
    ("(555) 993-9731", "5 5 5, 9 9 3, 9 7 3 1"),
    ("555.993.9731", "5 5 5, 9 9 3, 9 7 3 1"),
    ("555 993 9731", "5 5 5, 9 9 3, 9 7 3 1"),
    # record references and codes (workflows-v2 ids and *_code fields)
    ("It's UT2579.", "It's U T 2 5 7 9."),
    ("EG-5636-AL", "E G dash 5 6 3 6 dash A. L"),
    ("EV-AS26-6", "E V dash A. S 2 6 dash 6"),
    ("SN-79AS-298", "S N dash 7 9 A. S dash 2 9 8"),
    ("VS-825-LC8", "V S dash 8 2 5 dash L C 8"),
    ("PN-PX4988", "P N dash P X 4 9 8 8"),
    ("AT-H326-93", "A. T dash H 3 2 6 dash 9 3"),
    ("PR-98WA", "P R dash 9 8 W A."),
    ("It's PR-98WA.", "It's P R dash 9 8 W A."),  # not "A..": hibari reads that "uh"
    ("ABCD-0042", "ABCD-0 0 4 2"),
    ("CC-775-U", "C C dash 7 7 5 dash U"),
    ("BK-63HX2", "B K dash 6 3 H X 2"),
    ("ER-775", "E R dash 7 7 5"),
    ("CC-330", "C C dash 3 3 0"),
    ("E1042", "E 1 0 4 2"),
    ("INV-2024-0042", "I N V dash 2 0 2 4 dash 0 0 4 2"),
    ("Galaxy S25", "Galaxy S 2 5"),
    # leading zeros and long runs
    ("It's 0042.", "It's 0 0 4 2."),
    ("account 77310284", "account 7 7 3 1 0 2 8 4"),
    ("12-0042", "1 2, 0 0 4 2"),
    # a lone A among spelled characters (the suites' say texts)
    ("E G dash 5 6 3 6 dash A L", "E G dash 5 6 3 6 dash A. L"),
    ("A T dash H 3 2 6 dash 9 3", "A. T dash H 3 2 6 dash 9 3"),
]

KEPT = [
    # quantities, years and addresses as the suites' facts say them
    "It's 3289.",
    "It's 10630.",
    "809070 dollars",
    "240 dollars",
    "3 people",
    "2.5 hours",
    "12 percent",
    "net 30",
    "77 Maple Road",
    "$1,250.99",
    "1,250 people",
    "in 2024 200 people",
    "tax year 2023",
    "1.05",
    "3.14159265",
    # times and dates
    "March 17th, 2026",
    "The 3rd of March 2026",
    "2026-03-17",
    "03/17/2026",
    "at 10:05 am",
    "from 11 am to 1 pm",
    "10-12 people",
    # words with digits that are no codes
    "COVID-19",
    "10AM",
    "16GB",
    "mp3 and 4x4",
    "v1.2.3",
    "3rd",
    # already spelled, and plain text
    "U T 2 5 7 9",
    "It's 5 5 5, 9 9 3, 9 7 3 1.",
    "A 3 bedroom house",
    "A T-shirt",
    "Plan A.",
    "Hello there.",
    "",
]


@pytest.mark.parametrize(("text", "spoken"), SPELLED)
def test_identifiers_are_spelled(text: str, spoken: str) -> None:
    assert speak_digits(text) == spoken


@pytest.mark.parametrize("text", KEPT)
def test_quantities_times_and_dates_are_kept(text: str) -> None:
    assert speak_digits(text) == text


@pytest.mark.parametrize("text", [text for text, _ in SPELLED] + KEPT)
def test_speak_digits_is_idempotent(text: str) -> None:
    once = speak_digits(text)
    assert speak_digits(once) == once


def test_in_a_sentence_only_the_identifiers_change() -> None:
    text = "My number is 555-993-9731 and the code is EG-5636-AL, due March 17th, 2026 at 10:30."
    assert speak_digits(text) == (
        "My number is 5 5 5, 9 9 3, 9 7 3 1 and the code is E G dash 5 6 3 6 dash A. L,"
        " due March 17th, 2026 at 10:30."
    )


def _suite_facts() -> list[str]:
    values: list[str] = []
    for path in sorted((SUITES / "workflows-v2").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for fact in (data.get("user") or {}).get("facts", []):
            say = fact.get("say", fact.get("value"))
            values.append(", ".join(map(str, say)) if isinstance(say, list) else str(say))
    return values


def test_suite_facts_keep_their_quantities_and_dates() -> None:
    """Every fact a workflows-v2 caller says: only codes, phone numbers and spelled
    letters change; nothing with a digit is dropped or added."""
    facts = _suite_facts()
    assert len(facts) > 500
    for fact in facts:
        spoken = speak_digits(fact)
        digits = [c for c in fact if c.isdigit()]
        assert [c for c in spoken if c.isdigit()] == digits, fact
        if not any(c.isdigit() for c in fact) and " A " not in f" {fact} ":
            assert spoken == fact
