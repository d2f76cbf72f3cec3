"""The grader registry and each grader's accept/reject behaviour."""

from __future__ import annotations

import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplexbench.items._grading import GRADER_OPTIONS, GraderName, GraderSpec
from duplexbench.values._graders import (
    canonical_text,
    grade,
    is_empty,
    register_grader,
    registered_graders,
    values_match,
)

ALL_GRADERS: tuple[str, ...] = typing.get_args(GraderName)


def spec(name: str, **options: object) -> GraderSpec:
    return GraderSpec.model_validate({"name": name, "options": options})


def default_spec(name: str) -> GraderSpec:
    return spec(name, values=["a", "in_person"]) if name == "enum" else spec(name)


# --- registry -----------------------------------------------------------------------------


def test_every_grader_name_is_registered() -> None:
    assert set(ALL_GRADERS) <= registered_graders()
    assert set(ALL_GRADERS) == set(GRADER_OPTIONS)


def test_duplicate_registration_raises() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_grader("exact")(lambda predicted, gold, options: 0.0)


@pytest.mark.parametrize("name", ALL_GRADERS)
@pytest.mark.parametrize("empty", [None, "", "  \n", [], {}])
def test_empty_prediction_scores_zero(name: str, empty: object) -> None:
    assert is_empty(empty)
    assert grade(default_spec(name), empty, empty) == 0.0
    assert grade(default_spec(name), empty, "a") == 0.0
    assert canonical_text(default_spec(name), empty) == ""


# --- text graders -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("predicted", "gold", "expected"),
    [
        ("Acme Corp", "Acme Corp", True),
        ("  Acme\u00a0  Corp ", "Acme Corp", True),
        ("ＡＢＣ", "ABC", True),
        (200, 200.0, True),
        (200.0, "200", True),
        ("200", 200, True),
        (2.5, "2.5", True),
        ("acme corp", "Acme Corp", False),
        ("Acme Corp.", "Acme Corp", False),
        ("200.0", "200", False),
        (True, "true", True),
        ([1, "a"], [1.0, "a"], True),
    ],
)
def test_exact(predicted: object, gold: object, expected: bool) -> None:
    assert values_match(spec("exact"), predicted, gold) is expected


@pytest.mark.parametrize(
    ("predicted", "gold", "expected"),
    [
        ("acme corp", "Acme Corp", True),
        ("Acme Corp.", "Acme Corp", True),
        ('"Acme Corp!"', "acme corp", True),
        ("Yes?", "yes", True),
        ("  ACME   CORP ,", "acme corp", True),
        ("Acme Corporation", "Acme Corp", False),
        ("Acme-Corp", "Acme Corp", True),  # spacing and hyphens do not count (below)
    ],
)
def test_casefold_exact(predicted: object, gold: object, expected: bool) -> None:
    assert values_match(spec("casefold_exact"), predicted, gold) is expected


def test_semantic_without_judge_is_loose_equality() -> None:
    assert values_match(spec("semantic"), "Follow-up call, Monday.", "follow up call monday")
    assert not values_match(spec("semantic"), "call on Monday", "call Monday")


@pytest.mark.parametrize(
    ("predicted", "expected"),
    [("in_person", 1.0), ("In person", 1.0), ("in-person", 1.0), ("IN PERSON.", 0.0)],
)
def test_enum_accepts_label_variants(predicted: str, expected: float) -> None:
    enum = spec("enum", values=["in_person", "phone", "video"])
    assert grade(enum, predicted, "in person") == expected


def test_enum_rejects_wrong_and_unlisted_labels() -> None:
    enum = spec("enum", values=["in_person", "phone", "video"])
    assert grade(enum, "phone", "in_person") == 0.0
    # Equal to the gold but not an allowed label: still wrong.
    assert grade(spec("enum", values=["phone"]), "fax", "fax") == 0.0


# --- spacing and hyphen variants ------------------------------------------------------------

VARIANTS = [
    ("on site", "onsite"),
    ("on-site", "onsite"),
    ("On Site", "on-site"),
    ("e-mail", "email"),
    ("check in", "check-in"),
    ("check\u2011in", "checkin"),  # a non-breaking hyphen
    ("client on site", "client onsite"),  # ASR's "on site" for the caller's "onsite"
]


