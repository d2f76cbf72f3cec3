"""Floor events derived after an episode from the recorded channels and the trace.

Speech segments come from the energy VAD over each channel (what was sent and
what was delivered), so every agent is measured the same way. Derived:
overlaps (who started talking over whom, and whether an authored barge-in
caused it) and, for every authored barge-in that started while the agent held
the floor (inside one of its delivered utterances, pauses included), how long
the agent took to stop: from the user's speech onset to the end of the
agent's last speech in that utterance (stop latency), and what the agent did
(`trace/_barge_in.py`): it *yielded* when it stopped within the event's
`max_stop_latency_ms` (default 2000 ms) by cutting that utterance short
(queued audio dropped, or a cancel); a turn that merely ended within the limit
*ended naturally* and is no yield.
"""

from __future__ import annotations

from duplexbench.audio import SAMPLE_RATE, Int16Array, Segment, segments, sha256_pcm
from duplexbench.items import WorkflowItem
from duplexbench.trace import (
    AgentUtterance,
    DuplexEventFired,
    EpisodeAudioData,
    FloorOverlapData,
    FloorSegmentData,
    FloorYieldData,
    Recorder,
    UserUtterance,
    barge_in_outcome,
    turn_at,
)

DEFAULT_MAX_STOP_MS = 2000
ONSET_SLACK_MS = 500
"""A clip may start with silence: its speech onset is the first user segment within this."""


def _onsets(
    rec: Recorder, users: list[Segment], ends: dict[str, int] | None = None
) -> dict[str, int]:
    """Speech onset (ms) of each barge-in event's utterance (and, into `ends`, the
    utterance's end)."""
    onsets: dict[str, int] = {}
    barge_ins = {
        e.data.event_id
        for e in rec.events
        if isinstance(e, DuplexEventFired) and e.data.delivery == "barge_in"
    }
    for event in rec.events:
        if not isinstance(event, UserUtterance):
            continue
        for plan_id in event.data.plan_ids:
            kind, _, ref = plan_id.partition(":")
            if kind == "event" and ref in barge_ins and ref not in onsets:
                seg = next(
                    (
                        s
                        for s in users
                        if event.t_ms - 40 <= s.start_ms <= event.t_ms + ONSET_SLACK_MS
                    ),
                    None,
                )
                onsets[ref] = seg.start_ms if seg else event.t_ms
                if ends is not None:
                    ends[ref] = event.data.end_ms
    return onsets


def derive_floor_events(
    rec: Recorder,
    item: WorkflowItem,
    channels: tuple[Int16Array, Int16Array],
    *,
    t: int,
    frame_ms: int,
    line: Int16Array | None = None,
) -> None:
    """Append the floor events of a finished call to `rec`, stamped at `t` (the end)."""
    user, agent = channels
    rec.emit(
        t,
        EpisodeAudioData(
            sample_rate=SAMPLE_RATE,
            frame_ms=frame_ms,
            duration_ms=len(user) * 1000 // SAMPLE_RATE,
            user_sha256=sha256_pcm(user),
            agent_sha256=sha256_pcm(agent),
            line_file=None if line is None else "user_line.wav",
            line_sha256=None if line is None else sha256_pcm(line),
        ),
    )
    users, agents = segments(user), segments(agent)
    for channel, segs in (("user", users), ("agent", agents)):
        for s in segs:
            data = FloorSegmentData(channel=channel, start_ms=s.start_ms, end_ms=s.end_ms)
            rec.emit(t, data)
    ends: dict[str, int] = {}
    onsets = _onsets(rec, users, ends)
    for u in users:
        for a in agents:
            start, end = max(u.start_ms, a.start_ms), min(u.end_ms, a.end_ms)
            if start >= end:
                continue
            initiator = "user" if u.start_ms > a.start_ms else "agent"
            # speech over an authored barge-in is that event's (its yield is judged
            # separately), whoever's segment started first: an agent talking on
            # through a backchannel, or resuming after a pause in its own line
            cause = next(
                (ev for ev, onset in onsets.items() if onset <= u.start_ms <= ends[ev]), None
            )
            data2 = FloorOverlapData(
                start_ms=start, end_ms=end, initiator=initiator, barge_in=cause
            )
            rec.emit(t, data2)
    events = {e.id: e for e in item.user.events}
    turns = [e.data for e in rec.events if isinstance(e, AgentUtterance)]
    for event_id, onset in sorted(onsets.items(), key=lambda kv: kv[1]):
        if events[event_id].expected_floor_action != "yield":
            continue  # a backchannel asks the agent to keep talking: not a barge-in to yield to
        turn = turn_at(turns, onset)
        if turn is None:
            continue  # the agent was not holding the floor: not a barge-in over speech
        spoken = [a.end_ms for a in agents if a.start_ms < turn.end_ms and a.end_ms > turn.start_ms]
        stop = max(onset, min(max(spoken, default=onset), turn.end_ms))
        limit = events[event_id].max_stop_latency_ms or DEFAULT_MAX_STOP_MS
        latency = stop - onset
        outcome = barge_in_outcome(latency, limit, turn)
        data3 = FloorYieldData(
            event_id=event_id,
            onset_ms=onset,
            agent_end_ms=stop,
            stop_latency_ms=latency,
            max_stop_latency_ms=limit,
            yielded=outcome == "yielded",
            ended_naturally=outcome == "ended_naturally",
        )
        rec.emit(t, data3)
