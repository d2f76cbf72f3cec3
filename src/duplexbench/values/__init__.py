"""Canonical forms of dictated values and the deterministic field graders.

Values were spoken aloud, so each field is canonicalized per type (dates, phones,
addresses, numbers, sets, intervals, ...) before it is compared with its gold value.
"""

from duplexbench.values._canon import (
    address_text,
    as_boolean,
    casefold_text,
    loose_text,
    phone_digits,
    split_items,
    value_to_text,
)
from duplexbench.values._dates import parse_clock, parse_date, parse_month_day
from duplexbench.values._graders import (
    GraderFn,
    canonical_text,
    grade,
    is_empty,
    register_grader,
    registered_graders,
    values_match,
)
from duplexbench.values._intervals import parse_interval
from duplexbench.values._numbers import format_number, int_prefix, parse_number
from duplexbench.values._spelled import (
    DEFAULT_SPELLING_STYLE,
    SPELL_GAP_MS,
    SPELLING_STYLES,
    SpelledForm,
    SpellingStyle,
    digit_groups,
    spell,
)
from duplexbench.values._spelled_read import read_spelled

__all__ = [
    "DEFAULT_SPELLING_STYLE",
    "SPELLING_STYLES",
    "SPELL_GAP_MS",
    "GraderFn",
    "SpelledForm",
    "SpellingStyle",
    "address_text",
    "as_boolean",
    "canonical_text",
    "casefold_text",
    "digit_groups",
    "format_number",
    "grade",
    "int_prefix",
    "is_empty",
    "loose_text",
    "parse_clock",
    "parse_date",
    "parse_interval",
    "parse_month_day",
    "parse_number",
    "phone_digits",
    "read_spelled",
    "register_grader",
    "registered_graders",
    "spell",
    "split_items",
    "value_to_text",
    "values_match",
]
