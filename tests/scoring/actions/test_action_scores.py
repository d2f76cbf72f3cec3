"""ActionScore per episode and the actions summary block (I, S, timing, FDB)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from duplexbench.items._action import ActionItem
from duplexbench.scoring._actions.judge import ActionJudge, ActionJudgeCache, build_question
from duplexbench.scoring._actions.result import (
    ActionScore,
    action_error_score,
    score_observation,
)
from duplexbench.scoring._actions.rules import Verdict
from duplexbench.scoring._actions.summary import action_block, rates
from support.action_builders import agent, item, observe, seg, words

# --- score_observation -----------------------------------------------------------------


def _stop() -> ActionItem:
    return item(
        "stop.direct_interruption",
        [seg(0, 2000, "tell me about Rome"), seg(0, 3000, "stop please", part="cue")],
        scenario="meeting",
    )


def test_stop_scores_with_the_rule() -> None:
    obs = observe(_stop(), [agent(4000, 5600, words(12))], cue=(5000, 8000), forced=True)
    s = score_observation(obs, repetition=2)
    assert (s.status, s.action, s.scenario, s.repetition) == ("ok", "stop", "meeting", 2)
    assert (s.immediate, s.timing_ms) == (True, 600)
    assert (s.follow_through, s.follow_through_source) == (True, "rule")
    assert s.heuristic_follow_through is None and s.judge_follow_through is None
    assert s.cue_forced is True and s.transcribed is False
    assert s.fdb == {"task": "user_interruption", "tor": 0, "latency_ms": None}
    assert s.deterministic_follow_through is True


def test_stop_not_applicable_and_failed_trials_get_no_follow_through() -> None:
    silent = score_observation(observe(_stop(), [agent(1000, 3000, words(6))], cue=(5000, 8000)), 0)
    assert silent.immediate is None and silent.follow_through is None
    assert "not speaking" in silent.immediate_reason
    talking = observe(_stop(), [agent(4000, 30_000, words(6))], cue=(5000, 8000))
    failed = score_observation(talking, 0)
    assert failed.immediate is False and failed.follow_through_source is None


def _take() -> ActionItem:
    return item(
        "take_turn.immediate",
        [seg(0, 4000, "My kettle broke after two days")],
        user_end_ms=4000,
        response_window=[0, 500],
        expected_terms=["refund"],
    )


def test_judged_action_offline_uses_the_heuristic() -> None:
    obs = observe(_take(), [agent(4200, 6000, "I can refund that for you")])
    s = score_observation(obs, 0)
    assert (s.immediate, s.timing_ms) == (True, 200)
    assert (s.follow_through, s.follow_through_source) == (True, "heuristic")
    assert s.heuristic_follow_through is True and s.judge_follow_through is None
    assert "refund" in s.heuristic_reason
    # a cache-only judge that misses changes nothing
    miss = score_observation(obs, 0, ActionJudge("m", ActionJudgeCache(None)))
    assert miss.follow_through_source == "heuristic"


def test_a_judge_verdict_wins_but_the_heuristic_is_kept() -> None:
    obs = observe(_take(), [agent(4200, 6000, "I can refund that for you")])
    judge = ActionJudge("m", ActionJudgeCache(None))
    judge.cache.put("m", build_question(obs), Verdict(False, "ignores the broken kettle"))
    s = score_observation(obs, 0, judge)
    assert (s.follow_through, s.follow_through_source) == (False, "judge")
    assert s.follow_through_reason == "ignores the broken kettle"
    assert (s.heuristic_follow_through, s.judge_follow_through) == (True, False)
    assert s.deterministic_follow_through is True


def test_no_follow_through_without_immediate_success() -> None:
    judge = ActionJudge("m", ActionJudgeCache(None))
    s = score_observation(observe(_take(), [agent(4600, 6000, words(6))]), 0, judge)
    assert s.immediate is False
    assert (s.follow_through, s.heuristic_follow_through, s.judge_follow_through) == (None,) * 3
    assert judge.misses == 0  # the judge is not even asked


def test_missing_annotation_becomes_an_error_score() -> None:
    it = item("take_turn.immediate", [seg(0, 4000)])
    s = score_observation(observe(it, [agent(4000, 5000, words(5))]), 1)
    assert s.status == "error" and s.error is not None and "user_end_ms" in s.error
    assert s.immediate is None


def test_result_json_round_trip_and_strictness() -> None:
    s = score_observation(observe(_take(), [agent(4200, 6000, "I can refund that")]), 0)
    again = ActionScore.model_validate_json(s.model_dump_json())
    assert again == s
    data = json.loads(s.model_dump_json())
    data["surprise"] = 1
    with pytest.raises(ValidationError):
        ActionScore.model_validate(data)
    err = action_error_score(_take(), 3, "agent crashed")
    assert (err.status, err.error, err.repetition, err.action) == (
        "error",
        "agent crashed",
        3,
        "take_turn",
    )


# --- summary ---------------------------------------------------------------------------


def _score(
    condition: str, immediate: bool | None, ft: bool | None = None, **kw: Any
) -> ActionScore:
    action = condition.partition(".")[0]
    fields: dict[str, Any] = {
        "item_id": f"i-{condition}",
        "repetition": 0,
        "status": "ok",
        "condition": condition,
        "action": action,
        "scenario": kw.pop("scenario", "meeting"),
        "immediate": immediate,
    }
    if immediate:
        if action == "stop":
            fields |= {"follow_through": ft, "follow_through_source": "rule"}
        else:
            fields |= {"follow_through": ft, "follow_through_source": "heuristic"}
            fields["heuristic_follow_through"] = ft
    return ActionScore(**(fields | kw))


def test_i_and_s_are_micro_averaged_over_conditions() -> None:
    scores = [
        _score("wait.intra_sentential_pause", True, True),
        _score("wait.intra_sentential_pause", False),
        _score("wait.inter_sentential_pause", True, True),
        _score("wait.inter_sentential_pause", True, False),
        _score("wait.inter_sentential_pause", True, None),  # no verdict: out of S
    ]
    wait = action_block(scores)["per_action"]["wait"]
    # micro: 4/5 (the macro mean of 1/2 and 3/3 would be 0.75)
    assert wait["immediate"] == 0.8 and wait["n"] == 5
    # micro: 2/3 (the macro mean of 1/1 and 1/2 would be 0.75)
    assert wait["subsequent"] == 0.666667 and wait["n_s"] == 3
    assert wait["follow_through_failure"] == 0.333333
    per_condition = action_block(scores)["per_condition"]
    assert per_condition["wait.intra_sentential_pause"]["immediate"] == 0.5
    assert per_condition["wait.inter_sentential_pause"]["subsequent"] == 0.5
    assert "subsequent_judge" not in wait


def test_not_applicable_trials_and_errors_are_left_out() -> None:
    scores = [
        _score("stop.direct_interruption", None),
        _score("stop.direct_interruption", True, True, timing_ms=100),
        _score("stop.direct_interruption", False),
        action_error_score(_stop(), 0, "adapter crashed"),
    ]
    block = action_block(scores)
    stop = block["per_action"]["stop"]
    assert (stop["immediate"], stop["n"], stop["n_na"], stop["errors"]) == (0.5, 2, 1, 1)
    assert (stop["subsequent"], stop["n_s"]) == (1.0, 1)
    assert (block["episodes"], block["errors"]) == (4, 1)


def test_judge_s_is_reported_separately() -> None:
    scores = [
        _score("take_turn.immediate", True, True, judge_follow_through=False),
        _score("take_turn.immediate", True, True, judge_follow_through=True),
        _score("take_turn.delayed", True, False),  # no judge verdict
    ]
    t = action_block(scores)["per_action"]["take_turn"]
    assert (t["subsequent"], t["n_s"]) == (0.666667, 3)
    assert (t["subsequent_judge"], t["n_s_judge"]) == (0.5, 2)
    assert t["follow_through_failure_judge"] == 0.5


def test_timing_diagnostics() -> None:
    stop_id = "stop.direct_interruption"
    scores = [_score(stop_id, True, True, timing_ms=t) for t in (100, 200, 300, 400)]
    scores.append(_score(stop_id, False, timing_ms=None))
    stop = action_block(scores)["per_action"]["stop"]
    assert stop["yield_latency_ms"] == {"median": 250.0, "q1": 175.0, "q3": 325.0, "n": 4}
    rec = action_block([_score("recover.enrich", True, True, timing_ms=-300)])["per_action"]
    assert rec["recover"]["recovery_latency_ms"] == {
        "median": -300.0,
        "q1": -300.0,
        "q3": -300.0,
        "n": 1,
    }
    inter = action_block([_score("interrupt.help", False)])["per_action"]["interrupt"]
    assert inter["interruption_timing_difference_ms"]["n"] == 0


def test_scenarios_counts_and_fdb() -> None:
    scores = [
        _score("take_turn.immediate", True, True, scenario="interview", transcribed=True,
               fdb={"task": "smooth_turn_taking", "tor": 1, "latency_ms": 300}),
        _score("take_turn.delayed", False, scenario="meeting",
               fdb={"task": "smooth_turn_taking", "tor": 0, "latency_ms": None}),
        _score("hold_floor.continue", True, False, scenario="meeting", cue_forced=True),
        _score("backchannel.affirmative", True, True,
               fdb={"task": "backchannel", "tor": 0, "backchannel_per_s": 0.25}),
    ]  # fmt: skip
    block = action_block(scores)
    assert block["by_scenario"]["interview"]["take_turn"] == {
        "immediate": 1.0,
        "n": 1,
        "subsequent": 1.0,
        "n_s": 1,
    }
    assert block["by_scenario"]["meeting"]["take_turn"]["immediate"] == 0.0
    assert block["by_scenario"]["meeting"]["hold_floor"]["subsequent"] == 0.0
    assert (block["cues_forced"], block["asr_transcribed"]) == (1, 1)
    fdb = block["fdb_v1"]
    assert fdb["smooth_turn_taking"]["tor"] == 0.5 and fdb["smooth_turn_taking"]["n"] == 2
    assert fdb["smooth_turn_taking"]["tor_better"] == "higher"
    assert fdb["smooth_turn_taking"]["latency_ms"]["median"] == 300.0
    assert fdb["backchannel"] == {
        "n": 1,
        "tor": 0.0,
        "tor_better": "lower",
        "backchannel_per_s": 0.25,
    }
    json.dumps(block)  # JSON-ready


def test_rates_of_nothing() -> None:
    assert rates([]) == {
        "immediate": None,
        "n": 0,
        "n_na": 0,
        "subsequent": None,
        "n_s": 0,
        "follow_through_failure": None,
    }
    assert action_block([])["per_action"] == {}
