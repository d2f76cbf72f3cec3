"""Floor events derived from the recorded channels; interrupted users; ASR fallback."""

from __future__ import annotations

from typing import Any

from duplexbench.agents._audio_builtin import AudioOracle, EchoAgent
from duplexbench.agents._events import AudioDelta, ResponseDone
from duplexbench.items._load import parse_item
from duplexbench.scoring._episode import score_episode
from duplexbench.speech._bank import SpeechBank
from duplexbench.trace._events import (
    AgentActs,
    AgentUtterance,
    DuplexEventFired,
    FloorOverlap,
    FloorSegment,
    FloorYield,
    UserUtterance,
)
from support.fixtures import fixture_item
from support.helpers import run_audio


def of(events: list[Any], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def test_segments_cover_both_channels() -> None:
    record = run_audio(fixture_item("airline-rebooking"), AudioOracle(), privileged=True)
    segs = of(record.events, FloorSegment)
    users = [s.data for s in segs if s.data.channel == "user"]
    agents = [s.data for s in segs if s.data.channel == "agent"]
    assert users and agents
    for utterance in of(record.events, UserUtterance):
        assert any(utterance.t_ms - 40 <= s.start_ms <= utterance.data.end_ms for s in users)
    assert of(record.events, FloorOverlap) == []  # a polite oracle never overlaps here


def test_an_agent_that_talks_over_the_user_makes_unintended_overlaps() -> None:
    class Interrupter(EchoAgent):
        """Echoes, but starts 200 ms after the user starts, without waiting."""

        def step(self, frame: Any, tool_results: Any) -> Any:
            self.ear.hear(frame)
            if self.ear.vad.speech_ms == 200:
                return [AudioDelta(frame.samples.repeat(100)), ResponseDone()]
            return []

    item = fixture_item("meeting-scheduling")
    record = run_audio(item, Interrupter(), asr=None)
    overlaps = [o.data for o in of(record.events, FloorOverlap)]
    assert any(o.initiator == "agent" and o.barge_in is None for o in overlaps)
    score = score_episode(item, record.events)
    assert score.floor is not None and score.floor.unintended_overlaps >= 1


def test_agent_audio_without_transcript_is_read_by_asr() -> None:
    # a line tiny.en hears right with both encodings ("What date should the meeting be
    # on?" came back "What they should ..." trimmed, "... be gone?" on the full window)
    question = SpeechBank().clip("What is the meeting date?", "piper:joe").samples

    class Untranscribed(EchoAgent):
        said = False

        def step(self, frame: Any, tool_results: Any) -> Any:
            self.ear.hear(frame)
            if self.ear.turn_is_mine(frame.t_ms) and not self.said:
                self.said = True
                self.ear.spoke(frame.t_ms, 20, len(question))
                return [AudioDelta(question), ResponseDone()]
            return []

    record = run_audio(fixture_item("meeting-scheduling"), Untranscribed())
    [said] = of(record.events, AgentUtterance)
    assert said.data.transcribed and "date" in said.data.text.lower()
    acts = [a for e in of(record.events, AgentActs) for a in e.data.acts]
    assert "ASK:meeting_date" in acts
    answers = [
        u for u in of(record.events, UserUtterance) if "answer:meeting_date" in u.data.plan_ids
    ]
    assert answers and answers[0].t_ms > said.data.end_ms  # heard only after it was read


def _with_backchannel(name: str) -> Any:
    """The fixture with a backchannel ("mm-hm") 1.8 s into the agent's first turn."""
    data = fixture_item(name).model_dump(mode="json", exclude_none=True)
    data["reference"]["turns"][0]["say"] = (
        "Sure, I can help you with that today, and I will take the details down as we "
        "go. " + data["reference"]["turns"][0]["say"]
    )
    data["user"]["events"].append(
        {
            "id": "listening",
            "kind": "backchannel",
            "trigger": {"after_plan": "open", "offset_ms": 1800},
            "delivery": "barge_in",
            "expected_floor_action": "continue",
        }
    )
    data["user"]["realizations"]["event:listening"] = ["Mm-hm, okay.", "Right, okay."]
    return parse_item(data, name)


def test_the_oracle_keeps_the_floor_through_a_backchannel() -> None:
    """Regression: the oracle used to yield to a backchannel and then mistook the
    user's acknowledgement for an answer (the reference's next `expect` failed)."""
    item = _with_backchannel("order-revocation")
    record = run_audio(item, AudioOracle(), privileged=True)
    assert record.error is None
    fired = [e.data.event_id for e in of(record.events, DuplexEventFired)]
    assert "listening" in fired
    # a backchannel asks the agent to continue: it is not a barge-in to yield to
    assert "listening" not in [y.data.event_id for y in of(record.events, FloorYield)]
    first = of(record.events, AgentUtterance)[0].data
    assert not first.truncated
    # talking on through the backchannel is caused by it, not an unintended overlap
    overlaps = [o.data for o in of(record.events, FloorOverlap)]
    assert overlaps and all(o.barge_in is not None for o in overlaps)
    assert score_episode(item, record.events).ws == 1
