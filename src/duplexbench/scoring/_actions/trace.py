"""From an action episode's trace to the :class:`ActionObservation` the rules read.

Agent segments are the energy-VAD segments of the delivered agent channel
(`floor.segment`, pauses under 300 ms merged), so every agent is measured
the same way. Each played word (`agent.utterance` `word_end_ms`) belongs to
the segment in which it finished playing (within `WORD_SLACK_MS` of its
end); a word that finished in no segment goes to the latest segment that
started before it. Utterances without word timings spread their words
evenly over their span.
"""

from __future__ import annotations

from collections.abc import Sequence

from duplexbench.audio import Int16Array
from duplexbench.items import ActionItem
from duplexbench.scoring._actions.observation import (
    ActionObservation,
    AgentSegment,
    CueInfo,
    PlayedSegment,
)
from duplexbench.trace import (
    AgentUtterance,
    EpisodeAudio,
    EpisodeEnd,
    FloorSegment,
    ReplayCue,
    ReplaySegment,
    ReplayUserStopped,
    TraceEvent,
)

WORD_SLACK_MS = 100


def _timed_words(events: Sequence[TraceEvent]) -> list[tuple[int, str, bool]]:
    out: list[tuple[int, str, bool]] = []
    for e in events:
        if not isinstance(e, AgentUtterance):
            continue
        words = e.data.text.split()
        times = list(e.data.word_end_ms)
        if len(times) != len(words):
            span = max(1, e.data.end_ms - e.data.start_ms)
            times = [e.data.start_ms + span * (i + 1) // len(words) for i in range(len(words))]
        out += [(t, w, e.data.transcribed) for t, w in zip(times, words, strict=True)]
    return sorted(out, key=lambda x: x[0])


def agent_segments(events: Sequence[TraceEvent]) -> tuple[AgentSegment, ...]:
    spans = sorted(
        (e.data.start_ms, e.data.end_ms)
        for e in events
        if isinstance(e, FloorSegment) and e.data.channel == "agent"
    )
    words: list[list[str]] = [[] for _ in spans]
    asr = [False for _ in spans]
    for t, word, transcribed in _timed_words(events):
        index = next(
            (i for i, (s, e) in enumerate(spans) if s <= t <= e + WORD_SLACK_MS),
            None,
        )
        if index is None:
            before = [i for i, (s, _) in enumerate(spans) if s <= t]
            index = before[-1] if before else None
        if index is not None:
            words[index].append(word)
            asr[index] |= transcribed
    return tuple(
        AgentSegment(s, e, tuple(w), transcribed)
        for (s, e), w, transcribed in zip(spans, words, asr, strict=True)
    )


def observe(
    item: ActionItem, events: Sequence[TraceEvent], agent_audio: Int16Array | None = None
) -> ActionObservation:
    """The observation of one action episode (pure: the trace and the item)."""
    stopped = next((e for e in events if isinstance(e, ReplayUserStopped)), None)
    stop_ms = stopped.t_ms if stopped else None
    user = []
    for e in events:
        if isinstance(e, ReplaySegment):
            d = e.data
            end = d.end_ms if stop_ms is None else min(d.end_ms, max(d.start_ms, stop_ms))
            user.append(PlayedSegment(d.segment, d.role, d.text, d.start_ms, end, d.part))
    cue_event = next((e for e in events if isinstance(e, ReplayCue)), None)
    cue = None
    if cue_event is not None:
        c = cue_event.data
        cue = CueInfo(c.start_ms, c.end_ms, c.forced, c.reason)
    audio = next((e for e in events if isinstance(e, EpisodeAudio)), None)
    ended = next((e for e in events if isinstance(e, EpisodeEnd)), None)
    end_ms = audio.data.duration_ms if audio else (ended.t_ms if ended else 0)
    return ActionObservation(
        item=item,
        agent=agent_segments(events),
        user=tuple(sorted(user, key=lambda s: s.start_ms)),
        end_ms=end_ms,
        cue=cue,
        user_stopped_ms=stop_ms,
        agent_audio=agent_audio,
    )
