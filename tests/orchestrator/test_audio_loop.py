"""The full-duplex audio loop: framing, playback, truncation, flush, timing of effects."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import pytest

from duplexbench.agents._audio_builtin import AudioOracle, SilentAgent
from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._events import (
    AgentEvent,
    AudioDelta,
    EndCall,
    ResponseDone,
    SpeechCancelled,
    ToolCallRequest,
    TranscriptDelta,
)
from duplexbench.agents._protocol import ToolResultMessage
from duplexbench.audio._frames import AudioFrame
from duplexbench.audio._pcm import sha256_pcm
from duplexbench.items._load import parse_item
from duplexbench.orchestrator._audio_loop import AudioChannelConfig
from duplexbench.scoring._episode import score_episode
from duplexbench.trace._events import (
    ActionBlocked,
    AgentActs,
    AgentTruncated,
    AgentUtterance,
    ApprovalGranted,
    ApprovalRevoked,
    EpisodeAudio,
    UserUtterance,
)
from support.fixtures import fixture_item
from support.helpers import run_audio

NAMES = [
    "form-expense-correction",
    "order-revocation",
    "benefits-enrollment",
    "airline-rebooking",
    "meeting-scheduling",
]


T0 = 8000
"""When scripted agents start talking: after the synthetic voice's opening (about 5 s)."""


def of(events: list[Any], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def tone(ms: int, freq: float = 220.0, level: float = 0.3) -> np.ndarray:
    t = np.arange(ms * 16) / 16000
    return (np.sin(2 * np.pi * freq * t) * level * 32767).astype(np.int16)


class Scripted:
    """A step agent that emits given events at given media times (ms)."""

    def __init__(self, at: dict[int, Sequence[AgentEvent]]) -> None:
        self.at = at
        self.results: list[ToolResultMessage] = []

    def start(self, session: AudioSession) -> None:
        self.frame_ms = session.frame_ms

    def step(self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]) -> Any:
        self.results += tool_results
        return self.at.get(frame.t_ms, ())

    def close(self) -> None:
        return None


@pytest.mark.parametrize("frame_ms", [20, 40, 200])
def test_oracle_passes_at_every_frame_size(frame_ms: int) -> None:
    item = fixture_item("order-revocation")
    record = run_audio(item, AudioOracle(), privileged=True, frame_ms=frame_ms)
    assert record.status == "ok", record.error
    score = score_episode(item, record.events)
    assert score.ws == 1, [c for c in score.checks if not c.passed]
    assert record.audio is not None
    user, agent = record.audio
    assert len(user) == len(agent) and len(user) % (frame_ms * 16) == 0
    [audio] = of(record.events, EpisodeAudio)
    assert audio.data.frame_ms == frame_ms
    assert audio.data.user_sha256 == sha256_pcm(user)


@pytest.mark.parametrize("name", NAMES)
def test_oracle_passes_every_fixture_in_audio(name: str) -> None:
    item = fixture_item(name)
    record = run_audio(item, AudioOracle(), privileged=True)
    score = score_episode(item, record.events)
    assert score.ws == 1, [c for c in score.checks if not c.passed]


def test_silent_agent_fails_and_the_user_hangs_up() -> None:
    item = fixture_item("meeting-scheduling")
    record = run_audio(item, SilentAgent())
    assert record.end_reason == "agent_idle"
    nudges = [e for e in of(record.events, UserUtterance) if "nudge" in e.data.plan_ids]
    assert len(nudges) == 2
    assert score_episode(item, record.events).ws == 0


def test_same_seeds_same_user_channel_and_other_seeds_differ() -> None:
    item = fixture_item("form-expense-correction")

    def user_hash(repetition: int) -> str:
        record = run_audio(item, AudioOracle(), privileged=True, repetition=repetition)
        assert record.audio is not None
        return sha256_pcm(record.audio[0])

    assert user_hash(0) == user_hash(0)
    assert len({user_hash(r) for r in range(4)}) > 1


