"""tau2-bench trajectory reader: structure and hand-checked values.

Agreement with tau2-bench's own numbers (its expected_metrics.json, vendored beside
the experiment) is pinned in test_tau2_parity.py; here the reader's segments and
hand-counted values on one trajectory.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from duplexbench.scoring._interaction import (
    experiment_metrics,
    interaction_metrics,
    read_simulation,
    ticks_to_timeline,
)
from duplexbench.scoring._interaction.tau2 import experiment_tick_seconds

PEER = Path(__file__).resolve().parents[2] / "fixtures/tau2/interaction-metrics/experiment"
SIM = PEER / "simulations/49b22f0c-4a56-41c5-922f-bc2a56e53a23.json"
needs_peer = pytest.mark.skipif(not SIM.is_file(), reason="tau2 peer data not present")


def tick(
    user: bool = False,
    agent: bool = False,
    action: str | None = None,
    insert: str | None = None,
    source: bool = False,
) -> dict[str, Any]:
    effects = {"speech_insert": {"text": "x", "type": insert}} if insert else None
    return {
        "agent_chunk": {"contains_speech": agent},
        "user_chunk": {
            "contains_speech": user,
            "turn_taking_action": {"action": action} if action else None,
            "speech_effects": None if source else effects,
            "source_effects": effects if source else None,
        },
    }


def test_ticks_to_segments_and_kinds() -> None:
    ticks = (
        [tick(agent=True)] * 3
        + [tick(user=True, agent=True, action="backchannel", insert="vocal_tic")] * 2
        + [tick(agent=True)]
        + [tick(insert="non_directed_phrase", source=True)]
        + [tick()]
        + [tick(user=True, insert="vocal_tic")] * 2
        + [tick(user=True)] * 2
    )
    tl = ticks_to_timeline(ticks)
    assert tl.end_ms == pytest.approx(2400)
    assert tl.tick_ms == pytest.approx(200)
    assert [(s.start_ms, s.end_ms) for s in tl.agent] == [(0, 1200)]
    user = [(round(s.start_ms), round(s.end_ms), s.kind) for s in tl.user]
    assert user == [
        (600, 1000, "backchannel"),
        (1200, 1400, "non_directed"),
        (1600, 2400, "vocal_tic"),
    ]
    assert [(sorted(s.inserts), s.out_of_turn) for s in tl.user] == [
        (["vocal_tic"], False),
        ([], True),
        (["vocal_tic"], False),
    ]


def test_out_of_turn_runs_split_by_insert_text() -> None:
    cough = {"speech_insert": {"text": "cough", "type": "vocal_tic"}}
    sniff = {"speech_insert": {"text": "sniff", "type": "vocal_tic"}}
    ticks = [tick(), tick(), tick()]
    ticks[0]["user_chunk"]["speech_effects"] = cough
    ticks[1]["user_chunk"]["speech_effects"] = cough
    ticks[2]["user_chunk"]["speech_effects"] = sniff
    ticks[2]["user_chunk"]["source_effects"] = sniff  # the same insert twice: two effects
    runs = [(round(s.start_ms), round(s.end_ms), s.text) for s in ticks_to_timeline(ticks).user]
    assert sorted(runs) == [(0, 400, "cough"), (400, 600, "sniff"), (400, 600, "sniff")]


@needs_peer
def test_experiment_tick_and_structure() -> None:
    assert experiment_tick_seconds(PEER) == pytest.approx(0.2)
    tl = read_simulation(SIM)
    raw = json.loads(SIM.read_text())["ticks"]
    assert tl.end_ms == pytest.approx(len(raw) * 200)
    speech_ticks = sum(t["agent_chunk"]["contains_speech"] for t in raw)
    assert sum(s.duration_ms for s in tl.agent) == pytest.approx(speech_ticks * 200)


@needs_peer
def test_hand_checked_values_one_trajectory() -> None:
    """49b22f0c: backchannel at tick 679 during agent speech; inserts at ticks
    162, 188 (non-directed, agent speaking), 296 (tic, agent speaking), 303 (tic,
    silence); final tick is a 1-tick user artifact."""
    tl = read_simulation(SIM)
    kinds = {(round(s.start_ms / 200), s.kind) for s in tl.user if s.kind != "turn"}
    assert kinds == {
        (679, "backchannel"),
        (162, "non_directed"),
        (188, "non_directed"),
        (296, "vocal_tic"),
        (303, "vocal_tic"),
    }
    c = interaction_metrics([tl])["counts"]
    assert c["backchannel_total"] == 1 and c["backchannel_error"] == 0
    assert c["vocal_tic_total"] == 2 and c["non_directed_total"] == 2
    assert c["response_total"] == 8 and c["no_response"] == 0
    assert c["yield_total"] == 5 and c["agent_interrupts_count"] == 2


@needs_peer
def test_experiment_panel_pools_all_three() -> None:
    """Default (tau2 rules): values behind < 10 events are kept but flagged."""
    m = experiment_metrics(PEER)
    assert m["counts"]["n_timelines"] == 3
    assert m["counts"]["response_total"] == 35
    assert m["response_rate"]["value"] == pytest.approx(34 / 35)
    assert m["yield_rate"]["value"] == pytest.approx(1.0)
    assert m["selectivity_backchannel"] == {
        "value": pytest.approx(1 / 3),
        "count": 3,
        "insufficient": True,
    }


@needs_peer
def test_experiment_panel_duplexbench_rules() -> None:
    """Our rules on the same trajectories (measured; see docs/metrics.md for why)."""
    m = experiment_metrics(PEER, rules="duplexbench")
    c = m["counts"]
    assert (c["response_total"], c["no_response"]) == (33, 1)
    assert m["response_latency"]["value"] == pytest.approx(1.44375)
    assert (c["yield_total"], c["no_yield"], c["agent_interrupts_count"]) == (23, 0, 8)
    assert (c["vocal_tic_total"], c["vocal_tic_error"]) == (8, 6)
    assert (c["non_directed_total"], c["non_directed_error"]) == (7, 5)
    assert (c["backchannel_total"], c["backchannel_error"]) == (3, 2)
    assert m["selectivity_backchannel"]["value"] is None
    assert m["selectivity"]["value"] is None