@pytest.mark.parametrize(("predicted", "gold"), VARIANTS)
def test_casefold_exact_ignores_spaces_and_hyphens(predicted: str, gold: str) -> None:
    assert values_match(spec("casefold_exact"), predicted, gold)
    assert values_match(spec("casefold_exact"), gold, predicted)


@pytest.mark.parametrize(("predicted", "gold"), VARIANTS)
def test_semantic_ignores_spaces_and_hyphens(predicted: str, gold: str) -> None:
    assert values_match(spec("semantic"), predicted, gold)
    assert values_match(spec("semantic"), gold, predicted)


@pytest.mark.parametrize(("predicted", "gold"), VARIANTS)
def test_enum_ignores_spaces_and_hyphens(predicted: str, gold: str) -> None:
    enum = spec("enum", values=[gold, "remote", "phone"])
    assert values_match(enum, predicted, gold)
    assert not values_match(enum, predicted, "remote")


@pytest.mark.parametrize("predicted", ["TX 2895 ZF", "TX2895ZF", "tx-2895-zf", "TX\u20102895-ZF"])
def test_exact_keeps_spaces_and_hyphens_of_identifiers(predicted: str) -> None:
    assert not values_match(spec("exact"), predicted, "TX-2895-ZF")
    assert values_match(spec("exact"), "TX-2895-ZF", "TX-2895-ZF")
    assert not values_match(spec("exact"), "on site", "onsite")
    assert not values_match(spec("exact"), "e-mail", "email")


def test_enum_option_with_a_space_matches_without_it() -> None:
    terms = spec("enum", values=["net 30", "net 60", "due on receipt"])
    for said in ("net30", "Net-30", "NET 30", "net_30"):
        assert values_match(terms, said, "net 30"), said
    assert not values_match(terms, "net30", "net 60")
    assert values_match(terms, "dueonreceipt", "due on receipt")


def test_options_that_differ_only_in_spacing_stay_distinct() -> None:
    # "on site" and "onsite" are both options: removing spaces would make them one, so
    # only the strict comparison (spaces, underscores and hyphens unified) decides.
    enum = spec("enum", values=["on site", "onsite", "remote"])
    assert values_match(enum, "on site", "on site")
    assert values_match(enum, "on-site", "on site")
    assert values_match(enum, "onsite", "onsite")
    assert not values_match(enum, "onsite", "on site")
    assert not values_match(enum, "on site", "onsite")
    assert not values_match(enum, "o nsite", "onsite")  # names neither option strictly


def test_a_copy_with_other_options_grades_by_its_own() -> None:
    # Options are parsed once per spec: a copy made with other options must not reuse
    # the original's.
    enum = spec("enum", values=["phone", "video"])
    assert values_match(enum, "video", "video")
    other = enum.model_copy(update={"options": {"values": ["phone", "fax"]}})
    assert not values_match(other, "video", "video")
    assert values_match(other, "fax", "fax")
    assert values_match(enum, "video", "video")


def test_compatibility_forms_fold_only_outside_ascii() -> None:
    # NFKC still applies to non-ASCII text (full-width letters, ligatures).
    assert values_match(spec("casefold_exact"), "\uff2f\uff4e\uff53\uff49\uff54\uff45", "onsite")
    assert values_match(spec("exact"), "\ufb01le", "file")


def test_the_fold_keeps_signs_and_separate_numbers() -> None:
    for name in ("casefold_exact", "semantic"):
        assert not values_match(spec(name), "-5", "5"), name
        assert not values_match(spec(name), "4 654", "4654"), name
        assert not values_match(spec(name), "10-20", "1020"), name
        assert values_match(spec(name), "10-20", "10 20"), name
        assert not values_match(spec(name), "call on Monday", "call Monday"), name


def test_canonical_text_keeps_the_readable_form() -> None:
    # The judge's cache is keyed by canonical texts: the fold only applies to comparing.
    assert canonical_text(spec("casefold_exact"), "On Site") == "on site"
    assert canonical_text(spec("semantic"), "On-Site!") == "on site"
    assert canonical_text(spec("enum", values=["onsite"]), "On-Site") == "on site"


