"""Each metric catches the defect it was built for, and only that defect.

Every defect agent is the oracle with one thing broken (duplexbench.testing._defects).
Each test runs it and the oracle on the same fixture and checks that the metric
built to catch the defect moves while the unrelated headline metrics stay where the
oracle has them. docs/metrics.md ("Validity") lists the agents and the numbers.
"""

from __future__ import annotations

from typing import Any

from duplexbench.agents._audio_builtin import AudioOracle
from duplexbench.agents._builtin import OracleAgent
from duplexbench.agents._protocol import TextAgent
from duplexbench.scoring._episode import EpisodeScore, score_episode
from duplexbench.scoring._interaction.metrics import interaction_metrics
from duplexbench.scoring._summary import workflow_block
from duplexbench.testing import _defects as defects
from support.fixtures import fixture_item
from support.helpers import run_and_score, run_audio

FORMS = ("form-expense-correction", "order-revocation", "benefits-enrollment")


def text_score(fixture: str, agent: TextAgent, exempt: bool = True) -> EpisodeScore:
    """Scored as a campaign scores a privileged agent: exempt from the provenance rule
    unless told otherwise."""
    return run_and_score(fixture_item(fixture), agent, privileged=True, exempt=exempt)[1]


def headline(score: EpisodeScore) -> dict[str, Any]:
    """The per-episode headline numbers a defect may move."""
    assert score.status == "ok", score.error
    assert score.afa is not None
    corrected = [f for f in score.fields if f.correction_linked]
    return {
        "ws": score.ws,
        "afa": score.afa.correct / score.afa.total,
        "uptake": sum(f.correct for f in corrected) / len(corrected) if corrected else None,
        "blocked": len(score.blocked_actions),
        "PV": score.gates["PV"],
        "AV": score.gates["AV"],
    }


def moved(oracle: dict[str, Any], defect: dict[str, Any]) -> set[str]:
    return {k for k in oracle if oracle[k] != defect[k]}


def test_the_oracle_is_the_baseline_every_defect_is_measured_against() -> None:
    for fixture in FORMS:
        base = headline(text_score(fixture, OracleAgent()))
        assert base["ws"] == 1 and base["afa"] == 1.0 and base["blocked"] == 0


def test_ignoring_a_correction_moves_correction_uptake_not_approvals() -> None:
    for fixture in ("form-expense-correction", "order-revocation"):
        base = headline(text_score(fixture, OracleAgent()))
        bad = headline(text_score(fixture, defects.IgnoresCorrections()))
        assert base["uptake"] == 1.0 and bad["uptake"] == 0.0
        assert bad["afa"] < base["afa"] and bad["ws"] == 0
        assert moved(base, bad) <= {"uptake", "afa", "ws", "AV"}  # approvals untouched
        assert bad["blocked"] == 0 and bad["PV"]


def test_committing_before_approval_is_blocked_and_fails_the_procedure_gate() -> None:
    for fixture in FORMS:
        base = headline(text_score(fixture, OracleAgent()))
        bad = headline(text_score(fixture, defects.CommitsEarly()))
        assert bad["blocked"] == 1 and not bad["PV"] and bad["ws"] == 0
        assert moved(base, bad) == {"blocked", "PV", "ws"}  # every value still right


def test_mishearing_digits_moves_field_accuracy_not_approvals() -> None:
    for fixture in FORMS:
        base = headline(text_score(fixture, OracleAgent()))
        bad = headline(text_score(fixture, defects.MishearsDigits()))
        assert bad["afa"] < base["afa"] and bad["ws"] == 0
        assert bad["blocked"] == 0 and bad["PV"]


def test_raising_when_failing_scores_no_better_than_failing() -> None:
    plain = [text_score(f, defects.MishearsDigits()) for f in FORMS]
    raising = [text_score(f, defects.RaisesWhenFailing()) for f in FORMS]
    a, b = workflow_block(plain, 1, 0), workflow_block(raising, 1, 0)
    assert a["pass_at_1"] == 0.0 and a["afa"] is not None and a["afa"] < 1.0
    assert b["pass_at_1"] is not None and b["pass_at_1"] <= a["pass_at_1"]
    assert b["afa"] is not None and b["afa"] <= a["afa"]


def test_talking_over_a_barge_in_moves_the_yield_rate_not_the_work() -> None:
    item = fixture_item("form-expense-correction")
    base = score_episode(item, run_audio(item, AudioOracle(), privileged=True).events, exempt=True)
    never = run_audio(item, defects.NeverYields(), privileged=True)
    bad = score_episode(item, never.events, exempt=True)
    assert base.floor is not None and bad.floor is not None
    assert base.floor.barge_ins == bad.floor.barge_ins == 1
    assert base.floor.yields == 1 and bad.floor.yields == 0
    assert headline(base) == headline(bad)  # same values, same gates


def test_answering_late_moves_response_latency_not_the_work() -> None:
    item = fixture_item("meeting-scheduling")
    base = score_episode(item, run_audio(item, AudioOracle(), privileged=True).events, exempt=True)
    bad = score_episode(
        item,
        run_audio(item, defects.AnswersLate(delay_ms=2000), privileged=True).events,
        exempt=True,
    )
    assert base.interaction is not None and bad.interaction is not None
    fast = interaction_metrics([base.interaction.timeline()], rules="tau2")
    slow = interaction_metrics([bad.interaction.timeline()], rules="tau2")
    gap = slow["response_latency"]["value"] - fast["response_latency"]["value"]
    assert 1.9 <= gap <= 2.1  # seconds: the delay, nothing else
    assert headline(base) == headline(bad)


def test_writing_values_before_they_are_said_moves_unsupported_values_only() -> None:
    base = workflow_block([text_score(f, OracleAgent()) for f in FORMS], 1, 0)
    bad = workflow_block([text_score(f, defects.WritesBeforeRevealed()) for f in FORMS], 1, 0)
    assert base["unsupported_values"]["rate"] == 0.0
    assert bad["unsupported_values"]["rate"] > 0.5  # most values were guessed right
    for key in ("pass_at_1", "afa", "gates"):
        assert bad[key] == base[key]  # exempt, as a privileged agent's run is


def test_values_written_before_they_are_said_count_wrong_for_an_agent_that_is_not_exempt() -> None:
    base = workflow_block([text_score(f, OracleAgent(), exempt=False) for f in FORMS], 1, 0)
    bad = [text_score(f, defects.WritesBeforeRevealed(), exempt=False) for f in FORMS]
    block = workflow_block(bad, 1, 0)
    assert base["pass_at_1"] == 1.0 and base["unsupported_values"]["rate"] == 0.0
    assert block["pass_at_1"] == 0.0 and block["afa"] < base["afa"]
    flagged = sum(f.unsupported for s in bad for f in s.fields)
    assert flagged == block["unsupported_values"]["unsupported"] > 0
