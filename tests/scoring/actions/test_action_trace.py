"""From a trace to the observation: agent segments with their words, the played timeline."""

from __future__ import annotations

from duplexbench.scoring._actions.trace import agent_segments, observe
from duplexbench.trace._events import (
    AgentUtterance,
    AgentUtteranceData,
    EpisodeAudio,
    EpisodeAudioData,
    FloorSegment,
    FloorSegmentData,
    TraceEvent,
)
from duplexbench.trace._replay_events import (
    ReplayCue,
    ReplayCueData,
    ReplaySegment,
    ReplaySegmentData,
    ReplayUserStopped,
    ReplayUserStoppedData,
)
from support.action_builders import item, seg


def _floor(channel: str, start: int, end: int, seq: int) -> FloorSegment:
    data = FloorSegmentData(channel=channel, start_ms=start, end_ms=end)
    return FloorSegment(seq=seq, t_ms=0, data=data)


def _utt(text: str, start: int, end: int, word_end: list[int], seq: int = 0) -> AgentUtterance:
    data = AgentUtteranceData(text=text, start_ms=start, end_ms=end, word_end_ms=word_end)
    return AgentUtterance(seq=seq, t_ms=end, data=data)


def test_words_go_to_the_segment_they_finished_in() -> None:
    events: list[TraceEvent] = [
        _floor("agent", 1000, 1400, 0),
        _floor("agent", 2000, 4000, 1),
        _floor("user", 0, 900, 2),
        _utt("Yeah. So the plan is simple", 1000, 4000, [1300, 2300, 2600, 3000, 3400, 3990], 3),
    ]
    segs = agent_segments(events)
    assert [s.words for s in segs] == [("Yeah.",), ("So", "the", "plan", "is", "simple")]
    assert not segs[0].substantive and segs[1].substantive


def test_words_without_timings_are_spread_over_the_utterance() -> None:
    events: list[TraceEvent] = [
        _floor("agent", 0, 1000, 0),
        _floor("agent", 1500, 2000, 1),
        _utt("one two three four", 0, 2000, [], 2),
    ]
    assert [s.words for s in agent_segments(events)] == [("one", "two"), ("three", "four")]


def test_a_word_just_after_its_segment_still_belongs_to_it() -> None:
    events: list[TraceEvent] = [_floor("agent", 0, 1000, 0), _utt("hello", 0, 1000, [1100], 1)]
    assert agent_segments(events)[0].words == ("hello",)


def test_observe_places_the_cue_and_cuts_segments_at_the_user_stop() -> None:
    it = item("stop.direct_interruption", [seg(0, 2000), seg(0, 1500, part="cue")])
    events: list[TraceEvent] = [
        ReplaySegment(
            seq=0,
            t_ms=0,
            data=ReplaySegmentData(
                segment="s1",
                role="user",
                part="main",
                text="hi",
                voice="piper:joe",
                start_ms=0,
                end_ms=2000,
                audio_sha256="x",
            ),
        ),
        ReplayCue(seq=1, t_ms=5000, data=ReplayCueData(start_ms=5000, end_ms=6500, forced=True)),
        ReplayUserStopped(seq=2, t_ms=1200, data=ReplayUserStoppedData(dropped_ms=800)),
        EpisodeAudio(
            seq=3,
            t_ms=9000,
            data=EpisodeAudioData(
                sample_rate=16000,
                frame_ms=20,
                duration_ms=21500,
                user_sha256="a",
                agent_sha256="b",
            ),
        ),
    ]
    obs = observe(it, events)
    assert obs.cue is not None and (obs.cue.start_ms, obs.cue.end_ms, obs.cue.forced) == (
        5000,
        6500,
        True,
    )
    assert obs.user[0].end_ms == 1200 and obs.user_stopped_ms == 1200
    assert obs.end_ms == 21500 and obs.agent == ()