# --- typed scalars ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "predicted",
    [
        "2026-03-05",
        "3/5/2026",
        "March 5, 2026",
        "Thursday, March 5th, 2026",
        "the fifth of March, 2026",
        "March fifth twenty twenty-six",
        "march the fifth two thousand twenty six",
    ],
)
def test_date_accepts(predicted: str) -> None:
    assert grade(spec("date"), predicted, "2026-03-05") == 1.0


@pytest.mark.parametrize("predicted", ["2026-03-06", "5/3/2026", "March 5", "soon", 20260305])
def test_date_rejects(predicted: object) -> None:
    assert grade(spec("date"), predicted, "2026-03-05") == 0.0


def test_date_day_first_and_unparseable_gold() -> None:
    assert grade(spec("date", day_first=True), "5/3/2026", "2026-03-05") == 1.0
    assert grade(spec("date", day_first=True), "3/5/2026", "2026-03-05") == 0.0
    # A gold that is not a date falls back to casefold_exact.
    assert grade(spec("date"), "TBD.", "tbd") == 1.0
    assert grade(spec("date"), "later", "tbd") == 0.0


@pytest.mark.parametrize(
    ("predicted", "gold"),
    [
        ("555-123-4567", "(555) 123-4567"),
        ("five five five, one two three, four five six seven", "555-123-4567"),
        ("double five five one two three four five six seven", "5551234567"),
        ("+1 555 123 4567", "555-123-4567"),
        ("555 123 4567", "1 (555) 123-4567"),
        ("oh two oh, triple seven", "020777"),
    ],
)
def test_phone_accepts(predicted: str, gold: str) -> None:
    assert grade(spec("phone"), predicted, gold) == 1.0


@pytest.mark.parametrize(
    ("predicted", "gold"),
    [
        ("555-123-4568", "555-123-4567"),
        ("555-123-456", "555-123-4567"),
        ("+44 555 123 4567", "555-123-4567"),
        ("call me", "call me"),
    ],
)
def test_phone_rejects(predicted: str, gold: str) -> None:
    assert grade(spec("phone"), predicted, gold) == 0.0


@pytest.mark.parametrize(
    ("predicted", "gold", "expected"),
    [
        ("twelve oak street", "12 Oak St.", 1.0),
        ("Apt #4, 12 Oak Street", "apartment 4, twelve oak st", 1.0),
        ("1 Fifth Avenue, Suite 300", "1 5th Ave Ste 300", 1.0),
        ("12 North Main Road", "12 N. Main Rd", 1.0),
        ("14 Oak Street", "12 Oak Street", 0.0),
        ("12 Oak Avenue", "12 Oak Street", 0.0),
        ("12 Oak Street Apt 5", "12 Oak Street Apt 4", 0.0),
    ],
)
def test_address(predicted: str, gold: str, expected: float) -> None:
    assert grade(spec("address"), predicted, gold) == expected


@pytest.mark.parametrize(
    ("predicted", "gold"),
    [
        ("around eight years", 8),
        ("8 years", "eight"),
        ("$1,200", 1200),
        ("twelve hundred dollars", "1,200"),
        ("one thousand two hundred and fifty", 1250),
        ("5k", 5000),
        ("15%", 15),
        ("eight point five", 8.5),
        (200.0, "200"),
    ],
)
def test_numeric_exact_accepts(predicted: object, gold: object) -> None:
    assert grade(spec("numeric_tolerance"), predicted, gold) == 1.0


def test_numeric_absolute_tolerance_edges() -> None:
    tol = spec("numeric_tolerance", tolerance=0.5)
    assert grade(tol, 8.5, 8) == 1.0
    assert grade(tol, "7.5", 8) == 1.0
    assert grade(tol, 8.51, 8) == 0.0
    assert grade(tol, 7.49, 8) == 0.0
    assert grade(spec("numeric_tolerance", tolerance=0.1), 0.3, 0.2) == 1.0


