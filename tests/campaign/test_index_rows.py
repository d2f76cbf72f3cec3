"""Typed index rows give the summary's numbers through the summary's own functions."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplexbench.campaign._index_rows import ActionRow, FieldRow, WorkflowRow, episode_rows
from duplexbench.campaign._store import StoreError, index_path
from duplexbench.campaign._store_rows import (
    DDL,
    EPISODE_COLUMNS,
    KEY,
    episode_row,
    field_rows,
    insert_sql,
)
from duplexbench.scoring._actions.result import ActionScore
from duplexbench.scoring._actions.summary import action_block
from duplexbench.scoring._episode import Afa, EpisodeScore
from duplexbench.scoring._fields import FieldScore
from duplexbench.scoring._floor_control import (
    FloorScore,
    correction_block,
    floor_block,
    timing_block,
)
from duplexbench.scoring._outcomes import item_runs, per_task_afa, per_task_success
from duplexbench.scoring._reliability import reliability

RUN = {"agent": "a", "condition": "clean", "suite": "s"}


def workflow_row(score: EpisodeScore) -> WorkflowRow:
    """What the report reads back: the stored columns, fields attached."""
    data = json.loads(score.model_dump_json())
    row = episode_row({**RUN, "family": "workflow"}, "p", data, "{}", None)
    key = ("a", "clean", score.item_id, score.repetition)
    names = [c for c in FieldRow.model_fields if c not in (*KEY, "position")]
    fields = [
        FieldRow.model_validate(dict(zip([*KEY, "position", *names], r, strict=True)))
        for r in field_rows(key, data)
    ]
    columns = {c: row[c] for c in WorkflowRow.columns()}
    return WorkflowRow.model_validate({**columns, "fields": tuple(fields)})


def action_row(score: ActionScore) -> ActionRow:
    row = episode_row(
        {**RUN, "family": "action"}, "p", json.loads(score.model_dump_json()), "", None
    )
    return ActionRow.model_validate({c: row[c] for c in ActionRow.columns()})


def field(correct: bool, linked: bool) -> FieldScore:
    value = 1.0 if correct else 0.0
    return FieldScore(
        artifact="a",
        field="f",
        grader="exact",
        gold=1,
        predicted=1,
        score=value,
        deterministic_score=value,
        correction_linked=linked,
    )


@st.composite
def episode_scores(draw: st.DrawFn) -> EpisodeScore:
    fields = draw(st.lists(st.builds(field, st.booleans(), st.booleans()), max_size=4))
    ws, ws_det = draw(st.integers(0, 1)), draw(st.integers(0, 1))
    floor = draw(
        st.none()
        | st.builds(
            FloorScore,
            barge_ins=st.integers(0, 3),
            yields=st.integers(0, 3),
            ended_naturally=st.integers(0, 3),
            stop_latencies_ms=st.lists(st.integers(0, 3000), max_size=3),
            overlaps=st.integers(0, 3),
            unintended_overlaps=st.integers(0, 3),
            agent_turns=st.integers(0, 9),
        )
    )
    correct = sum(f.correct for f in fields)
    return EpisodeScore(
        item_id=draw(st.sampled_from(["i1", "i2", "i3"])),
        repetition=draw(st.integers(0, 5)),
        status=draw(st.sampled_from(["ok", "ok", "ok", "error"])),
        ws=ws,
        ws_deterministic=ws_det,
        gates={"TS": True, "PV": bool(ws), "AC": True, "AV": draw(st.booleans())},
        fields=fields,
        afa=Afa(correct=correct, correct_deterministic=min(correct, 1), total=len(fields)),
        termination_ms=draw(st.integers(0, 90_000)),
        time_to_resolution_ms=draw(st.none() | st.integers(1, 90_000)),
        floor=floor,
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(episode_scores(), max_size=8))
def test_workflow_blocks_over_rows_equal_those_over_scores(scores: list[EpisodeScore]) -> None:
    rows = [workflow_row(s) for s in scores]
    assert floor_block(rows) == floor_block(scores)
    assert timing_block(rows) == timing_block(scores)
    assert correction_block(rows) == correction_block(scores)
    for det in (False, True):
        assert reliability(item_runs(rows, det), seed=3) == reliability(
            item_runs(scores, det), seed=3
        )
    assert per_task_success(rows) == per_task_success(scores)
    assert per_task_afa(rows) == per_task_afa(scores)


def test_a_row_keeps_the_barge_ins_whose_turn_ended_naturally() -> None:
    """The report's floor table once read 0 here: the index had no such column."""
    floor = FloorScore(barge_ins=4, yields=1, ended_naturally=3, agent_turns=5)
    score = EpisodeScore(item_id="i", repetition=0, status="ok", ws=1, floor=floor)
    block = floor_block([workflow_row(score)])
    assert block is not None
    assert (block["ended_naturally"], block["ended_naturally_rate"]) == (3, 0.75)