def test_cancel_drops_what_was_not_played() -> None:
    speech = tone(3000)
    agent = Scripted(
        {
            T0: [
                TranscriptDelta("one two three four five six"),
                AudioDelta(speech),
                ResponseDone(),
            ],
            T0 + 1000: [SpeechCancelled()],
        }
    )
    record = run_audio(fixture_item("meeting-scheduling"), agent)
    [cut] = of(record.events, AgentTruncated)
    # the agent acts at the end of the frame it heard: queued at T0 + 20 and played from
    # there; cut at T0 + 1020: 1000 ms played, 2000 ms dropped
    assert cut.t_ms == T0 + 1020 and cut.data.dropped_ms == 2000
    assert cut.data.unheard_text.split() == ["three", "four", "five", "six"]
    [said] = of(record.events, AgentUtterance)
    assert said.data.truncated and said.data.text == "one two"
    assert record.audio is not None
    agent_channel = record.audio[1]
    assert np.array_equal(agent_channel[(T0 + 20) * 16 : (T0 + 1020) * 16], speech[: 1000 * 16])
    assert np.abs(agent_channel[(T0 + 1020) * 16 : (T0 + 3000) * 16]).max() == 0


def test_final_agent_audio_is_flushed_not_clipped() -> None:
    speech = tone(5000)
    agent = Scripted({T0: [AudioDelta(speech), ResponseDone(), EndCall()]})
    record = run_audio(fixture_item("meeting-scheduling"), agent)
    assert record.end_reason == "agent_ended"
    assert record.audio is not None
    agent_channel = record.audio[1]
    delivered = agent_channel[(T0 + 20) * 16 : (T0 + 20) * 16 + len(speech)]
    assert np.array_equal(delivered, speech)


def test_user_hangup_flushes_queued_agent_audio() -> None:
    item = fixture_item("meeting-scheduling")
    # answers with a goodbye (CLOSE), then queues 20 s more audio at once
    agent = Scripted(
        {
            T0: [TranscriptDelta("Goodbye!"), AudioDelta(tone(800)), ResponseDone()],
            T0 + 1000: [AudioDelta(tone(20_000, 330)), ResponseDone()],
        }
    )
    record = run_audio(item, agent)
    assert record.audio is not None
    agent_channel = record.audio[1]
    assert len(agent_channel) >= (T0 + 1020 + 20_000) * 16
    assert np.abs(agent_channel[(T0 + 1020 + 19_000) * 16 :][: 16 * 500]).max() > 0


def test_words_are_heard_only_when_played() -> None:
    question = tone(2000)
    agent = Scripted(
        {
            T0: [
                TranscriptDelta("Hello there. What is the date for the meeting?"),
                AudioDelta(question),
                ResponseDone(),
            ],
            T0 + 600: [SpeechCancelled()],  # cut before the question is heard
        }
    )
    record = run_audio(fixture_item("meeting-scheduling"), agent)
    acts = [a for e in of(record.events, AgentActs) for a in e.data.acts]
    assert "ASK:meeting_date" not in acts
    answers = [
        e for e in of(record.events, UserUtterance) if "answer:meeting_date" in e.data.plan_ids
    ]
    assert answers == []


def test_acts_are_heard_at_the_time_their_words_play() -> None:
    agent = Scripted(
        {
            T0: [
                TranscriptDelta("What date should it be on?"),
                AudioDelta(tone(2000)),
                ResponseDone(),
            ]
        }
    )
    record = run_audio(fixture_item("meeting-scheduling"), agent)
    [act] = [e for e in of(record.events, AgentActs) if "ASK:meeting_date" in e.data.acts]
    assert T0 + 1900 <= act.t_ms <= T0 + 2020  # the last word ends with the audio (T0 + 20 + 2000)
    [answer] = [
        e for e in of(record.events, UserUtterance) if "answer:meeting_date" in e.data.plan_ids
    ]
    assert answer.t_ms >= T0 + 2020 + 700  # after the response gap


def test_approval_and_revocation_take_effect_at_speech_onset() -> None:
    record = run_audio(fixture_item("order-revocation"), AudioOracle(), privileged=True)
    utterances = of(record.events, UserUtterance)
    for granted in of(record.events, ApprovalGranted):
        onset = next(
            u
            for u in utterances
            if f"approve:{granted.data.approval_id}" in u.data.plan_ids and u.t_ms == granted.t_ms
        )
        assert onset is not None
    [revoked] = of(record.events, ApprovalRevoked)
    revoking = next(u for u in utterances if "event:hold_order" in u.data.plan_ids)
    assert revoked.t_ms == revoking.t_ms