def test_numeric_relative_tolerance_edges() -> None:
    rel = spec("numeric_tolerance", tolerance=0.1, relative=True)
    assert grade(rel, 220, 200) == 1.0
    assert grade(rel, 180, 200) == 1.0
    assert grade(rel, 220.5, 200) == 0.0
    assert grade(rel, -200, -200) == 1.0
    assert grade(rel, 1, 0) == 0.0


@pytest.mark.parametrize("predicted", ["8 or 9 years", "a few", "unknown", [8], {"v": 8}, True])
def test_numeric_rejects_unparseable(predicted: object) -> None:
    assert grade(spec("numeric_tolerance", tolerance=100), predicted, 8) == 0.0


# --- sets and lists -----------------------------------------------------------------------


def test_set_arithmetic() -> None:
    p, g = ["a", "b", "c"], ["a", "b", "d"]
    assert grade(spec("set_precision"), p, g) == pytest.approx(2 / 3)
    assert grade(spec("set_recall"), p, g) == pytest.approx(2 / 3)
    assert grade(spec("set_f1"), p, g) == pytest.approx(2 / 3)
    assert grade(spec("set_exact"), p, g) == 0.0


def test_set_precision_recall_differ() -> None:
    p, g = "a, b", ["a", "b", "c", "d"]
    assert grade(spec("set_precision"), p, g) == 1.0
    assert grade(spec("set_recall"), p, g) == 0.5
    assert grade(spec("set_f1"), p, g) == pytest.approx(2 / 3)
    assert grade(spec("set_f1"), "x, y", g) == 0.0


def test_set_exact_canonicalizes_and_dedupes() -> None:
    gold = ["Peanuts", "Shellfish", "Latex"]
    assert grade(spec("set_exact"), "latex, peanuts and shellfish.", gold) == 1.0
    assert grade(spec("set_exact"), "Latex; peanuts & shellfish; latex", gold) == 1.0
    assert grade(spec("set_exact"), "latex\npeanuts", gold) == 0.0
    assert grade(spec("set_exact", item_grader="exact"), "latex, peanuts, shellfish", gold) == 0.0
    assert grade(spec("set_exact", item_grader="exact"), "Latex, Peanuts, Shellfish", gold) == 1.0


def test_sets_reject_non_lists() -> None:
    assert grade(spec("set_f1"), {"a": 1}, ["a"]) == 0.0
    assert grade(spec("set_recall"), "a", []) == 0.0
    assert grade(spec("set_exact"), ",;", ",") == 0.0


def test_ordered_list_lcs() -> None:
    ordered = spec("ordered_list")
    gold = ["wash", "cut", "dry"]
    assert grade(ordered, "Wash, cut, dry.", gold) == 1.0
    assert grade(ordered, ["wash", "dry", "cut"], gold) == pytest.approx(2 / 3)
    assert grade(ordered, ["wash", "cut"], gold) == pytest.approx(2 / 3)
    assert grade(ordered, ["wash", "cut", "dry", "dry"], gold) == pytest.approx(3 / 4)
    assert grade(ordered, ["dry", "cut", "wash"], gold) == pytest.approx(1 / 3)
    assert grade(ordered, ["x"], gold) == 0.0


# --- intervals ----------------------------------------------------------------------------


def test_interval_iou() -> None:
    iou = spec("interval_overlap")
    assert grade(iou, "2pm to 4pm", "14:00 - 16:00") == 1.0
    assert grade(iou, "2 to 4pm", {"start": "14:00", "end": "16:00"}) == 1.0
    assert grade(iou, "2pm to 3pm", "14:00-16:00") == 0.5
    assert grade(iou, [0, 10], [5, 15]) == pytest.approx(5 / 15)
    assert grade(iou, [0, 1], [2, 3]) == 0.0
    assert grade(iou, "2026-03-05 to 2026-03-07", ["2026-03-05", "2026-03-07"]) == 1.0


def test_interval_iou_threshold() -> None:
    loose = spec("interval_overlap", threshold=0.5)
    assert grade(loose, "2pm to 3pm", "14:00-16:00") == 1.0
    assert grade(loose, "2pm to 2:59pm", "14:00-16:00") == pytest.approx(59 / 120)


