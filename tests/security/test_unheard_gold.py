"""Values written before the agent could have heard them count as wrong (issue: scores
that require provenance): an agent that writes the gold of every field it has not
heard yet scores exactly as the same agent leaving those fields empty.

Before the rule, the agent of "Why" (the reference dialogue manager plus gold it
never heard) passed half of workflows-mini's items; here its gain is zero, item by
item, on every fixture.
"""

from __future__ import annotations

import pytest

from duplexbench.scoring._episode import EpisodeScore
from support.cheaters import UnheardGold
from support.fixtures import fixture_item
from support.helpers import run_and_score

FIXTURES = (  # every fixture with an artifact (airline-rebooking is graded on its database)
    "form-expense-correction",
    "order-revocation",
    "benefits-enrollment",
    "meeting-scheduling",
)


def _play(name: str, blank: bool) -> tuple[UnheardGold, EpisodeScore]:
    item = fixture_item(name)
    agent = UnheardGold(item, blank=blank)
    return agent, run_and_score(item, agent)[1]


@pytest.mark.parametrize("name", FIXTURES)
def test_gold_never_heard_scores_as_an_empty_field(name: str) -> None:
    cheat, guessed = _play(name, blank=False)
    _, blank = _play(name, blank=True)
    assert cheat.unheard, "the fixture has values the caller says later"
    assert guessed.afa is not None and blank.afa is not None
    assert (guessed.ws, guessed.afa.correct) == (blank.ws, blank.afa.correct)
    keys = {field for _, field in cheat.unheard}
    for f in guessed.fields:
        if f.field in keys:
            assert not f.correct, f.field
            # the grader accepts it: only the provenance rule makes it wrong
            assert f.unsupported and f.cause == "unsupported", f.field
    # the share of guessed values stays a reported figure
    assert guessed.provenance is not None
    assert guessed.provenance.unsupported == sum(f.unsupported for f in guessed.fields)


def test_without_the_rule_the_guess_would_have_paid() -> None:
    item = fixture_item("form-expense-correction")
    _, exempt = run_and_score(item, UnheardGold(item), exempt=True)
    _, blank = _play("form-expense-correction", blank=True)
    assert exempt.afa is not None and blank.afa is not None
    assert exempt.afa.correct > blank.afa.correct
