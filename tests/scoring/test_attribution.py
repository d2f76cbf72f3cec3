"""Failure attribution: one cause per wrong field, from the trace (docs/metrics.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from duplexbench.agents import AgentToolCall, AgentTurn, ScriptedAgent
from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._model import RunOptions
from duplexbench.campaign._runner import run_campaign
from duplexbench.items._load import load_item
from duplexbench.items._user import Fact
from duplexbench.items._workflow import WorkflowItem
from duplexbench.scoring._attribution import (
    MISHEARD_MAX_DISTANCE,
    attribution_block,
    distance,
    heard_intact,
    misheard,
    other_values,
)
from duplexbench.scoring._episode import EpisodeScore, score_episode
from duplexbench.scoring._summary import build_summary
from duplexbench.scoring.summary_models import WorkflowRunSummary, parse_summary
from duplexbench.suites._package import DATA
from duplexbench.trace._events import AgentUtterance, EpisodeStart, TraceEvent
from duplexbench.trace._io import read_events, write_events
from support.fixtures import FIXTURES, fixture_item
from support.helpers import run_episode

SCHEMA = Path(__file__).parents[2] / "docs" / "formats" / "summary.schema.json"
V2 = DATA / "workflows-v2"


def T(say: str = "", *calls: tuple[str, dict[str, Any]], end: bool = False) -> AgentTurn:
    return AgentTurn(say, tuple(AgentToolCall(n, a) for n, a in calls), end)


def as_audio(events: list[TraceEvent]) -> list[TraceEvent]:
    """The same trace with `episode.start` on the audio channel."""
    first = events[0]
    assert isinstance(first, EpisodeStart)
    data = first.data.model_copy(update={"channel": "audio"})
    return [first.model_copy(update={"data": data}), *events[1:]]


def causes(score: EpisodeScore) -> dict[str, str | None]:
    return {f.field: f.cause for f in score.fields}


def play(item: WorkflowItem, turns: list[AgentTurn]) -> list[TraceEvent]:
    return run_episode(item, ScriptedAgent(turns)).events


# ---------------------------------------------------------------- the threshold


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("Hannah Delacroix", "Hannah DeLackwall"),
        ("EG-5636-AL", "EG-5636-L"),
        ("g.adeyemi@example.com", "g.adamieteexample.com"),
        ("Kwame Nakamura", "Kwayne Nakamura"),
        ("TX-2895-ZF", "TX-2895-CF"),
        ("Summit Learning", "Senate learning"),
    ],
)
def test_close_values_from_real_runs_are_misheard(said: str, written: str) -> None:
    assert distance(written, said) <= MISHEARD_MAX_DISTANCE
    assert misheard(written, Fact(id="f", value=said), set())


def test_the_threshold_has_examples_on_both_sides() -> None:
    assert distance("Hannah DeLackwall", "Hannah Delacroix") == pytest.approx(5 / 16)
    assert distance("05558515", "555-851-5698") == pytest.approx(0.4)  # at the threshold: in
    assert misheard("05558515", Fact(id="f", value="555-851-5698"), set())
    # just above it: an ASR garble too far to call close (counted as wrong_write)
    assert distance("that in McAsilanos", "Fatima Castellanos") > MISHEARD_MAX_DISTANCE
    assert not misheard("that in McAsilanos", Fact(id="f", value="Fatima Castellanos"), set())
    assert distance("Fatima Castellanos", "Summit Learning") > 0.8


def test_the_spoken_form_counts_as_what_was_said() -> None:
    email = Fact(id="f", value="g.adeyemi@example.com", say="g dot adeyemi at example dot com")
    assert misheard("g dot adeyemi at example dot comm", email, set())


def test_another_real_value_is_a_wrong_pick_not_a_mishearing() -> None:
    procurement = load_item(V2 / "procurement-06.yaml")
    [terms] = [s for a in procurement.artifacts for s in a.fields if s.name == "payment_terms"]
    net30 = procurement.user.fact("payment_terms")
    assert net30 is not None and net30.value == "net 30"
    others = other_values(procurement, "purchase.payment_terms", terms, net30)
    assert distance("net 60", "net 30") <= MISHEARD_MAX_DISTANCE  # close, but another option
    assert not misheard("net 60", net30, others)
    form = load_item(V2 / "form-completion-01.yaml")
    [legal] = [s for a in form.artifacts for s in a.fields if s.name == "legal_name"]
    summit = next(f for f in form.user.facts if f.value == "Summit Learning")
    others = other_values(form, "onboarding.legal_name", legal, summit)
    assert "fatimacastellanos" in others  # the contact person's name
    assert not misheard("Fatima Castellanos", summit, others)


def test_what_was_said_with_words_around_it_was_heard() -> None:
    date = Fact(id="d", value="2026-03-17", say="March 17th, 2026")
    assert heard_intact("one moment March 17th, 2026", [date.spoken])
    assert not misheard("one moment March 17th, 2026", date, set())
    email = Fact(id="e", value="m.okafor@example.com", say="m dot okafor at example dot com")
    assert not misheard("M dot okafor at example dot com", email, set())  # not turned into one
    assert not heard_intact("EG-5636-L", ["EG-5636-AL"])


# ---------------------------------------------------------------- causes from traces


def test_never_asked_not_written_and_a_wrong_write() -> None:
    item = fixture_item("form-expense-correction")
    events = play(
        item,
        [
            T("What is your employee ID?"),
            T(
                "Thanks. Goodbye!",
                ("update_expense", {"fields": {"employee_id": "E1043"}}),
                end=True,
            ),
        ],
    )
    text = score_episode(item, events)
    assert causes(text) == {
        "employee_id": "wrong_write",  # said, written wrong: text is never misheard
        "trip_purpose": "not_written",  # volunteered in the opening, never written
        "expense_date": "never_asked",
        "total_amount": "never_asked",
        "cost_center": "never_asked",
    }
    audio = score_episode(item, as_audio(events))
    assert causes(audio)["employee_id"] == "misheard"  # E1043 for E1042: close
    assert {f.cause for f in text.fields if f.correct} == set()


def test_a_question_the_observer_matched_to_nothing() -> None:
    item = fixture_item("form-expense-correction")
    events = play(item, [T("How is the weather over there today?"), T("Goodbye!", end=True)])
    [asked] = [e for e in events if isinstance(e, AgentUtterance) and e.data.unmatched_questions]
    assert asked.data.unmatched_questions == ["How is the weather over there today?"]
    got = causes(score_episode(item, events))
    assert got["employee_id"] == got["cost_center"] == "asked_not_understood"
    assert got["trip_purpose"] == "not_written"  # the caller said it: not the simulator's


def test_a_stale_value_after_a_correction_is_a_wrong_write_even_on_audio() -> None:
    item = fixture_item("form-expense-correction")
    events = play(
        item,
        [
            T("And what was the total amount?"),
            T(
                "Got it, I have 240 dollars as the total for this trip.",
                ("update_expense", {"fields": {"total_amount": 240}}),
            ),
            T("Thanks, goodbye!", end=True),
        ],
    )
    for trace in (events, as_audio(events)):
        [total] = [f for f in score_episode(item, trace).fields if f.field == "total_amount"]
        assert total.stale and total.cause == "wrong_write"


def test_values_the_agent_must_look_up_are_never_the_callers() -> None:
    item = fixture_item("benefits-enrollment")
    assert item.gold.provenance["enrollment.effective_date"].startswith("computed:")
    events = play(
        item,
        [T("Goodbye!", ("update_enrollment", {"fields": {"monthly_premium": 100}}), end=True)],
    )
    for trace in (events, as_audio(events)):
        got = causes(score_episode(item, trace))
        assert got["monthly_premium"] == "wrong_write"  # no fact: the agent had the source
        assert got["effective_date"] == "not_written"  # computed from a document
        assert got["employee_name"] == "not_written"  # volunteered in the opening
        assert got["date_of_birth"] == "never_asked"


def test_an_old_trace_without_unmatched_questions_still_scores(tmp_path: Path) -> None:
    item = fixture_item("form-expense-correction")
    events = play(item, [T("How is the weather over there today?"), T("Goodbye!", end=True)])
    path = tmp_path / "events.jsonl"
    write_events(path, events)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for line in lines:
        line["data"].pop("unmatched_questions", None)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    old = read_events(path)
    assert all(not e.data.unmatched_questions for e in old if isinstance(e, AgentUtterance))
    assert causes(score_episode(item, old))["employee_id"] == "never_asked"


# ---------------------------------------------------------------- the summary block


def test_the_summary_counts_causes_and_text_runs_have_no_misheard() -> None:
    item = fixture_item("form-expense-correction")
    turns = [
        T("How is the weather over there today?"),
        T("Goodbye!", ("update_expense", {"fields": {"employee_id": "E1043"}}), end=True),
    ]
    score = score_episode(item, play(item, turns))
    summary = build_summary(
        [score], suite="s", agent="a", condition="text", repeats=1, seed=0, judge=None
    )
    block = summary["workflows"]["attribution"]
    assert block["counts"] == {
        "never_asked": 0,
        "asked_not_understood": 4,
        "wrong_write": 0,
        "not_written": 1,
        "unsupported": 0,
    }
    assert block["wrong_fields"] == 5 and block["simulator_share"] == 0.8
    assert block["shares"]["not_written"] == 0.2


def test_a_wrong_field_without_a_cause_is_not_recorded() -> None:
    assert attribution_block(["wrong_write", None], audio=True) is None
    empty = attribution_block([], audio=True)
    assert empty is not None and empty["simulator_share"] is None and "misheard" in empty["counts"]


def test_the_block_fits_the_published_schema(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_campaign(
        RunOptions(str(FIXTURES), "noop", condition=CONDITIONS["text"], repeats=1, out=out)
    )
    summary = json.loads((out / "summary.json").read_text())
    jsonschema.validate(summary, json.loads(SCHEMA.read_text()))
    parsed = parse_summary(summary)
    assert isinstance(parsed, WorkflowRunSummary) and parsed.workflows.attribution is not None
    assert parsed.workflows.attribution.wrong_fields == parsed.workflows.fields_graded
    del summary["workflows"]["attribution"]  # a summary written before it
    jsonschema.validate(summary, json.loads(SCHEMA.read_text()))
    assert isinstance(parse_summary(summary), WorkflowRunSummary)
