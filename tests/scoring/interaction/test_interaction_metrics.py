"""Boundary tests for the τ-Voice panel on hand-built timelines."""

from __future__ import annotations

import pytest

from duplexbench.scoring._interaction import (
    Segment,
    classify_user_segment,
    drop_call_end_artifact,
    interaction_metrics,
    linearize,
    make_timeline,
)
from duplexbench.scoring._interaction.timeline import InteractionTimeline, SegmentKind


def U(start: float, end: float, kind: SegmentKind = "turn", text: str = "") -> Segment:
    return Segment("user", start, end, kind=kind, text=text)


def A(start: float, end: float, text: str = "") -> Segment:
    return Segment("agent", start, end, text=text)


def interruption(stop_after_ms: float, kind: SegmentKind = "turn") -> InteractionTimeline:
    """Agent speaks 0..(1000+stop_after); user cuts in at 1000."""
    return make_timeline([A(0, 1000 + stop_after_ms), U(1000, 1500, kind)], 20_000)


def test_yield_at_2000_is_yield_and_2001_is_not() -> None:
    m = interaction_metrics([interruption(2000.0)] * 10)
    assert m["yield_rate"] == {"value": 1.0, "count": 10, "insufficient": False}
    assert m["yield_latency"]["value"] == pytest.approx(2.0)
    m = interaction_metrics([interruption(2001.0)] * 10)
    assert m["yield_rate"]["value"] == 0.0
    assert m["yield_latency"] == {"value": None, "count": 0, "insufficient": True}


def test_backchannel_yield_within_one_second_is_error() -> None:
    m = interaction_metrics([interruption(1000.0, "backchannel")] * 10)
    assert m["selectivity_backchannel"]["value"] == 0.0
    m = interaction_metrics([interruption(1001.0, "backchannel")] * 10)
    assert m["selectivity_backchannel"]["value"] == 1.0
    assert m["yield_rate"]["count"] == 0  # a backchannel is not an interruption


@pytest.mark.parametrize("kind", ["vocal_tic", "non_directed"])
def test_tic_and_non_directed_windows(kind: SegmentKind) -> None:
    assert interaction_metrics([interruption(1000.0, kind)] * 10)[f"selectivity_{kind}"][
        "value"
    ] == pytest.approx(0.0)
    assert interaction_metrics([interruption(1001.0, kind)] * 10)[f"selectivity_{kind}"][
        "value"
    ] == pytest.approx(1.0)
    # during silence: agent starting within 2.0 s of the end is an error
    silent_err = make_timeline([U(0, 500, kind), A(2500, 3000)], 10_000)
    silent_ok = make_timeline([U(0, 500, kind), A(2501, 3000)], 10_000)
    assert interaction_metrics([silent_err] * 10)[f"selectivity_{kind}"]["value"] == 0.0
    assert interaction_metrics([silent_ok] * 10)[f"selectivity_{kind}"]["value"] == 1.0


def test_fewer_than_ten_events_is_insufficient() -> None:
    m = interaction_metrics([interruption(500.0)] * 9)
    assert m["yield_rate"] == {"value": None, "count": 9, "insufficient": True}
    assert interaction_metrics([interruption(500.0)] * 10)["yield_rate"]["value"] == 1.0


def test_selectivity_overall_needs_all_three() -> None:
    bc = [interruption(1500.0, "backchannel")] * 10
    vt = [interruption(1500.0, "vocal_tic")] * 10
    nd = [interruption(500.0, "non_directed")] * 10
    m = interaction_metrics(bc + vt + nd)
    assert m["selectivity"]["value"] == pytest.approx(2 / 3)
    assert interaction_metrics(bc + vt + nd[:9])["selectivity"]["value"] is None


def test_priority_order() -> None:
    assert classify_user_segment(backchannel=True, vocal_tic=True, non_directed=True) == (
        "backchannel"
    )
    assert classify_user_segment(vocal_tic=True, non_directed=True) == "vocal_tic"
    assert classify_user_segment(non_directed=True) == "non_directed"
    assert classify_user_segment() == "turn"


