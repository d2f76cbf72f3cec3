"""A barge-in is yielded only when the agent cut its speech short (docs/metrics.md).

Scripted agents on a timed barge-in ("Sorry, one more thing." at T0 + 2 s, limit
800 ms) over a tone the agent plays from T0: one that talks on, one whose turn ends
by itself inside the window, one that cancels queued audio, one that streams in
real time and cancels with nothing queued. The audio oracle keeps yield rate 1.0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from duplexbench.agents._audio_builtin import AudioOracle
from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._events import AgentEvent, AudioDelta, ResponseDone, SpeechCancelled
from duplexbench.agents._protocol import ToolResultMessage
from duplexbench.audio._frames import AudioFrame
from duplexbench.items._load import parse_item
from duplexbench.items._workflow import WorkflowItem
from duplexbench.scoring._episode import score_episode
from duplexbench.scoring._floor_control import FloorScore
from duplexbench.scoring._interaction import interaction_metrics
from duplexbench.scoring._interaction.record import timeline_record
from duplexbench.trace._events import AgentUtterance, FloorYield, TraceEvent
from support.fixtures import fixture_item
from support.helpers import run_audio

T0 = 8000
"""When the scripted agents start talking: after the synthetic voice's opening."""
BARGE_IN_MS = T0 + 2000
LIMIT_MS = 800


def tone(ms: int) -> np.ndarray:
    t = np.arange(ms * 16) / 16000
    return (np.sin(2 * np.pi * 220.0 * t) * 0.3 * 32767).astype(np.int16)


def barge_in_item() -> WorkflowItem:
    data = fixture_item("meeting-scheduling").model_dump(mode="json", exclude_none=True)
    data["user"]["events"] = [
        {
            "id": "interject",
            "kind": "barge_in",
            "trigger": {"at_ms": BARGE_IN_MS},
            "delivery": "barge_in",
            "max_stop_latency_ms": LIMIT_MS,
        }
    ]
    data["user"]["realizations"]["event:interject"] = [
        "Sorry, one more thing.",
        "Wait, one more thing.",
    ]
    return parse_item(data)


class Scripted:
    """A step agent: `plan(t_ms)` gives the events to send at media time t_ms."""

    def __init__(self, plan: Callable[[int], Sequence[AgentEvent]]) -> None:
        self.plan = plan

    def start(self, session: AudioSession) -> None:
        return None

    def step(self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]) -> Any:
        return self.plan(frame.t_ms)

    def close(self) -> None:
        return None


def at(events: dict[int, Sequence[AgentEvent]]) -> Scripted:
    return Scripted(lambda t: events.get(t, ()))


def run(agent: Scripted) -> tuple[list[TraceEvent], FloorScore]:
    item = barge_in_item()
    record = run_audio(item, agent, asr=None, time_limit_ms=40_000)
    assert record.error is None
    score = score_episode(item, record.events)
    assert score.floor is not None and score.floor.barge_ins == 1
    return record.events, score.floor


def the_yield(events: list[TraceEvent]) -> FloorYield:
    [y] = [e for e in events if isinstance(e, FloorYield)]
    return y


def test_an_agent_that_never_stops_talking_gets_no_yield() -> None:
    """It streams speech frame after frame, straight through the barge-in."""
    frame = tone(20)
    never_stops = Scripted(lambda t: [AudioDelta(frame)] if t >= T0 else [])
    events, floor = run(never_stops)
    assert (floor.yields, floor.ended_naturally) == (0, 0)
    y = the_yield(events).data
    assert not y.yielded and y.ended_naturally is False
    assert y.stop_latency_ms > LIMIT_MS


def test_a_turn_that_ends_by_itself_in_the_window_ended_naturally() -> None:
    """The issue's case: no barge-in handling, the turn simply ended inside the window
    (it used to be credited as a yield)."""
    ends_by_itself = at({T0: [AudioDelta(tone(2300)), ResponseDone()]})
    events, floor = run(ends_by_itself)
    y = the_yield(events).data
    assert y.stop_latency_ms <= LIMIT_MS  # in time...
    assert (floor.yields, floor.ended_naturally) == (0, 1)  # ...but not a yield
    assert not y.yielded and y.ended_naturally is True


def test_cancelling_queued_speech_in_the_window_is_a_yield() -> None:
    cuts = at(
        {T0: [AudioDelta(tone(6000)), ResponseDone()], BARGE_IN_MS + 300: [SpeechCancelled()]}
    )
    events, floor = run(cuts)
    assert (floor.yields, floor.ended_naturally) == (1, 0)
    assert the_yield(events).data.yielded
    turn = next(e.data for e in events if isinstance(e, AgentUtterance))
    assert turn.truncated and turn.cancelled


def test_a_real_time_stream_cancelled_with_nothing_queued_is_a_yield() -> None:
    """Nothing is left to drop (the agent sends each frame as it is played), so only the
    recorded cancel tells the stop from a natural end."""
    frame = tone(20)
    stop = BARGE_IN_MS + 300

    def plan(t: int) -> Sequence[AgentEvent]:
        if t == stop:
            return [SpeechCancelled()]
        return [AudioDelta(frame)] if T0 <= t < stop else []

    events, floor = run(Scripted(plan))
    turn = next(e.data for e in events if isinstance(e, AgentUtterance))
    assert turn.cancelled and not turn.truncated
    assert (floor.yields, floor.ended_naturally) == (1, 0)


def test_the_audio_oracle_keeps_yield_rate_one() -> None:
    for name in ("form-expense-correction", "order-revocation"):
        item = fixture_item(name)
        record = run_audio(item, AudioOracle(), privileged=True)
        score = score_episode(item, record.events)
        assert score.floor is not None and score.floor.barge_ins >= 1, name
        assert score.floor.yields == score.floor.barge_ins, name
        assert score.floor.ended_naturally == 0, name


def test_traces_recorded_before_the_rule_are_scored_by_it() -> None:
    """An old `floor.yield` said `yielded` for any turn that ended in time; the scorer
    re-applies the rule to the trace's `agent.utterance` events."""
    item = barge_in_item()
    events, _ = run(at({T0: [AudioDelta(tone(2300)), ResponseDone()]}))
    old: list[TraceEvent] = []
    for e in events:
        if isinstance(e, FloorYield):
            data = e.data.model_copy(update={"yielded": True, "ended_naturally": None})
            old.append(e.model_copy(update={"data": data}))
        else:
            old.append(e)
    floor = score_episode(item, old).floor
    assert floor is not None and (floor.yields, floor.ended_naturally) == (0, 1)


def test_the_tau_voice_panel_applies_the_same_rule() -> None:
    """The episode's timeline records which agent segments were cut short."""
    natural, _ = run(at({T0: [AudioDelta(tone(2300)), ResponseDone()]}))
    cut, _ = run(
        at({T0: [AudioDelta(tone(6000)), ResponseDone()], BARGE_IN_MS + 300: [SpeechCancelled()]})
    )
    for events, yields, ended in ((natural, 0, 1), (cut, 1, 0)):
        record = timeline_record(events)
        assert record is not None and record.agent_cut is not None
        counts = interaction_metrics([record.timeline()])["counts"]
        assert counts["yield_total"] == 1
        assert (counts["yield_total"] - counts["no_yield"] - counts["ended_naturally"]) == yields
        assert counts["ended_naturally"] == ended
