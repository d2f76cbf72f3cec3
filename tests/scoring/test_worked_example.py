"""The worked example of the Workbench issue, from the APEX-Voice definitions.

A 14-field benefits-enrollment artifact is committed with a valid approval (no
policy violation) but without the required knowledge search and with four
wrong fields, plus "Basic" written for "Vision Basic":
TS pass, PV pass, AC fail, AV fail; AFA 9/14 with no judge and 10/14 with a
judge cache that accepts "Basic" for "Vision Basic". These are the paper's
definitions, so the episode is scored exempt from duplexbench's provenance rule:
the agent writes every value before the caller says any, and under the rule
(docs/metrics.md, "Unsupported values") those values count wrong too.
"""

from __future__ import annotations

from pathlib import Path

from duplexbench.items._grading import GraderSpec
from duplexbench.scoring._judge import FieldJudge, JudgeCache
from support.fixtures import fixture_item
from support.helpers import run_and_score
from support.worked_example import cache_line, flawed_agent


def test_without_judge() -> None:
    item = fixture_item("benefits-enrollment")
    _, score = run_and_score(item, flawed_agent(), exempt=True)
    assert score.status == "ok"
    assert score.gates == {"TS": True, "PV": True, "AC": False, "AV": False}
    assert score.ws == 0
    assert score.afa is not None
    assert (score.afa.correct, score.afa.total) == (9, 14)
    wrong = sorted(f.field for f in score.fields if not f.correct)
    assert wrong == [
        "beneficiary",
        "dependents",
        "effective_date",
        "monthly_premium",
        "vision_plan",
    ]
    failed_ac = [c.name for c in score.checks if c.gate == "AC" and not c.passed]
    assert failed_ac == ["evidence benefit-rates-2026", "evidence enrollment-policy"]


def test_under_the_provenance_rule_values_said_by_nobody_yet_are_wrong() -> None:
    item = fixture_item("benefits-enrollment")
    _, score = run_and_score(item, flawed_agent())
    assert score.afa is not None and score.provenance is not None
    guessed = {f.field for f in score.fields if f.unsupported}
    assert len(guessed) == score.provenance.unsupported == 9 - score.afa.correct
    assert all(f.cause == "unsupported" for f in score.fields if f.unsupported)


def test_with_judge_cache(tmp_path: Path) -> None:
    item = fixture_item("benefits-enrollment")
    enum = GraderSpec(name="enum", options={"values": ["Vision Basic", "Vision Plus", "None"]})
    date = GraderSpec(name="date")
    cache = tmp_path / "cache.jsonl"
    cache.write_text(
        cache_line("enrollment.vision_plan", enum, "Basic", "Vision Basic")
        + "\n"
        # dates never escalate: this verdict must be ignored
        + cache_line("enrollment.effective_date", date, "2026-03-10", "2026-04-01")
        + "\n"
    )
    judge = FieldJudge("judge-x", JudgeCache(cache))
    _, score = run_and_score(item, flawed_agent(), judge, exempt=True)
    assert score.gates == {"TS": True, "PV": True, "AC": False, "AV": False}
    assert score.afa is not None
    assert (score.afa.correct, score.afa.correct_deterministic, score.afa.total) == (10, 9, 14)
    vision = next(f for f in score.fields if f.field == "vision_plan")
    assert vision.judged is True and vision.score == 1.0 and vision.deterministic_score == 0.0
    assert judge.hits == 1
    # monthly_premium (numeric) and beneficiary (casefold) escalated and missed the cache
    assert judge.misses == 2