def test_interval_zero_length() -> None:
    iou = spec("interval_overlap")
    assert grade(iou, [3, 3], [3, 3]) == 1.0
    assert grade(iou, [3, 3], [4, 4]) == 0.0
    assert grade(iou, [3, 3], [0, 10]) == 0.0


def test_interval_within() -> None:
    within = spec("interval_overlap", mode="within")
    assert grade(within, "2pm to 3pm", "1pm to 5pm") == 1.0
    assert grade(within, "1pm to 5pm", "1pm to 5pm") == 1.0
    assert grade(within, "12:30 to 15:00", "1pm to 5pm") == 0.0
    assert grade(within, "4pm to 6pm", "1pm to 5pm") == 0.0


def test_interval_rejects_invalid_and_mismatched() -> None:
    iou = spec("interval_overlap")
    assert grade(iou, [5, 3], [3, 5]) == 0.0
    assert grade(iou, "5pm to 3pm", "3pm to 5pm") == 0.0
    assert grade(iou, [14, 16], "2pm to 4pm") == 0.0
    assert grade(iou, "whenever", "2pm to 4pm") == 0.0


# --- canonical text -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grader", "value", "expected"),
    [
        ("date", "March fifth twenty twenty-six", "2026-03-05"),
        ("date", "sometime Soon", "sometime soon"),
        ("phone", "+1 (555) 123-4567", "5551234567"),
        ("numeric_tolerance", "$200.00", "200"),
        ("numeric_tolerance", 8.5, "8.5"),
        ("numeric_tolerance", "Not Sure", "not sure"),
        ("set_f1", "pears, Apples; pears", "apples|pears"),
        ("ordered_list", "pears, Apples\npears", "pears|apples|pears"),
        ("set_f1", "Rock and Roll, jazz", "jazz|rock and roll"),  # no gold: "and" never splits
        ("date", "may 5th", "--05-05"),
        ("date", "2:30pm", "14:30"),
        ("date", "20260305", "2026-03-05"),
        ("semantic", "5% Discount!", "5 % discount"),
        ("address", "Twelve Oak Street", "12 oak st"),
        ("interval_overlap", "2pm to 4pm", "14:00/16:00"),
        ("exact", " Acme  Corp ", "Acme Corp"),
        ("casefold_exact", "Acme Corp.", "acme corp"),
        ("semantic", "Follow-up!", "follow up"),
    ],
)
def test_canonical_text(grader: str, value: object, expected: str) -> None:
    assert canonical_text(spec(grader), value) == expected


def test_canonical_text_of_enum() -> None:
    assert canonical_text(spec("enum", values=["in_person"]), "In-Person") == "in person"


def test_matching_values_share_canonical_text() -> None:
    for name, a, b in [
        ("date", "3/5/2026", "the fifth of March, 2026"),
        ("phone", "1-555-123-4567", "five five five one two three four five six seven"),
        ("set_exact", "b, a", ["A", "B"]),
    ]:
        assert values_match(spec(name), a, b)
        assert canonical_text(spec(name), a) == canonical_text(spec(name), b)


# --- never raises -------------------------------------------------------------------------

_TRICKY = st.sampled_from(
    [
        "2026-03-05",
        "3/5/26",
        "March fifth twenty twenty six",
        "2pm to 4pm",
        "10pm - midnight",
        "2026-03-05T10:00Z - 2026-03-05T09:00+05:00",
        "one hundred and",
        "point",
        "a thousand",
        "double",
        "triple oh",
        "minus",
        "5k",
        "-",
        " - ",
        "twenty twenty",
        "from and to",
        "1,000,000,000,000,000,000,000",
        "9" * 500,
        "\u2212\u00b2\u2155",
    ]
)
_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
    | _TRICKY,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["start", "end", "from", "to", "x"]), children, max_size=3
        )
    ),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(predicted=_JSON, gold=_JSON)
def test_graders_never_raise(predicted: object, gold: object) -> None:
    for name in ALL_GRADERS:
        grader_spec = default_spec(name)
        score = grade(grader_spec, predicted, gold)
        assert isinstance(score, float)
        assert 0.0 <= score <= 1.0
        assert isinstance(canonical_text(grader_spec, predicted), str)
