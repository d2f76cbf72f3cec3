"""The cascaded voice agent: end of turn, barge-in versus backchannel, the reference in audio."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._cascade import CascadeAgent
from duplexbench.agents._events import AudioDelta, SpeechCancelled, TranscriptDelta
from duplexbench.agents._protocol import AgentInput, AgentSession, AgentTurn
from duplexbench.agents._reference import ReferenceDialogue
from duplexbench.audio._frames import AudioFrame
from duplexbench.scoring._episode import score_episode
from duplexbench.speech._asr import Transcript
from duplexbench.trace._events import FloorYield, ToolCall
from support.fixtures import fixture_item
from support.helpers import run_audio


class Brain:
    def __init__(self) -> None:
        self.heard: list[str | None] = []

    def start(self, session: AgentSession) -> None:
        return None

    def respond(self, observation: AgentInput) -> AgentTurn:
        self.heard.append(observation.user_text)
        return AgentTurn("Let me tell you a long story about the weather today.")

    def close(self) -> None:
        return None


class Speech:
    def synthesize(self, text: str, voice: str | None = None) -> Any:
        return np.full(16_000 * 5, 1000, dtype=np.int16)  # 5 s

    def transcribe(self, samples: Any) -> str:
        raise AssertionError("the cascade transcribes with its own ASR engine")


class FakeASR:
    name = "fake"

    def transcribe(self, samples: Any) -> Transcript:
        return Transcript(f"{len(samples) // 16} ms of speech", ())


def frames(pattern: Sequence[tuple[int, bool]]) -> list[AudioFrame]:
    out, t = [], 0
    for ms, loud in pattern:
        for _ in range(ms // 20):
            level = 8000 if loud else 0
            samples = (np.sin(np.arange(320) / 3) * level).astype(np.int16)
            out.append(AudioFrame(t, samples))
            t += 20
    return out


def drive(agent: CascadeAgent, pattern: Sequence[tuple[int, bool]]) -> list[Any]:
    events: list[Any] = []
    for frame in frames(pattern):
        events += agent.step(frame, ())
    return events


def agent() -> tuple[CascadeAgent, Brain]:
    brain = Brain()
    cascade = CascadeAgent(brain, endpoint_ms=700, barge_in_ms=600)
    cascade.start(AudioSession(AgentSession("x", (), "i", 0), 20, speech=Speech()))
    cascade.asr = FakeASR()
    return cascade, brain


def test_answers_after_the_endpoint_then_yields_to_real_speech_only() -> None:
    cascade, brain = agent()
    events = drive(cascade, [(1000, True), (700, False)])
    assert any(isinstance(e, AudioDelta) for e in events) and brain.heard[-1]
    backchannel = drive(cascade, [(400, True), (600, False)])
    assert not any(isinstance(e, SpeechCancelled) for e in backchannel)
    barge_in = drive(cascade, [(800, True)])
    assert any(isinstance(e, SpeechCancelled) for e in barge_in)
    after = drive(cascade, [(700, False)])
    assert any(isinstance(e, TranscriptDelta) for e in after)  # answers what it was told


def test_speech_said_and_done_while_it_talks_is_not_a_turn() -> None:
    """A "That's correct." in the middle of a long read-back, too short to stop it, was
    taken as the answer to the approval question asked after it (reference version 4)."""
    cascade, brain = agent()
    # a turn (it then talks for 5 s), speech said and done while it talks, its end, and
    # silence (one drive: each starts its clock at 0)
    drive(cascade, [(1000, True), (700, False), (500, True), (800, False), (6000, False)])
    assert len(brain.heard) == 1


def test_reference_agent_in_audio_takes_the_correction() -> None:
    item = fixture_item("form-expense-correction")
    cascade = CascadeAgent(ReferenceDialogue())
    record = run_audio(item, cascade, voice="piper:joe")
    assert record.status == "ok", record.error
    score = score_episode(item, record.events)
    [yielded] = [e for e in record.events if isinstance(e, FloorYield)]
    # its reply ended by itself ~170 ms into the correction: not talking over it, but not
    # a yield either (a yield must cut the reply short; docs/metrics.md, floor control)
    assert yielded.data.ended_naturally and not yielded.data.yielded
    totals = [
        e.data.arguments["fields"]["total_amount"]
        for e in record.events
        if isinstance(e, ToolCall) and "total_amount" in e.data.arguments.get("fields", {})
    ]
    assert totals == [240, 200]  # wrote the first value, then the corrected one
    assert score.gates["PV"] and score.provenance is not None
    [total] = [v for v in score.provenance.values if v.key == "expense.total_amount"]
    assert total.correct and total.ref == "total_amount_v2"  # the correction, from the user
