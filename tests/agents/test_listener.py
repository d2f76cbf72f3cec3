"""The listener on the text channel: it passes the fixture items and workflows-mini, it
never reads the reference (a poisoned one gives the same run), and in audio its cascade
hands it each turn's transcript with the ASR's confidence."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from duplexbench.agents import AgentSession, Privileged, get_agent
from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._cascade import CascadeAgent
from duplexbench.agents._listener.brain import ListenerBrain
from duplexbench.agents._protocol import AgentInput, AgentTurn
from duplexbench.audio._frames import AudioFrame
from duplexbench.items import Reference, WorkflowItem, load_suite
from duplexbench.orchestrator import AudioEpisode, EpisodeRecord, EpisodeSetup, TextEpisode
from duplexbench.scoring import score_episode
from duplexbench.speech import SpeechBank, Transcript, TranscriptSegment
from duplexbench.suites import resolve_suite
from duplexbench.trace import AgentUtterance, ToolCall, UserRepair
from support.fixtures import FIXTURES, fixture_item

MINI = load_suite(resolve_suite("workflows-mini")).items
FIXTURE_ITEMS = load_suite(FIXTURES).items


def play(item: WorkflowItem, brain: ListenerBrain | None = None) -> EpisodeRecord:
    setup = EpisodeSetup(item, "x", "tests", "listener", "text")
    return TextEpisode(setup, brain or ListenerBrain(), privileged=True).run()


@pytest.mark.parametrize("item", [*FIXTURE_ITEMS, *MINI], ids=lambda i: i.id)
def test_it_passes_every_item_on_the_text_channel(item: WorkflowItem) -> None:
    record = play(item)
    score = score_episode(item, record.events)
    failed = [f"{c.gate} {c.name}" for c in score.checks if not c.passed]
    assert record.error is None and score.ws == 1, failed


@pytest.mark.parametrize("item", FIXTURE_ITEMS, ids=lambda i: i.id)
def test_careful_listening_on_text_spells_names_and_still_passes(item: WorkflowItem) -> None:
    """With the audio channel's habits (names, codes and emails always spelled) the
    caller's repairs come back on text too and the values still land."""
    record = play(item, ListenerBrain(audio=True))
    assert score_episode(item, record.events).ws == 1


def _poisoned(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _poisoned(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_poisoned(v) for v in value]
    return "POISON"


def poison(reference: Reference) -> Reference:
    """Every say and every argument value of the reference replaced."""
    data = reference.model_dump(mode="json")
    for turn in data["turns"]:
        turn["say"] = "POISON"
        for call in turn["tool_calls"]:
            call["arguments"] = _poisoned(call["arguments"])
    return Reference.model_validate(data)


class PoisonedEpisode(TextEpisode):
    """The harness builds the outline from the item; the agent gets a poisoned reference."""

    def session(self) -> AgentSession:
        session = super().session()
        assert session.privileged is not None
        privileged = replace(session.privileged, reference=poison(self.item.reference))
        return replace(session, privileged=privileged)


def what_it_did(record: EpisodeRecord) -> list[object]:
    out: list[object] = []
    for event in record.events:
        if isinstance(event, AgentUtterance):
            out.append(event.data.text)
        elif isinstance(event, ToolCall):
            out.append((event.data.name, event.data.arguments))
    return out


@pytest.mark.parametrize(
    "item", [fixture_item("order-revocation"), MINI[0], MINI[-1]], ids=lambda i: i.id
)
def test_a_poisoned_reference_changes_nothing(item: WorkflowItem) -> None:
    clean = play(item)
    setup = EpisodeSetup(item, "x", "tests", "listener", "text")
    poisoned = PoisonedEpisode(setup, ListenerBrain(), privileged=True).run()
    assert what_it_did(poisoned) == what_it_did(clean)
    assert score_episode(item, poisoned.events).ws == score_episode(item, clean.events).ws == 1


def test_it_is_registered_as_privileged_on_both_channels() -> None:
    info, spec = get_agent("listener")
    assert info.privileged and set(info.channels) == {"text", "audio"}
    assert isinstance(info.create(spec, "text"), ListenerBrain)
    voice = info.create(spec, "audio")
    assert isinstance(voice, CascadeAgent) and isinstance(voice.brain, ListenerBrain)
    with pytest.raises(ValueError, match="no options"):
        info.create(get_agent("listener?x=1")[1], "text")


# ------------------------------------------------------------------ the cascade hook


class HearingBrain:
    def __init__(self) -> None:
        self.log: list[object] = []

    def start(self, session: AgentSession) -> None:
        return None

    def heard(self, transcript: Transcript) -> None:
        self.log.append(transcript)

    def respond(self, observation: AgentInput) -> AgentTurn:
        self.log.append(observation.user_text)
        return AgentTurn()

    def close(self) -> None:
        return None


class Speech:
    def synthesize(self, text: str, voice: str | None = None) -> Any:
        return np.zeros(16_000, dtype=np.int16)

    def transcribe(self, samples: Any) -> str:
        raise AssertionError("the cascade transcribes with its own ASR engine")


SURE = TranscriptSegment("T X dash 2 8", 0, 900, avg_logprob=-0.2, no_speech_prob=0.01)


class FakeASR:
    name = "fake"

    def transcribe(self, samples: Any) -> Transcript:
        return Transcript("T X dash 2 8", (), (SURE,))


def test_the_cascade_gives_a_hearing_brain_the_transcript_before_the_text() -> None:
    brain = HearingBrain()
    cascade = CascadeAgent(brain, endpoint_ms=200)
    cascade.start(AudioSession(AgentSession("x", (), "i", 0), 20, speech=Speech()))
    cascade.asr = FakeASR()
    loud = (np.sin(np.arange(320) / 3) * 8000).astype(np.int16)
    t = 0
    for samples in [loud] * 30 + [np.zeros(320, dtype=np.int16)] * 30:
        cascade.step(AudioFrame(t, samples), ())
        t += 20
    assert brain.log == [Transcript("T X dash 2 8", (), (SURE,)), "T X dash 2 8"]


def test_the_privileged_view_builds_its_outline_once_on_first_use() -> None:
    item = fixture_item("order-revocation")
    calls: list[str] = []

    def acts(text: str) -> list[str]:
        calls.append(text)
        return []

    privileged = Privileged.for_item(item, acts, lambda: [])
    assert calls == []
    assert privileged.outline is privileged.outline is not None
    assert len(calls) == len([t for t in item.reference.turns if t.say.strip()])


@pytest.mark.slow
def test_in_clean_audio_it_asks_for_spellings_and_reads_values_back() -> None:
    """The cascade (VAD, whisper, piper) with the caller's voice: names, codes and emails
    spelled and read back before they are relied on (docs/agents.md). Whether every value
    comes through is what the audit measures (docs/suites.md), not this test."""
    item = MINI[0]
    setup = EpisodeSetup(item, "x", "tests", "listener", "clean")
    info, spec = get_agent("listener")
    agent = info.create(spec, "audio")
    assert isinstance(agent, CascadeAgent)
    record = AudioEpisode(setup, agent, SpeechBank(), privileged=True).run()
    assert record.error is None and record.end_reason == "agent_ended"
    assert any(isinstance(e, UserRepair) and e.data.kind == "spell" for e in record.events)
    said = [e.data.text for e in record.events if isinstance(e, AgentUtterance)]
    assert any(s.startswith("Just to confirm, the tax id is") for s in said)
