"""Full-Duplex-Bench v1 metrics on action observations."""

from __future__ import annotations

import pytest

from duplexbench.scoring._actions.fdb import fdb_metrics, takeover
from duplexbench.scoring._actions.observation import AgentSegment
from support.action_builders import agent, item, observe, seg, words


@pytest.mark.parametrize(
    ("segs", "tor"),
    [
        ([], 0),
        ([agent(0, 500, "")], 0),  # speech without words
        ([agent(0, 999, "yeah I see")], 0),  # 3 words, < 1 s
        ([agent(0, 1000, "yeah I see")], 1),  # 3 words, 1 s
        ([agent(0, 400, words(4))], 1),  # 4 words
        # three separate one-word backchannels (gaps >= 500 ms): no takeover
        ([agent(0, 300, "yeah"), agent(1000, 1300, "right"), agent(2000, 2300, "okay")], 0),
        # a reply split by VAD at a breath pause is one turn
        ([agent(0, 400, "yes I can"), agent(700, 900, "do that")], 1),
    ],
)
def test_takeover(segs: list[AgentSegment], tor: int) -> None:
    assert takeover(segs) == tor


def test_pause_handling() -> None:
    it = item(
        "wait.intra_sentential_pause",
        [seg(0, 2000, "I was thinking about"), seg(3500, 5000, "a trip to Spain")],
        wait_interval={"start_ms": 2000, "end_ms": 3500},
    )
    assert fdb_metrics(observe(it, [agent(2500, 3000, "mm-hmm")])) == {
        "task": "pause_handling",
        "tor": 0,
    }
    assert fdb_metrics(observe(it, [agent(2500, 4000, words(6))]))["tor"] == 1
    assert fdb_metrics(observe(it, [agent(3500, 6000, words(6))]))["tor"] == 0  # after the pause


def test_continuous_speech_and_other_actions_have_no_fdb_task() -> None:
    whole = {"start_ms": 0, "end_ms": 4000}
    it = item("wait.continuous_speech", [seg(0, 4000)], wait_interval=whole)
    assert fdb_metrics(observe(it, [])) == {}
    interrupt = item("interrupt.help", [seg(0, 6000)], target_point_ms=2000)
    assert fdb_metrics(observe(interrupt, [])) == {}


@pytest.mark.parametrize(
    ("condition", "window", "onset", "latency"),
    [
        ("immediate", [0, 500], 4300, 300),
        ("slight_overlap", [-1000, 500], 3500, 0),  # negative clamped to 0
    ],
)
def test_smooth_turn_taking(condition: str, window: list[int], onset: int, latency: int) -> None:
    it = item(f"take_turn.{condition}", [seg(0, 4000)], user_end_ms=4000, response_window=window)
    m = fdb_metrics(observe(it, [agent(onset, onset + 2000, words(8))]))
    assert m == {"task": "smooth_turn_taking", "tor": 1, "latency_ms": latency}
    none = fdb_metrics(observe(it, [agent(1000, 2000, words(8))]))
    assert none == {"task": "smooth_turn_taking", "tor": 0, "latency_ms": None}


@pytest.mark.parametrize(
    ("condition", "adaptation"), [("stop.direct_interruption", None), ("recover.revise", "revise")]
)
def test_user_interruption_skips_the_interrupted_turn(
    condition: str, adaptation: str | None
) -> None:
    segments = [seg(0, 2000), seg(0, 2000, "no wait", part="cue")]
    it = item(condition, segments, adaptation=adaptation)
    talk = agent(3000, 5600, words(20))
    m = fdb_metrics(observe(it, [talk], cue=(5000, 7000)))
    assert m == {"task": "user_interruption", "tor": 0, "latency_ms": None}
    m = fdb_metrics(observe(it, [talk, agent(7800, 9000, words(6))], cue=(5000, 7000)))
    assert m == {"task": "user_interruption", "tor": 1, "latency_ms": 800}
    assert fdb_metrics(observe(it, [talk])) == {}  # no cue placed


def test_backchannel_frequency() -> None:
    it = item(
        "backchannel.affirmative",
        [seg(0, 4000, "part one of the story"), seg(5000, 9000, "part two of the story")],
        backchannel_span={"start_ms": 0, "end_ms": 9000},
    )
    segs = [
        agent(1000, 1300, "yeah"),
        agent(6000, 6400, "uh-huh right"),
        agent(9500, 12_000, words(8)),  # after the user speech: not counted
    ]
    m = fdb_metrics(observe(it, segs))
    assert m == {"task": "backchannel", "tor": 0, "backchannel_per_s": 0.25}
    took_over = fdb_metrics(observe(it, [agent(2000, 4000, words(8))]))
    assert took_over["tor"] == 1 and took_over["backchannel_per_s"] == 0.0
