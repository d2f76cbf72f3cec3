"""Field grader names and their options (part of the item format).

The grader implementations live in :mod:`duplexbench.values._graders`; this
module only declares what an item may ask for, so that items can be
validated without importing the scorer.
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import Field, ValidationError, model_validator

from duplexbench.items._base import StrictModel

GraderName = Literal[
    "exact",
    "casefold_exact",
    "date",
    "phone",
    "address",
    "enum",
    "numeric_tolerance",
    "set_exact",
    "set_precision",
    "set_recall",
    "set_f1",
    "ordered_list",
    "interval_overlap",
    "semantic",
]

JUDGEABLE_GRADERS: frozenset[str] = frozenset(
    {"exact", "casefold_exact", "enum", "numeric_tolerance", "semantic"}
)
"""Graders that may escalate to the judge, and only after a deterministic failure.

Dates, phones, addresses, sets, lists and intervals always stay deterministic.
"""


class NoOptions(StrictModel):
    """Grader without options."""


class EnumOptions(StrictModel):
    values: list[str] = Field(min_length=1, description="Allowed labels (compared casefolded).")


class NumericOptions(StrictModel):
    tolerance: float = Field(0.0, ge=0.0, description="Largest accepted |predicted - gold|.")
    relative: bool = Field(
        False, description="If true, tolerance is a fraction of |gold| instead of an absolute."
    )


class DateOptions(StrictModel):
    day_first: bool = Field(
        False, description="Read ambiguous numeric dates as D/M/YYYY instead of US M/D/YYYY."
    )


class IntervalOptions(StrictModel):
    mode: Literal["iou", "within"] = Field(
        "iou",
        description=(
            "iou: score is intersection over union of the two intervals; "
            "within: score 1.0 when the predicted interval lies inside the gold one, else 0."
        ),
    )
    threshold: float = Field(
        1.0, gt=0.0, le=1.0, description="In iou mode, an IoU at or above this scores 1.0."
    )


class SetOptions(StrictModel):
    item_grader: Literal["casefold_exact", "exact"] = Field(
        "casefold_exact", description="How two set elements are compared."
    )


GRADER_OPTIONS: dict[str, type[StrictModel]] = {
    "exact": NoOptions,
    "casefold_exact": NoOptions,
    "date": DateOptions,
    "phone": NoOptions,
    "address": NoOptions,
    "enum": EnumOptions,
    "numeric_tolerance": NumericOptions,
    "set_exact": SetOptions,
    "set_precision": SetOptions,
    "set_recall": SetOptions,
    "set_f1": SetOptions,
    "ordered_list": SetOptions,
    "interval_overlap": IntervalOptions,
    "semantic": NoOptions,
}


class GraderSpec(StrictModel):
    """How one artifact field is graded: a grader name plus its options."""

    name: GraderName
    options: dict[str, object] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _check_options(self) -> GraderSpec:
        try:
            GRADER_OPTIONS[self.name].model_validate(self.options)
        except ValidationError as exc:
            problems = "; ".join(
                f"options.{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
                for err in exc.errors()
            )
            raise ValueError(f"bad options for grader {self.name!r}: {problems}") from None
        return self

    def parsed_options(self) -> StrictModel:
        """The options validated into the grader's option model (parsed once per spec:
        grading asks for them on every comparison)."""
        options, parsed = self._parsed
        if options is not self.options:  # a copy made with other options
            return GRADER_OPTIONS[self.name].model_validate(self.options)
        return parsed

    @cached_property
    def _parsed(self) -> tuple[dict[str, object], StrictModel]:
        return self.options, GRADER_OPTIONS[self.name].model_validate(self.options)
