"""Parity with tau2-bench's interaction metrics (``rules="tau2"``) and each rule difference.

The golden experiment and its expected_metrics.json are tau2-bench's own test data
(tests/fixtures/tau2/README.md). The tick-built cases below pin every point where the
tau2 rules differ from duplexbench's (tau2_rules.py, docs/metrics.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from duplexbench.scoring._interaction import interaction_metrics, ticks_to_timeline
from duplexbench.scoring._interaction.metrics import Rules
from duplexbench.scoring._interaction.tau2 import experiment_metrics
from duplexbench.scoring._interaction.tau2_rules import as_tau2_metrics, drop_final_tick
from duplexbench.scoring._interaction.timeline import (
    InteractionTimeline,
    Segment,
    drop_call_end_artifact,
    make_timeline,
)

GOLDEN = Path(__file__).resolve().parents[2] / "fixtures/tau2/interaction-metrics"
EXPECTED = json.loads((GOLDEN / "expected_metrics.json").read_text(encoding="utf-8"))

# One character per 0.2 s tick. Agent line: "A" speaks. User line: (speech, action, insert).
USER_TICK: dict[str, tuple[bool, str | None, str | None]] = {
    ".": (False, None, None),
    "U": (True, "keep_talking", None),
    "B": (True, "backchannel", None),
    "K": (True, "backchannel", "vocal_tic"),  # a backchannel with a cough in it
    "T": (True, "keep_talking", "vocal_tic"),  # speech with a tic inside
    "N": (True, "keep_talking", "non_directed_phrase"),  # speech with a side remark
    "t": (False, "wait", "vocal_tic"),  # an out-of-turn tic, the user silent
    "n": (False, "wait", "non_directed_phrase"),  # an out-of-turn side remark
}


def ticks(agent: str, user: str) -> list[dict[str, Any]]:
    out = []
    for i in range(max(len(agent), len(user))):
        speech, action, insert = USER_TICK[user[i] if i < len(user) else "."]
        effects = {"speech_insert": {"text": "x", "type": insert}} if insert else None
        out.append(
            {
                "agent_chunk": {"contains_speech": i < len(agent) and agent[i] == "A"},
                "user_chunk": {
                    "contains_speech": speech,
                    "turn_taking_action": {"action": action} if action else None,
                    "speech_effects": effects if speech else None,
                    "source_effects": None if speech else effects,
                },
            }
        )
    return out


def panel(agent: str, user: str, rules: Rules, copies: int = 1) -> dict[str, Any]:
    """The panel of ``copies`` identical calls (10 lift duplexbench's sufficiency bar)."""
    return interaction_metrics([ticks_to_timeline(ticks(agent, user))] * copies, rules=rules)


def counts(agent: str, user: str, rules: Rules) -> dict[str, int]:
    c: dict[str, int] = panel(agent, user, rules)["counts"]
    return c


# --- golden experiment -------------------------------------------------------------


def test_golden_experiment_equals_tau2_bench_expected_metrics() -> None:
    actual = as_tau2_metrics(experiment_metrics(GOLDEN / "experiment", rules="tau2"))
    assert set(actual) == set(EXPECTED)
    assert actual["counts"] == EXPECTED["counts"]
    for name, expected in EXPECTED.items():
        if name == "counts":
            continue
        if expected is None:
            assert actual[name] is None, name
        else:
            assert actual[name] == pytest.approx(expected, abs=1e-9), name


def test_golden_panel_entries_carry_the_same_numbers() -> None:
    m = experiment_metrics(GOLDEN / "experiment")  # tau2 rules are the reader's default
    c = m["counts"]
    assert (c["response_total"], c["no_response"]) == (35, 1)
    assert m["response_rate"]["value"] == pytest.approx(34 / 35)
    assert m["agent_interruption_rate"]["value"] == pytest.approx(8 / 35)
    assert (c["vocal_tic_total"], c["vocal_tic_error"]) == (7, 6)
    assert (c["non_directed_total"], c["non_directed_error"]) == (6, 5)
    assert (c["backchannel_total"], c["backchannel_error"]) == (3, 2)
    assert m["selectivity_vocal_tic"] == {
        "value": pytest.approx(1 / 7),
        "count": 7,
        "insufficient": True,
    }


# --- tau2-bench's own synthetic cases, restated -------------------------------------


def test_tau2_unit_cases() -> None:
    m = panel("..........AAAAA.....", "UUUUU...............", "tau2")
    assert m["response_latency"]["value"] == pytest.approx(1.0)
    c = counts(".........................AAA...", "UUUUU..........UUUUU", "tau2")
    assert (c["response_total"], c["no_response"]) == (2, 1)
    m = panel("AAAAAAA.....AAA..", "....UUUUUU", "tau2")
    assert m["yield_latency"]["value"] == pytest.approx(0.6)
    c = counts("AAA", "......nn" + "." * 15, "tau2")
    assert (c["non_directed_total"], c["non_directed_error"]) == (1, 0)


# --- each rule difference -----------------------------------------------------------


def test_ignored_out_of_turn_tic_during_agent_speech() -> None:
    """Rule 2: talked through -> no event (tau2), a correct event (duplexbench)."""
    agent, user = "A" * 15 + "." * 5, "...t"
    assert counts(agent, user, "tau2")["vocal_tic_total"] == 0
    c = counts(agent, user, "duplexbench")
    assert (c["vocal_tic_total"], c["vocal_tic_error"]) == (1, 0)


@pytest.mark.parametrize("rules", ["tau2", "duplexbench"])
def test_out_of_turn_yield_window_is_inclusive_under_both(rules: Rules) -> None:
    c = counts("A" * 8 + "." * 5, "...n", rules)  # agent stops 1.0 s after the remark
    assert (c["non_directed_total"], c["non_directed_error"]) == (1, 1)


def test_turn_with_a_tic_inside_is_response_eligible_under_tau2() -> None:
    """Rule 1: a turn containing a cough is a turn (and a tic event) under tau2."""
    agent, user = "." * 23 + "AAA..", "TTTTUUUU"  # agent answers 3.0 s after the end
    m = panel(agent, user, "tau2")
    assert m["counts"]["response_total"] == 1
    assert m["response_latency"]["value"] == pytest.approx(3.0)
    assert (m["counts"]["vocal_tic_total"], m["counts"]["vocal_tic_error"]) == (1, 0)
    c = counts(agent, user, "duplexbench")
    assert (c["response_total"], c["vocal_tic_total"], c["vocal_tic_error"]) == (0, 1, 0)


def test_no_response_is_judged_against_the_next_eligible_segment() -> None:
    """Rule 1: the tic-bearing turn at 1.6 s is the next eligible turn under tau2 only."""
    agent, user = "." * 18 + "AAAA...", "UUUU....TTTT"
    c = counts(agent, user, "tau2")
    assert (c["response_total"], c["no_response"]) == (2, 1)
    m = panel(agent, user, "duplexbench", copies=10)
    assert (m["counts"]["response_total"], m["counts"]["no_response"]) == (10, 0)
    assert m["response_latency"]["value"] == pytest.approx(2.8)


def test_yield_window_is_exclusive_in_ticks_under_tau2() -> None:
    """Rule 3: the agent stopping exactly 2.0 s after the user's start is no yield."""
    at_window = ("A" * 15 + "." * 10, "....." + "UUU")
    assert counts(*at_window, "tau2")["no_yield"] == 1
    m = panel(*at_window, "duplexbench", copies=10)
    assert m["yield_latency"]["value"] == pytest.approx(2.0)
    inside = ("A" * 14 + "." * 10, "....." + "UUU")
    assert panel(*inside, "tau2")["yield_latency"]["value"] == pytest.approx(1.8)
    m = panel(*inside, "duplexbench", copies=10)
    assert m["yield_latency"]["value"] == pytest.approx(1.8)


def test_agent_talking_to_the_last_tick_never_stops_under_tau2() -> None:
    agent, user = "A" * 10, "..UU"
    assert counts(agent, user, "tau2")["no_yield"] == 1
    assert counts(agent, user, "duplexbench")["no_yield"] == 0


def test_backchannel_window_is_exclusive_under_tau2() -> None:
    agent, user = "A" * 8 + "." * 5, "...BB"  # the agent stops exactly 1.0 s after it
    c = counts(agent, user, "tau2")
    assert (c["backchannel_total"], c["backchannel_error"]) == (1, 0)
    c = counts(agent, user, "duplexbench")
    assert (c["backchannel_total"], c["backchannel_error"]) == (1, 1)


def test_backchannel_with_a_tic_in_silence_is_a_tic_event_under_tau2() -> None:
    """Rule 6."""
    agent, user = "", "KK" + "." * 20
    assert counts(agent, user, "tau2")["vocal_tic_total"] == 1
    c = counts(agent, user, "duplexbench")
    assert (c["vocal_tic_total"], c["backchannel_total"], c["response_total"]) == (0, 0, 0)


def test_agent_starting_during_an_out_of_turn_insert_is_no_interruption_under_tau2() -> None:
    """Rule 5 (the agent answering the side remark is an S_ND error under both)."""
    agent, user = ".....AAAA....", "...nnnn"
    c = counts(agent, user, "tau2")
    assert (c["agent_interrupts_count"], c["non_directed_error"]) == (0, 1)
    c = counts(agent, user, "duplexbench")
    assert (c["agent_interrupts_count"], c["non_directed_error"]) == (1, 1)


def test_call_end_cuts_the_final_tick_under_tau2() -> None:
    """Rule 4: the one-tick user segment goes with its tick; the agent is clipped."""
    tl = ticks_to_timeline(ticks("A" * 10, "." * 9 + "U"))
    cut = drop_final_tick(tl)
    assert cut.end_ms == pytest.approx(1800) and cut.user == ()
    assert [(a.start_ms, a.end_ms) for a in cut.agent] == [(0.0, 1800.0)]
    kept = drop_call_end_artifact(tl)
    assert kept.end_ms == pytest.approx(2000) and kept.user == ()
    # an agent segment starting on that final tick goes with it under tau2 only
    same_tick = ticks_to_timeline(ticks("." * 9 + "A", "." * 9 + "U"))
    assert drop_final_tick(same_tick).segments == ()
    assert len(drop_call_end_artifact(same_tick).user) == 1
    longer = ticks_to_timeline(ticks("A" * 10, "." * 8 + "UU"))
    assert drop_final_tick(longer) == longer


def test_tau2_rules_on_a_continuous_timeline() -> None:
    """Without a tick grid the windows are used as they are (exclusive for stops)."""

    def interruption(stop_after_ms: float) -> InteractionTimeline:
        segs = [Segment("agent", 0, 1000 + stop_after_ms), Segment("user", 1000, 1500)]
        return make_timeline(segs, 20_000)

    assert interaction_metrics([interruption(1999.0)], rules="tau2")["counts"]["no_yield"] == 0
    assert interaction_metrics([interruption(2000.0)], rules="tau2")["counts"]["no_yield"] == 1


def test_tau2_rules_keep_values_behind_few_events() -> None:
    """Rule 7: tau2-bench reports every rate; the insufficient flag stays."""
    agent, user = "..........AAAAA.....", "UUUUU..............."
    assert panel(agent, user, "tau2")["response_rate"] == {
        "value": 1.0,
        "count": 1,
        "insufficient": True,
    }
    assert panel(agent, user, "duplexbench")["response_rate"]["value"] is None


def test_unknown_rules_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown interaction rules"):
        paper: Any = "paper"  # not one of the Rules
        interaction_metrics([], rules=paper)
