"""Floor control, correction uptake and time-to-resolution aggregates."""

from __future__ import annotations

from duplexbench.agents import AgentToolCall, AgentTurn, ScriptedAgent
from duplexbench.agents._builtin import OracleAgent
from duplexbench.scoring._episode import Afa, EpisodeScore
from duplexbench.scoring._fields import FieldScore
from duplexbench.scoring._floor_control import (
    FloorScore,
    correction_block,
    floor_block,
    timing_block,
)
from support.fixtures import fixture_item
from support.helpers import run_and_score


def field(name: str, correct: bool, corrected: bool) -> FieldScore:
    score = 1.0 if correct else 0.0
    return FieldScore(
        artifact="a",
        field=name,
        grader="exact",
        gold=1,
        predicted=1 if correct else 2,
        score=score,
        deterministic_score=score,
        correction_linked=corrected,
    )


def episode(av: bool, fields: list[FieldScore], **kw: object) -> EpisodeScore:
    return EpisodeScore(
        item_id="i",
        repetition=0,
        status="ok",
        ws=int(av),
        ws_deterministic=int(av),
        gates={"TS": True, "PV": True, "AC": True, "AV": av},
        fields=fields,
        afa=Afa(correct=sum(f.correct for f in fields), correct_deterministic=0, total=len(fields)),
        **kw,
    )


def test_floor_block_pools_barge_ins_and_turns() -> None:
    scores = [
        episode(
            True,
            [],
            floor=FloorScore(
                barge_ins=2,
                yields=2,
                stop_latencies_ms=[100, 300],
                overlaps=2,
                unintended_overlaps=0,
                agent_turns=10,
            ),
        ),
        episode(
            True,
            [],
            floor=FloorScore(
                barge_ins=2,
                yields=0,
                ended_naturally=1,
                stop_latencies_ms=[200, 2500],
                overlaps=3,
                unintended_overlaps=2,
                agent_turns=10,
            ),
        ),
    ]
    block = floor_block(scores)
    assert block == {
        "yield_rate": 0.5,
        "ended_naturally_rate": 0.25,
        "ended_naturally": 1,
        "barge_ins": 4,
        "median_stop_latency_ms": 250.0,
        "unintended_overlap_rate": 0.1,
        "unintended_overlaps": 2,
        "agent_turns": 20,
    }
    assert floor_block([episode(True, [])]) is None  # text episodes have no floor


def test_correction_uptake() -> None:
    scores = [
        episode(False, [field("total", False, True), field("name", True, False)]),
        episode(False, [field("total", True, True), field("name", False, False)]),
        episode(True, [field("total", True, True), field("name", True, False)]),
    ]
    block = correction_block(scores)
    assert block["afa_corrected_fields"] == round(2 / 3, 6)
    assert block["afa_other_fields"] == round(2 / 3, 6)
    assert block["gap_points"] == 0.0
    assert block["av_failures"] == 2 and block["av_failures_correction_linked"] == 1
    assert block["correction_linked_share"] == 0.5


def test_time_to_resolution_is_when_the_target_state_first_holds() -> None:
    item = fixture_item("airline-rebooking")
    record, score = run_and_score(item, OracleAgent(), privileged=True)
    write = next(e for e in record.events if e.type == "database.write")
    assert score.time_to_resolution_ms == write.t_ms
    _, failed = run_and_score(item, ScriptedAgent([AgentTurn("Goodbye!", end_call=True)]))
    assert failed.time_to_resolution_ms is None
    block = timing_block([score, failed])
    assert block["median_time_to_resolution_ms"] == write.t_ms
    assert block["median_termination_ms_unsuccessful"] == failed.termination_ms
    early = ScriptedAgent([AgentTurn("x", (AgentToolCall("get_flight", {"id": "DB124"}),))])
    assert run_and_score(item, early)[1].time_to_resolution_ms is None