class _RaceAgent(AudioOracle):
    """The oracle, but it fires place_order while the revocation is being spoken."""

    def step(self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]) -> Any:
        events = list(super().step(frame, tool_results))
        assert self.session is not None and self.session.session.privileged is not None
        heard = self.session.session.privileged.last_user_plans()
        if "event:hold_order" in heard and not getattr(self, "raced", False):
            self.raced = True
            events.append(ToolCallRequest("place_order", {}))
        return events


def test_commit_during_the_revoking_words_is_blocked() -> None:
    item = fixture_item("order-revocation")
    record = run_audio(item, _RaceAgent(), privileged=True)
    [blocked] = of(record.events, ActionBlocked)
    revoking = next(
        u for u in of(record.events, UserUtterance) if "event:hold_order" in u.data.plan_ids
    )
    assert revoking.t_ms <= blocked.t_ms < revoking.data.end_ms
    assert blocked.data.reason == "post_revocation"
    assert score_episode(item, record.events).gates["PV"] is False


@pytest.mark.parametrize(
    ("delta", "ok"),
    [
        # not the int16 samples the type declares: float, NaN, stereo, text (Any on purpose)
        (AudioDelta(cast(Any, tone(500).astype(np.float32) / 32768), sample_rate=24_000), True),
        (AudioDelta(np.full(8000, np.nan, dtype=np.float32)), True),
        (AudioDelta(np.stack([tone(500), tone(500)], axis=1)), True),
        (AudioDelta(np.array(["x"] * 10)), False),
    ],
)
def test_agent_audio_formats(delta: AudioDelta, ok: bool) -> None:
    record = run_audio(fixture_item("meeting-scheduling"), Scripted({T0: [delta, ResponseDone()]}))
    assert (record.status == "ok") is ok
    if not ok:
        assert "unsupported sample type" in (record.error or "")


def test_flooding_agent_ends_the_episode_as_an_error() -> None:
    flood = np.ones(16_000 * 60, dtype=np.int16)
    agent = Scripted({t: [AudioDelta(flood)] for t in range(0, 200, 20)})
    record = run_audio(fixture_item("meeting-scheduling"), agent, max_buffer_ms=120_000)
    assert record.end_reason == "error" and record.status == "error"
    assert record.error == "AgentFlood: the agent queued more than 120 s of unplayed audio"
    assert record.events[-1].t_ms < 1000


def test_tool_calls_run_on_the_media_timeline() -> None:
    call = ToolCallRequest("get_flight", {"id": "DB124"}, "c1")
    agent = Scripted({3000: [call]})
    record = run_audio(fixture_item("airline-rebooking"), agent)
    [result] = [e for e in record.events if e.type == "tool.result"]
    assert result.t_ms == 3020 and result.data.ok
    assert agent.results and agent.results[0].call_id == "c1"


def test_barge_in_timed_event_overlaps_a_talking_agent() -> None:
    data = fixture_item("meeting-scheduling").model_dump(mode="json", exclude_none=True)
    data["user"]["events"] = [
        {
            "id": "interject",
            "kind": "barge_in",
            "trigger": {"at_ms": T0 + 2000},
            "delivery": "barge_in",
            "max_stop_latency_ms": 500,
        }
    ]
    data["user"]["realizations"]["event:interject"] = ["Sorry, one more thing.", "Wait a second."]
    item = parse_item(data)
    talker = Scripted({T0: [AudioDelta(tone(6000)), ResponseDone()]})
    record = run_audio(item, talker)
    score = score_episode(item, record.events)
    assert score.floor is not None
    assert score.floor.barge_ins == 1 and score.floor.yields == 0
    assert score.floor.stop_latencies_ms[0] > 3000
    assert score.floor.overlaps >= 1


@pytest.mark.parametrize("frame_ms", [0, 25, -20])
def test_frame_size_must_be_a_multiple_of_10_ms(frame_ms: int) -> None:
    with pytest.raises(ValueError, match="multiple of 10"):
        AudioChannelConfig(frame_ms=frame_ms)