def _index_with(run_dir: Path, family: str, result: dict[str, Any]) -> None:
    """An index holding one episode row made from `result` (keys left out are NULL)."""
    conn = sqlite3.connect(index_path(run_dir))
    for statement in DDL:
        conn.execute(statement)
    row = episode_row({**RUN, "family": family}, "p", result, "{}", None)
    conn.execute(insert_sql("episodes", EPISODE_COLUMNS), [row[c] for c, _ in EPISODE_COLUMNS])
    conn.commit()
    conn.close()


@pytest.mark.parametrize("family", ["workflow", "action"])
def test_null_columns_read_as_the_score_s_defaults(tmp_path: Path, family: str) -> None:
    _index_with(tmp_path, family, {"item_id": "i", "repetition": 0})
    [row] = episode_rows(tmp_path, family)
    assert (row.status, row.error) == ("", None)
    if isinstance(row, WorkflowRow):
        assert (row.end_reason, row.gates, row.afa, row.floor, row.fields) == (
            "",
            {},
            None,
            None,
            (),
        )
    else:
        assert isinstance(row, ActionRow)
        assert (row.fdb, row.cue_forced, row.action_condition, row.immediate) == (
            {},
            False,
            "",
            None,
        )


def test_a_row_this_version_cannot_read_is_a_store_error(tmp_path: Path) -> None:
    _index_with(tmp_path, "action", {"item_id": "i", "repetition": 0})
    conn = sqlite3.connect(index_path(tmp_path))
    conn.execute("UPDATE episodes SET timing_ms = 'soon'")  # not an integer
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="an index row this version cannot read"):
        episode_rows(tmp_path, "action")


def test_a_result_before_the_deterministic_tier_reads_as_judge_assisted(tmp_path: Path) -> None:
    old = {"item_id": "i", "repetition": 0, "status": "ok", "ws": 1}
    _index_with(tmp_path, "workflow", {**old, "afa": {"correct": 2, "total": 3}})
    [row] = episode_rows(tmp_path, "workflow")
    assert isinstance(row, WorkflowRow)
    assert row.ws_deterministic == 1
    assert row.afa == Afa(correct=2, correct_deterministic=2, total=3)


@st.composite
def action_scores(draw: st.DrawFn) -> ActionScore:
    immediate = draw(st.none() | st.booleans())
    source = draw(st.sampled_from([None, "rule", "heuristic", "judge"]))
    action, condition = draw(
        st.sampled_from(
            [("stop", "direct_interruption"), ("wait", "continuous_speech"), ("recover", "enrich")]
        )
    )
    fdb: dict[str, float | int | str | None] = {}
    if draw(st.booleans()):
        fdb = {"task": "user_interruption", "tor": draw(st.integers(0, 1)), "latency_ms": 420.0}
    return ActionScore(
        item_id=draw(st.sampled_from(["a1", "a2"])),
        repetition=draw(st.integers(0, 3)),
        status=draw(st.sampled_from(["ok", "ok", "error"])),
        condition=f"{action}.{condition}",
        action=action,
        scenario=draw(st.sampled_from(["customer_service", "meeting"])),
        immediate=immediate,
        follow_through=draw(st.none() | st.booleans()),
        follow_through_source=source,
        heuristic_follow_through=draw(st.none() | st.booleans()),
        judge_follow_through=draw(st.none() | st.booleans()),
        timing_ms=draw(st.none() | st.integers(-500, 3000)),
        cue_forced=draw(st.booleans()),
        transcribed=draw(st.booleans()),
        fdb=fdb,
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(action_scores(), max_size=10))
def test_the_actions_block_over_rows_equals_the_one_over_scores(scores: list[ActionScore]) -> None:
    rows = [action_row(s) for s in scores]
    assert action_block(rows) == action_block(scores)
    assert [r.deterministic_follow_through for r in rows] == [
        s.deterministic_follow_through for s in scores
    ]


@pytest.mark.parametrize("score", [0.0, 0.5, 0.999, 1.0])
def test_a_field_row_is_correct_exactly_when_its_score_is(score: float) -> None:
    """One rule (`scoring.fields.field_correct`): a partial grade is not correct."""
    graded = FieldScore(
        artifact="a",
        field="f",
        grader="exact",
        gold=1,
        predicted=1,
        score=score,
        deterministic_score=score,
    )
    row = FieldRow(agent="a", condition="clean", item_id="i", repetition=0, position=0, score=score)
    assert row.correct == graded.correct == graded.correct_deterministic == (score == 1.0)