def test_response_latency_rate_and_no_response() -> None:
    answered = make_timeline([U(0, 1000), A(1800, 3000)], 10_000)
    unanswered = make_timeline([U(0, 1000), U(4000, 5000), A(5500, 6000)], 10_000)
    m = interaction_metrics([answered] * 5 + [unanswered] * 5)
    assert m["response_rate"]["count"] == 15
    assert m["response_rate"]["value"] == pytest.approx(10 / 15)
    assert m["response_latency"]["value"] == pytest.approx((5 * 0.8 + 5 * 0.5) / 10)


def test_unresolved_interruption_and_backchannel_not_response_eligible() -> None:
    tl = make_timeline([A(0, 5000), U(1000, 2000), U(3000, 3200, "backchannel")], 10_000)
    assert interaction_metrics([tl])["response_rate"]["count"] == 0


def test_agent_interruption_rate_can_exceed_one() -> None:
    tl = make_timeline([U(0, 3000), A(500, 800), A(1500, 1800), A(3500, 4000)], 10_000)
    m = interaction_metrics([tl] * 10)
    assert m["agent_interruption_rate"]["value"] == pytest.approx(2.0)


def test_unresponsive_period_at_exactly_three() -> None:
    three = make_timeline([U(0, 100), U(1000, 1100), U(2000, 2100), U(3000, 3100)], 9000)
    two = make_timeline([U(0, 100), U(1000, 1100), U(2000, 2100)], 9000)
    assert interaction_metrics([three])["unresponsive_period"]["flag"] is True
    assert interaction_metrics([three])["unresponsive_period"]["longest_run"] == 3
    assert interaction_metrics([two])["unresponsive_period"]["flag"] is False


def test_dead_air() -> None:
    tl = make_timeline([U(1000, 2000), A(5000, 6000), A(5500, 7000)], 10_000)
    d = interaction_metrics([tl])["dead_air"]
    assert d == {"total_s": 7.0, "fraction": 0.7, "longest_s": 3.0, "gaps_over_3s": 0}
    tl = make_timeline([U(0, 1000)], 4001)
    assert interaction_metrics([tl])["dead_air"]["gaps_over_3s"] == 1


def test_call_end_artifact_dropped_only_when_short_and_final() -> None:
    tl = make_timeline([A(0, 1000), U(9800, 10_000)], 10_000)
    assert drop_call_end_artifact(tl).user == ()
    longer = make_timeline([A(0, 1000), U(9700, 10_000)], 10_000)
    assert len(drop_call_end_artifact(longer).user) == 1
    not_at_end = make_timeline([A(0, 1000), U(9000, 9200)], 10_000)
    assert len(drop_call_end_artifact(not_at_end).user) == 1


def test_segment_validation() -> None:
    with pytest.raises(ValueError):
        Segment("agent", 0, 10, kind="backchannel")
    with pytest.raises(ValueError):
        Segment("user", 10, 0)


def test_linearize_inserts_contained_speech_where_it_stopped() -> None:
    segs = [
        A(0, 5000, "long answer"),
        U(1000, 1300, "backchannel", text="mm-hmm"),
        U(6000, 7000, text="ok"),
    ]
    msgs = linearize(segs)
    assert [m.text for m in msgs] == ["long answer", "mm-hmm", "ok"]
    assert msgs[1].inserted
    # an agent segment starting before the backchannel stopped comes first
    segs2 = [A(0, 5000, "a"), U(1000, 3000, text="b"), A(2000, 2500, "c")]
    assert [m.text for m in linearize(segs2)] == ["a", "c", "b"]


def test_linearize_partial_overlap_earlier_speaker_first() -> None:
    segs = [U(1000, 3000, text="late user"), A(0, 2000, "agent first")]
    assert [m.text for m in linearize(segs)] == ["agent first", "late user"]
    assert not any(m.inserted for m in linearize(segs))
