"""Direct and simulator replay of action items (synthetic voices, virtual clock)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import pytest

from duplexbench.agents._audio_builtin import SilentAgent
from duplexbench.agents._audio_protocol import AudioSession, StepAgent, StreamingAgent
from duplexbench.agents._events import AgentEvent, AudioDelta, ResponseDone, ToolCallRequest
from duplexbench.agents._ideal_floor import IdealFloorAgent
from duplexbench.agents._protocol import ToolResultMessage
from duplexbench.agents._streaming import StepAsStreaming
from duplexbench.audio._frames import AudioFrame
from duplexbench.audio._pcm import SAMPLE_RATE, Int16Array
from duplexbench.items._action import ActionItem, Segment
from duplexbench.orchestrator._clock import RealtimeClock
from duplexbench.orchestrator._replay import ActionRecord, ActionSetup, ReplayConfig
from duplexbench.orchestrator._replay_loop import ActionEpisode
from duplexbench.speech._asr import EMPTY, ASREngine, Transcript, Word, register_asr
from duplexbench.speech._bank import SpeechBank
from duplexbench.trace._events import AgentUtterance, EpisodeStart, ToolCall
from duplexbench.trace._io import read_events, write_events
from duplexbench.trace._replay_events import ReplayCue, ReplaySegment, ReplayUserStopped
from support.replay_builders import Timeline, gap, item, one_per_action, span

CONFIG = ReplayConfig(asr=None, agent_voice="synthetic:tenor")
E = TypeVar("E")


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> SpeechBank:
    return SpeechBank(Path(tmp_path_factory.mktemp("bank")))


def wait_item(bank: SpeechBank) -> ActionItem:
    t = Timeline(bank)
    a = t.add("I was thinking that next summer we could go")
    b = t.add("to the coast for a week.", gap_ms=1500)
    return item("wait.intra_sentential_pause", t.segments, wait_interval=gap(a, b))


def stop_item(bank: SpeechBank) -> ActionItem:
    t = Timeline(bank)
    t.add("Can you walk me through how the rail pass works?")
    t.cue()
    t.add("Sorry, stop there for a second.")
    return item("stop.direct_interruption", t.segments)


def interrupt_item(bank: SpeechBank) -> ActionItem:
    t = Timeline(bank)
    t.add("So I am driving on the highway right now")
    b = t.add("and I am texting my sister while driving.", gap_ms=300)
    t.add("She wants to know when we arrive and I need to check the map.", gap_ms=300)
    return item("interrupt.safety", t.segments, target_point_ms=b.end_ms)


def run(
    it: ActionItem,
    agent: StepAgent | StreamingAgent,
    bank: SpeechBank,
    config: ReplayConfig = CONFIG,
) -> ActionRecord:
    setup = ActionSetup(it, "checksum", "test", "agent")
    return ActionEpisode(setup, agent, bank, privileged=True, config=config).run()


def of(record: ActionRecord, cls: type[E]) -> list[E]:
    return [e for e in record.events if isinstance(e, cls)]


def audio(record: ActionRecord) -> tuple[Int16Array, Int16Array]:
    """The user and agent channels of a replayed episode (always recorded)."""
    assert record.audio is not None
    return record.audio


def test_direct_replay_plays_the_timeline_and_observes_15_s(bank: SpeechBank) -> None:
    it = wait_item(bank)
    record = run(it, SilentAgent(), bank)
    assert record.status == "ok"
    played = of(record, ReplaySegment)
    assert [(e.data.start_ms, e.data.end_ms) for e in played] == [
        (s.start_ms, s.end_ms) for s in it.segments
    ]
    user, agent = audio(record)
    assert 0 <= len(user) * 1000 // SAMPLE_RATE - (it.main_end_ms + 15_000) < 20  # whole frames
    assert not agent.any()
    start = of(record, EpisodeStart)[0]
    assert start.data.tools == [] and it.context in start.data.instructions
    # the pause is silent on the user channel, the speech is not
    a, b = it.segments
    pause = user[a.end_ms * 16 + 800 : b.start_ms * 16 - 800]
    assert np.abs(pause).max() == 0
    assert np.abs(user[a.start_ms * 16 : a.end_ms * 16]).max() > 1000


def test_cue_is_injected_while_the_agent_speaks(bank: SpeechBank) -> None:
    it = stop_item(bank)
    record = run(it, IdealFloorAgent(), bank)
    cue = of(record, ReplayCue)[0].data
    assert not cue.forced and cue.reason.startswith("after word")
    first = of(record, AgentUtterance)[0].data
    assert first.start_ms < cue.start_ms < first.end_ms  # the agent was talking
    assert cue.end_ms - cue.start_ms == it.cue_duration_ms
    placed = [e.data for e in of(record, ReplaySegment) if e.data.part == "cue"]
    assert placed[0].start_ms == cue.start_ms
    assert first.truncated and first.end_ms - cue.start_ms <= 60  # ideal-floor stops at once


def test_cue_is_forced_when_the_agent_never_speaks(bank: SpeechBank) -> None:
    it = stop_item(bank)
    record = run(it, SilentAgent(), bank)
    cue = of(record, ReplayCue)[0].data
    assert cue.forced and "10000 ms" in cue.reason
    assert cue.start_ms == it.main_end_ms + CONFIG.force_after_ms
    user, _ = audio(record)
    assert 0 <= len(user) * 1000 // SAMPLE_RATE - (cue.end_ms + 15_000) < 20


def test_interrupt_stops_the_user_once_the_agent_takes_over(bank: SpeechBank) -> None:
    it = interrupt_item(bank)
    record = run(it, IdealFloorAgent(), bank)
    stopped = of(record, ReplayUserStopped)
    assert len(stopped) == 1 and "words" in stopped[0].data.reason
    t = stopped[0].t_ms
    assert t < it.main_end_ms and stopped[0].data.dropped_ms > 0
    user, _ = audio(record)
    assert np.abs(user[t * 16 :]).max() == 0
    assert np.abs(user[: t * 16]).max() > 1000


def test_interrupt_user_keeps_talking_to_a_silent_agent(bank: SpeechBank) -> None:
    record = run(interrupt_item(bank), SilentAgent(), bank)
    assert of(record, ReplayUserStopped) == []


class _ToolCaller:
    def start(self, session: AudioSession) -> None:
        self.results: list[ToolResultMessage] = []

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        self.results += tool_results
        return [ToolCallRequest("lookup", {"q": "x"})] if frame.t_ms == 0 else []

    def close(self) -> None:
        return None


def test_tool_calls_get_an_error_result(bank: SpeechBank) -> None:
    agent = _ToolCaller()
    record = run(wait_item(bank), agent, bank)
    assert [e.data.name for e in of(record, ToolCall)] == ["lookup"]
    assert agent.results[0].output["ok"] is False


class _Mumbler:
    """Speaks 1 s of noise without a transcript at 1 s."""

    def start(self, session: AudioSession) -> None:
        return None

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        if frame.t_ms != 1000:
            return []
        noise = np.random.default_rng(0).normal(0, 3000, SAMPLE_RATE).astype(np.int16)
        return [AudioDelta(noise), ResponseDone()]

    def close(self) -> None:
        return None


@register_asr("test-replay-asr")
def _fake_asr() -> ASREngine:
    class Fake:
        name = "test-replay-asr"

        def transcribe(self, samples: np.ndarray) -> Transcript:
            if not len(samples):
                return EMPTY
            return Transcript("one two", (Word("one", 0, 300), Word("two", 400, 900)))

    return Fake()


def test_agent_audio_without_transcript_is_read_by_asr(bank: SpeechBank) -> None:
    config = ReplayConfig(asr="test-replay-asr", agent_voice="synthetic:tenor")
    record = run(wait_item(bank), _Mumbler(), bank, config)
    utt = of(record, AgentUtterance)[0].data
    assert utt.transcribed and utt.text == "one two"
    assert utt.word_end_ms == [utt.start_ms + 300, utt.start_ms + 900]


def test_a_clip_far_from_its_span_is_an_error(bank: SpeechBank) -> None:
    it = wait_item(bank)
    seg = it.segments[0]
    longer = Segment(**{**seg.model_dump(), "end_ms": seg.end_ms + 500})
    bad = it.model_copy(update={"segments": [longer, *it.segments[1:]]})
    record = run(bad, SilentAgent(), bank)
    assert record.status == "error" and "DurationMismatch" in (record.error or "")


def test_replay_is_deterministic(bank: SpeechBank) -> None:
    it = stop_item(bank)
    one, two = run(it, IdealFloorAgent(), bank), run(it, IdealFloorAgent(), bank)

    def strip(r: ActionRecord) -> list[dict[str, Any]]:
        return [e.model_dump(exclude={"wall_ms"}) for e in r.events]

    assert strip(one) == strip(two)


def test_other_directed_and_background_speech_are_rendered_quieter(bank: SpeechBank) -> None:
    t = Timeline(bank)
    t.add("Let me tell you about my trip.")
    o = t.add("Honey can you turn the oven down?", gap_ms=300, role="other")
    t.add("Anyway, it was great.", gap_ms=300)
    it = item("ignore.other_directed_speech", t.segments, distractor_interval=span(o))
    user, _ = audio(run(it, SilentAgent(), bank))
    direct = user[it.segments[0].start_ms * 16 : it.segments[0].end_ms * 16].astype(float)
    off = user[o.start_ms * 16 : o.end_ms * 16].astype(float)

    def level(x: npt.NDArray[np.float64]) -> float:
        return float(10 * np.log10(np.mean(x**2)))

    assert level(direct) - level(off) > 4


def test_every_action_trace_reads_back(bank: SpeechBank, tmp_path: Path) -> None:
    """Media time never goes backwards, whatever the agent does (a regression:
    utterances were logged at the end of the episode, behind later events)."""
    for it in one_per_action(bank):
        for agent in (IdealFloorAgent(), SilentAgent()):
            record = run(it, agent, bank)
            write_events(tmp_path / "events.jsonl", record.events)
            assert len(read_events(tmp_path / "events.jsonl")) == len(record.events), it.id


def test_streaming_agents_replay_with_the_same_trace(bank: SpeechBank) -> None:
    """The one frame loop: a streaming agent on the realtime clock (fast, for the test)
    writes the trace a step agent writes, on every action (cues and takeovers included)."""
    for it in one_per_action(bank):
        stepped = run(it, IdealFloorAgent(), bank)
        setup = ActionSetup(it, "checksum", "test", "agent")
        streamed = ActionEpisode(
            setup,
            StepAsStreaming(IdealFloorAgent()),
            bank,
            privileged=True,
            config=CONFIG,
            clock=RealtimeClock(speed=500.0),
        ).run()
        assert streamed.status == "ok", it.id
        without_wall = [
            [e.model_dump(exclude={"wall_ms"}) for e in r.events] for r in (stepped, streamed)
        ]
        assert without_wall[0] == without_wall[1], it.id
        assert stepped.audio is not None and streamed.audio is not None
        assert [a.tobytes() for a in stepped.audio] == [a.tobytes() for a in streamed.audio], it.id


def test_a_clip_a_little_off_its_span_is_time_scaled_to_it(bank: SpeechBank) -> None:
    """Regression: piper renders long lines in pieces and pauses between them, so 18 of
    actions-v1's 672 items failed with DurationMismatch (a clip 4-9% longer than the span
    the suite was built with). Within 15% the clip is fitted to its span instead."""
    it = wait_item(bank)
    seg = it.segments[0]
    span = seg.end_ms - seg.start_ms
    shorter = Segment(**{**seg.model_dump(), "end_ms": seg.start_ms + span * 92 // 100})
    off = it.model_copy(update={"segments": [shorter, *it.segments[1:]]})
    record = run(off, SilentAgent(), bank)
    assert record.status == "ok", record.error
    placed = of(record, ReplaySegment)[0].data
    assert (placed.start_ms, placed.end_ms) == (shorter.start_ms, shorter.end_ms)
    user, _ = audio(record)
    start, end = shorter.start_ms * 16, shorter.end_ms * 16
    assert np.abs(user[start:end].astype(np.int32)).mean() > 100  # the words, all inside
    assert np.abs(user[end : end + 16_000].astype(np.int32)).max() < 200  # nothing after
