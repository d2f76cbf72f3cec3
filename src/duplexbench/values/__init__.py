"""Canonical forms of dictated values and the deterministic field graders.

Values were spoken aloud, so each field is canonicalized per type (dates, phones,
addresses, numbers, sets, intervals, ...) before it is compared with its gold value.
"""

from duplexbench.values.canon import (
    address_text,
    as_boolean,
    casefold_text,
    phone_digits,
    split_items,
)
from duplexbench.values.dates import parse_clock, parse_date, parse_month_day
from duplexbench.values.graders import (
    GraderFn,
    canonical_text,
    grade,
    is_empty,
    register_grader,
    registered_graders,
    values_match,
)
from duplexbench.values.intervals import parse_interval
from duplexbench.values.numbers import parse_number

__all__ = [
    "GraderFn",
    "address_text",
    "as_boolean",
    "canonical_text",
    "casefold_text",
    "grade",
    "is_empty",
    "parse_clock",
    "parse_date",
    "parse_interval",
    "parse_month_day",
    "parse_number",
    "phone_digits",
    "register_grader",
    "registered_graders",
    "split_items",
    "values_match",
]
