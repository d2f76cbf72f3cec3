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

__all__ = [
    "GraderFn",
    "address_text",
    "as_boolean",
    "canonical_text",
    "casefold_text",
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
    "register_grader",
    "registered_graders",
    "split_items",
    "value_to_text",
    "values_match",
]
