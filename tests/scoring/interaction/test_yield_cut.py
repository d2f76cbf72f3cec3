"""The panel's yield needs a real stop: an agent segment that ended naturally in the
window is "ended naturally", under both rule sets; without cut information (tau2
trajectories) the stop alone decides, as before."""

from __future__ import annotations

import pytest

from duplexbench.scoring._interaction import Segment, interaction_metrics, make_timeline
from duplexbench.scoring._interaction.metrics import Rules
from duplexbench.scoring._interaction.record import TimelineRecord
from duplexbench.scoring._interaction.timeline import InteractionTimeline


def interruption(cut: bool | None, stop_after_ms: float = 500.0) -> InteractionTimeline:
    """Agent speaks 0..(1000 + stop_after); the user cuts in at 1000."""
    agent = Segment("agent", 0, 1000 + stop_after_ms, cut=cut)
    return make_timeline([agent, Segment("user", 1000, 1500)], 20_000)


@pytest.mark.parametrize("rules", ["duplexbench", "tau2"])
def test_a_natural_end_in_the_window_is_not_a_yield(rules: Rules) -> None:
    m = interaction_metrics([interruption(cut=False)] * 10, rules=rules)
    assert m["yield_rate"]["value"] == 0.0
    assert m["ended_naturally_rate"]["value"] == 1.0
    assert m["yield_latency"]["count"] == 0
    assert (m["counts"]["yield_total"], m["counts"]["ended_naturally"]) == (10, 10)


@pytest.mark.parametrize("rules", ["duplexbench", "tau2"])
@pytest.mark.parametrize("cut", [True, None])
def test_a_cut_or_unknown_stop_in_the_window_is_a_yield(rules: Rules, cut: bool | None) -> None:
    m = interaction_metrics([interruption(cut)] * 10, rules=rules)
    assert m["yield_rate"]["value"] == 1.0
    assert m["ended_naturally_rate"]["value"] == 0.0


def test_talking_past_the_window_is_no_yield_whatever_the_cut() -> None:
    for cut in (True, False, None):
        m = interaction_metrics([interruption(cut, 2001.0)] * 10)
        assert m["yield_rate"]["value"] == 0.0 and m["ended_naturally_rate"]["value"] == 0.0
        assert m["counts"]["no_yield"] == 10


def test_only_agent_segments_carry_a_cut() -> None:
    with pytest.raises(ValueError, match="only agent segments"):
        Segment("user", 0, 100, cut=True)


def test_timeline_record_keeps_the_cut_and_reads_old_records() -> None:
    rows = [("agent", 0, 1500, "turn"), ("user", 1000, 1500, "turn")]
    new = TimelineRecord.model_validate({"end_ms": 20_000, "segments": rows, "agent_cut": []})
    assert [s.cut for s in new.timeline().segments] == [False, None]
    cut = TimelineRecord.model_validate({"end_ms": 20_000, "segments": rows, "agent_cut": [0]})
    assert cut.timeline().agent[0].cut is True
    old = TimelineRecord.model_validate({"end_ms": 20_000, "segments": rows})
    assert old.agent_cut is None and old.timeline().agent[0].cut is None
