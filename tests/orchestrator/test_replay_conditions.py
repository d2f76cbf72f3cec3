"""Conditions on action replays: the user sounds different, never at other times."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from duplexbench.agents._audio_builtin import SilentAgent
from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._events import AgentEvent
from duplexbench.agents._protocol import ToolResultMessage
from duplexbench.audio._effects import EffectsConfig
from duplexbench.audio._frames import AudioFrame
from duplexbench.orchestrator._replay import ActionRecord, ActionSetup, ReplayConfig
from duplexbench.orchestrator._replay_caller import applies_to_replays, replay_caller
from duplexbench.orchestrator._replay_loop import ActionEpisode
from duplexbench.speech._bank import SpeechBank
from duplexbench.trace._condition_events import ConditionSetup
from duplexbench.trace._events import UserUtterance
from duplexbench.trace._replay_events import ReplaySegment
from duplexbench.users._caller import CallerConfig
from duplexbench.users._personas import get_persona
from duplexbench.users._sounds import OutOfTurnConfig
from support.replay_builders import Timeline, gap, item, span

pytest.importorskip("piper", reason="the persona speaks with piper:joe")

CONFIG = ReplayConfig(asr=None, agent_voice="synthetic:tenor")
PIPER_PERSONA = "hurried-american"
REALISTIC = CallerConfig(
    personas=(PIPER_PERSONA,), effects=EffectsConfig(), out_of_turn=OutOfTurnConfig()
)


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> SpeechBank:
    return SpeechBank(Path(tmp_path_factory.mktemp("bank")))


class Listener(SilentAgent):
    """Silent, and keeps every frame it receives."""

    def __init__(self) -> None:
        super().__init__()
        self.heard: list[np.ndarray] = []

    def start(self, session: AudioSession) -> None:
        super().start(session)

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        self.heard.append(frame.samples.copy())
        return super().step(frame, tool_results)


def run(bank: SpeechBank, agent: SilentAgent, caller: CallerConfig) -> ActionRecord:
    t = Timeline(bank)
    a = t.add("I was thinking that next summer we could go")
    b = t.add("to the coast for a week.", gap_ms=1500)
    it = item("wait.intra_sentential_pause", t.segments, wait_interval=gap(a, b))
    setup = ActionSetup(it, "checksum", "test", "agent", condition="realistic")
    config = replace(CONFIG, caller=caller)
    return ActionEpisode(setup, agent, bank, config=config).run()


def spans(record: ActionRecord) -> list[tuple[int, int]]:
    return [(e.data.start_ms, e.data.end_ms) for e in record.events if isinstance(e, ReplaySegment)]


def test_the_persona_and_the_line_change_the_sound_not_the_timing(bank: SpeechBank) -> None:
    clean = run(bank, SilentAgent(), CallerConfig())
    listener = Listener()
    noisy = run(bank, listener, REALISTIC)
    assert spans(noisy) == spans(clean)  # every annotation stays exact
    voices = {e.data.voice for e in noisy.events if isinstance(e, ReplaySegment)}
    assert voices == {get_persona(PIPER_PERSONA).voice}
    assert noisy.audio is not None and noisy.line is not None and clean.line is None
    user, line = noisy.audio[0], noisy.line
    assert len(line) == len(user) and line.tobytes() != user.tobytes()
    # the agent got the degraded line, frame by frame; channel 0 keeps the clean user
    assert (
        np.concatenate(listener.heard).tobytes() == line[: sum(map(len, listener.heard))].tobytes()
    )
    for start, end in spans(noisy):  # the persona speaks inside each annotated span
        inside = np.abs(user[start * 16 : end * 16].astype(np.int32)).mean()
        assert inside > 100, (start, end)
    assert any(isinstance(e, ConditionSetup) for e in noisy.events)
    assert not any(isinstance(e, ConditionSetup) for e in clean.events)
    assert not any(isinstance(e, UserUtterance) for e in noisy.events)  # no out-of-turn sounds


def test_a_persona_never_borrows_another_speakers_voice(bank: SpeechBank) -> None:
    t = Timeline(bank)
    t.add("Can you tell me more about the museum?")
    o = t.add("Hang on, I am on the phone.", role="other", voice="piper:joe")
    it = item("ignore.other_directed_speech", t.segments, distractor_interval=span(o))
    caller = replay_caller(CallerConfig(personas=(PIPER_PERSONA, "neutral")), it, 7)
    assert caller.persona.name == "neutral"  # hurried-american speaks with piper:joe


def test_only_turn_taking_does_not_apply() -> None:
    assert not applies_to_replays(CallerConfig())
    assert not applies_to_replays(CallerConfig(out_of_turn=OutOfTurnConfig()))
    assert applies_to_replays(CallerConfig(effects=EffectsConfig()))
    assert applies_to_replays(CallerConfig(personas=(PIPER_PERSONA,)))


def test_the_agent_voice_keeps_away_from_the_items_voices(bank: SpeechBank) -> None:
    """The harness lends local agents hibari:heart, or piper:joe when a segment of the
    item speaks hibari:heart at its pitch; the same in every condition."""
    lent = {}
    for other_voice in ("piper:joe", "hibari:heart"):
        t = Timeline(bank)
        t.add("Can you tell me more about the museum?", voice="piper:joe")
        o = t.add("Hang on, I am on the phone.", role="other", voice=other_voice)
        it = item("ignore.other_directed_speech", t.segments, distractor_interval=span(o))
        for personas in (("neutral",), ("warm-american",)):
            config = replace(CONFIG, agent_voice=None, caller=CallerConfig(personas=personas))
            setup = ActionSetup(it, "checksum", "test", "agent", condition="realistic")
            episode = ActionEpisode(setup, SilentAgent(), bank, config=config)
            lent[other_voice, personas] = episode.agent_voice
    assert lent == {
        ("piper:joe", ("neutral",)): "hibari:heart",
        ("piper:joe", ("warm-american",)): "hibari:heart",
        ("hibari:heart", ("neutral",)): "piper:joe",
        ("hibari:heart", ("warm-american",)): "piper:joe",
    }
