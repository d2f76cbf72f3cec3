"""A contaminated agent gains nothing on a private suite (docs/suites.md, "Private
suites"; docs/security.md).

`GoldLookup` is the reference dialogue manager plus the packaged suites' gold: it
matches the session's instructions and tool names to a packaged item and writes
that item's gold. On the packaged suite it writes more gold values than the honest agent; on a suite
generated from a fresh seed it finds nothing to look up, and its Pass@1 is the
dialogue manager's, within the item-bootstrap interval.

Slow (about a minute: a 12-item suite is generated and validated, and 48 text
episodes are played); `make test-e2e` runs it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from duplexbench.agents import TextAgent
from duplexbench.items import WorkflowItem, load_suite
from duplexbench.scoring._episode import EpisodeScore
from duplexbench.scoring._summary import workflow_block
from duplexbench.suites import generate_workflows, resolve_suite
from support.cheaters import GoldLookup, reference_brain
from support.helpers import run_and_score

pytestmark = pytest.mark.slow


def _scores(items: list[WorkflowItem], make: object) -> list[EpisodeScore]:
    out = []
    for item in items:
        agent = make() if callable(make) else make
        assert isinstance(agent, TextAgent)
        out.append(run_and_score(item, agent)[1])
    return out


def _gold_values(scores: list[EpisodeScore]) -> int:
    """Values the grader accepts (the provenance rule aside: a corrected value the
    lookup writes before the caller corrects it is unsupported)."""
    return sum(f.correct or f.unsupported for s in scores for f in s.fields)


def _one_per_archetype(items: list[WorkflowItem]) -> list[WorkflowItem]:
    seen: dict[str, WorkflowItem] = {}
    for item in items:
        seen.setdefault(item.taxonomy.work_archetype, item)
    return list(seen.values())


def test_a_contaminated_agent_gains_nothing_on_a_generated_suite(tmp_path: Path) -> None:
    packaged = load_suite(resolve_suite("workflows-v2")).items
    cheat = GoldLookup(packaged)
    public = _one_per_archetype([i for i in packaged if cheat.knows(i)])
    assert _gold_values(_scores(public, cheat)) > _gold_values(_scores(public, reference_brain))
    assert cheat.matched == len(public)  # it found every packaged item and wrote its gold

    made = generate_workflows(seed=4242, out=tmp_path / "private", per_archetype=1)
    private = load_suite(made.path).items
    cheat.matched = 0
    honest = workflow_block(_scores(private, reference_brain), 1, 0)
    cheated = workflow_block(_scores(private, cheat), 1, 0)
    low, high = honest["ci95"]["pass_at_1"]
    assert cheat.matched <= 1  # a template it shares, with the packaged item's (wrong) gold
    assert low <= cheated["pass_at_1"] <= high
    assert cheated["pass_at_1"] <= honest["pass_at_1"]
