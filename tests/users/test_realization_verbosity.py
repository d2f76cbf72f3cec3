"""Realizer verbosity: plain is unchanged, terse picks the shortest, verbose frames the words."""

from __future__ import annotations

import pytest

from duplexbench.items._plans import all_plan_ids, plan_facts
from duplexbench.items._workflow import WorkflowItem
from duplexbench.users._realization import (
    DEFAULT_VARIANTS,
    FIXED_REPAIRS,
    FRAMES,
    SLOT_NAMED,
    UNFRAMED_KINDS,
    Realizer,
    variant_index,
)
from support.fixtures import fixture_item

ITEM = "form-expense-correction"


@pytest.fixture(scope="module")
def item() -> WorkflowItem:
    return fixture_item(ITEM)


def _facts(item: WorkflowItem, plan_id: str) -> list[str]:
    return plan_facts(item.user, plan_id) or []


def _say_everything(realizer: Realizer, item: WorkflowItem, times: int = 3) -> list[str]:
    out: list[str] = []
    for _ in range(times):
        for plan_id in _prerendered(item):
            out.append(realizer.realize(plan_id, _facts(item, plan_id)).text)
    return out


# --------------------------------------------------------------------- plain


def test_plain_is_the_default_and_matches_the_hash(item: WorkflowItem) -> None:
    default = Realizer(item.id, item.user, 3, 5)
    plain = Realizer(item.id, item.user, 3, 5, verbosity="plain")
    normal = Realizer(item.id, item.user, 3, 5, verbosity="normal")  # items' spelling
    for plan_id in ("confirm", "ack", "end", "confirm"):
        out = default.realize(plan_id, [])
        assert plain.realize(plan_id, []) == out
        assert normal.realize(plan_id, []) == out
    # The variant is exactly the seed hash's, as before verbosity existed.
    fresh = Realizer(item.id, item.user, 3, 5)
    index = variant_index(f"{item.id}|3|5|confirm|0", len(DEFAULT_VARIANTS["confirm"]))
    got = fresh.realize("confirm", [])
    assert got.text == DEFAULT_VARIANTS["confirm"][index]
    assert got.variant_id == f"confirm#v{index + 1}"


def _prerendered(item: WorkflowItem) -> list[str]:
    """Plans whose words are rendered ahead (slot-naming plans are rendered at run time)."""
    return [p for p in [*all_plan_ids(item.user), *FIXED_REPAIRS] if p not in SLOT_NAMED]


def test_plain_all_texts_is_every_rendered_variant(item: WorkflowItem) -> None:
    realizer = Realizer(item.id, item.user, 0, 0)
    expected: list[str] = []
    for plan_id in _prerendered(item):
        facts = _facts(item, plan_id)
        expected += [realizer.render(v, facts) for v in realizer.variants(plan_id)]
    assert realizer.all_texts() == list(dict.fromkeys(expected))
    explicit = Realizer(item.id, item.user, 0, 0, verbosity="plain")
    assert explicit.all_texts() == realizer.all_texts()


def test_unknown_verbosity_is_rejected(item: WorkflowItem) -> None:
    with pytest.raises(ValueError, match="terse, plain, verbose"):
        Realizer(item.id, item.user, 0, 0, verbosity="chatty")


# --------------------------------------------------------------------- terse


def test_terse_picks_the_shortest_variant(item: WorkflowItem) -> None:
    for seed in range(6):
        realizer = Realizer(item.id, item.user, seed, seed, verbosity="terse")
        for plan_id in _prerendered(item):
            facts = _facts(item, plan_id)
            rendered = [realizer.render(v, facts) for v in realizer.variants(plan_id)]
            shortest = min(len(t) for t in rendered)
            first = next(i for i, t in enumerate(rendered) if len(t) == shortest)
            out = realizer.realize(plan_id, facts)
            assert out.text == rendered[first]
            assert out.variant_id == f"{plan_id}#v{first + 1}"


def test_terse_ties_go_to_the_first_variant(item: WorkflowItem) -> None:
    user = item.user.model_copy(update={"realizations": {"ack": ["Fine.", "Sure.", "Ok."]}})
    realizer = Realizer(item.id, user, 0, 0, verbosity="terse")
    assert {realizer.realize("ack", []).text for _ in range(5)} == {"Ok."}
    user = item.user.model_copy(update={"realizations": {"ack": ["Sure.", "Fine."]}})
    assert Realizer(item.id, user, 0, 0, verbosity="terse").realize("ack", []).text == "Sure."


def test_terse_all_texts_has_one_text_per_plan(item: WorkflowItem) -> None:
    realizer = Realizer(item.id, item.user, 0, 0, verbosity="terse")
    texts = realizer.all_texts()
    assert set(_say_everything(realizer, item)) <= set(texts)
    assert len(texts) <= len(_prerendered(item))
    assert set(texts) < set(Realizer(item.id, item.user, 0, 0).all_texts())


# ------------------------------------------------------------------- verbose


def test_verbose_keeps_the_words_and_adds_a_frame(item: WorkflowItem) -> None:
    framed_count = 0
    for seed in range(8):
        plain = Realizer(item.id, item.user, seed, 1)
        verbose = Realizer(item.id, item.user, seed, 1, verbosity="verbose")
        for plan_id in _prerendered(item):
            facts = _facts(item, plan_id)
            base = plain.realize(plan_id, facts)
            out = verbose.realize(plan_id, facts)
            assert base.text in out.text
            assert out.variant_id.startswith(base.variant_id)
            if plan_id.partition(":")[0] in UNFRAMED_KINDS:
                assert out == base
                continue
            framed_count += 1
            frame = int(out.variant_id.rpartition("+f")[2]) - 1
            prefix, suffix = FRAMES[frame]
            assert out.text == f"{prefix}{base.text}{suffix}" != base.text
    assert framed_count > 100


@pytest.mark.parametrize("kind", ["backchannel", "nudge", "end"])
def test_verbose_never_frames_short_tokens(item: WorkflowItem, kind: str) -> None:
    realizer = Realizer(item.id, item.user, 0, 0, verbosity="verbose")
    for _ in range(6):
        assert realizer.realize(kind, []).text in DEFAULT_VARIANTS[kind]


def test_verbose_keeps_fact_values(item: WorkflowItem) -> None:
    realizer = Realizer(item.id, item.user, 0, 0, verbosity="verbose")
    fix = realizer.realize("event:fix_total", ["total_amount_v2"])
    assert "200 dollars" in fix.text and "{" not in fix.text
    for fact in item.user.facts:
        text = realizer.realize(f"answer:{fact.id}", [fact.id]).text
        assert fact.spoken in text


def test_verbose_questions_get_no_trailing_frame(item: WorkflowItem) -> None:
    for seed in range(20):
        realizer = Realizer(item.id, item.user, seed, 0, verbosity="verbose")
        text = realizer.realize("clarify", []).text
        assert text.endswith("?")
        assert any(text.startswith(p) for p, _ in FRAMES if p)


def test_verbose_is_deterministic_and_varies(item: WorkflowItem) -> None:
    def run(seed: int) -> list[str]:
        return _say_everything(Realizer(item.id, item.user, seed, 0, verbosity="verbose"), item)

    assert run(4) == run(4)
    frames = {
        Realizer(item.id, item.user, seed, 0, verbosity="verbose")
        .realize("confirm", [])
        .variant_id.rpartition("+f")[2]
        for seed in range(30)
    }
    assert len(frames) > 2


def test_verbose_all_texts_covers_everything_it_can_say(item: WorkflowItem) -> None:
    texts = set(Realizer(item.id, item.user, 0, 0, verbosity="verbose").all_texts())
    for seed in range(10):
        realizer = Realizer(item.id, item.user, seed, seed, verbosity="verbose")
        assert set(_say_everything(realizer, item)) <= texts
    assert "Mm-hm." in texts  # unframed kinds keep their plain variants
