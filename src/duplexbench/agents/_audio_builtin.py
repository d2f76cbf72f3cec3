"""Built-in audio agents: the speaking `oracle`, `silent` and `echo`.

All are step agents (deterministic under the VirtualClock). They hear the
user with an energy VAD and take the turn after `endpoint_ms` of silence.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

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
from duplexbench.agents._protocol import AgentError, ToolResultMessage
from duplexbench.audio import NOISE_MARGIN_DB, AudioFrame, Int16Array, StreamingVad


class _Listener:
    """Endpointing and barge-in detection shared by the built-in audio agents."""

    def __init__(self, endpoint_ms: int, barge_in_ms: int) -> None:
        self.vad = StreamingVad(hangover_ms=endpoint_ms, noise_margin_db=NOISE_MARGIN_DB)
        self.endpoint_ms, self.barge_in_ms = endpoint_ms, barge_in_ms
        self.heard_user = False
        self.speaking_until = 0

    def hear(self, frame: AudioFrame) -> None:
        self.vad.push(frame.samples)
        if self.vad.speaking:
            self.heard_user = True

    def turn_is_mine(self, t_ms: int) -> bool:
        """The user spoke and has now been silent for `endpoint_ms`, and I am quiet."""
        return (
            self.heard_user
            and not self.vad.speaking
            and self.vad.silence_ms >= self.endpoint_ms
            and t_ms >= self.speaking_until
        )

    def barged_in(self, t_ms: int) -> bool:
        return t_ms < self.speaking_until and self.vad.speech_ms >= self.barge_in_ms

    def spoke(self, t_ms: int, frame_ms: int, samples: int) -> None:
        self.speaking_until = t_ms + frame_ms + samples * 1000 // 16_000
        self.heard_user = False


class AudioOracle:
    """Plays the reference trajectory aloud; yields to barge-ins after `barge_in_ms`
    but keeps the floor through backchannels (it knows them, being privileged).

    If it was cut while the user was still in the same utterance (it took a
    pause for the end of the turn), it says the cut turn again (without
    repeating its tool calls) once the user has finished.
    """

    def __init__(self, endpoint_ms: int = 700, barge_in_ms: int = 200) -> None:
        self.ear = _Listener(endpoint_ms, barge_in_ms)
        self.session: AudioSession | None = None
        self.next_turn = 0
        self._cut: tuple[int, list[str]] | None = None
        self._current: tuple[int, list[str]] | None = None
        self._turn_heard = False

    def start(self, session: AudioSession) -> None:
        if session.session.privileged is None:
            raise AgentError("the oracle needs the item's reference trajectory")
        if session.speech is None:
            raise AgentError("the audio oracle needs the harness's speech kit")
        self.session = session

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        assert self.session is not None and self.session.session.privileged is not None
        self.ear.hear(frame)
        if self.session.session.privileged.user_backchanneled():
            # a backchannel, cough or side remark is not a turn: keep the floor; a
            # real turn heard before it is still answered once the line is quiet
            self.ear.heard_user = self._turn_heard
            if not self._turn_heard:
                return []
        events = self._step(frame)
        self._turn_heard = self.ear.heard_user
        return events

    def _step(self, frame: AudioFrame) -> Sequence[AgentEvent]:
        if self.ear.barged_in(frame.t_ms):
            self.ear.speaking_until = frame.t_ms
            self._cut, self._current = self._current, None
            return [SpeechCancelled()]
        if not self.ear.turn_is_mine(frame.t_ms):
            return []
        return self._respond(frame.t_ms)

    def _respond(self, t_ms: int) -> list[AgentEvent]:
        assert self.session is not None and self.session.session.privileged is not None
        assert self.session.speech is not None
        privileged = self.session.session.privileged
        turns = privileged.reference.turns
        heard = privileged.last_user_plans()
        cut, self._cut = self._cut, None
        if cut is not None and cut[1] == heard:
            index, calls = cut[0], []  # same user utterance: say the cut turn again
        else:
            index = self.next_turn
            if index >= len(turns):
                self.ear.heard_user = False
                return []
            calls = list(turns[index].tool_calls)
            self.next_turn += 1
        turn = turns[index]
        if turn.expect is not None and turn.expect not in heard:
            raise AgentError(
                f"reference turn {index} expects user plan {turn.expect!r} "
                f"but the user's last plans were {heard}"
            )
        self._current = (index, heard)
        events: list[AgentEvent] = [
            ToolCallRequest(c.name, dict(c.arguments), f"ref-{index + 1}-{i}")
            for i, c in enumerate(calls)
        ]
        samples = 0
        if turn.say.strip():
            audio = self.session.speech.synthesize(turn.say)
            samples = len(audio)
            events += [TranscriptDelta(turn.say), AudioDelta(audio)]
        events.append(ResponseDone())
        if turn.end_call:
            events.append(EndCall())
        self.ear.spoke(t_ms, self.session.frame_ms, samples)
        return events

    def close(self) -> None:
        self.session = None


class SilentAgent:
    """Listens and never speaks or acts."""

    def start(self, session: AudioSession) -> None:
        return None

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        return ()

    def close(self) -> None:
        return None


class EchoAgent:
    """Repeats each user turn back (a floor-taking baseline that does no work).

    It never yields: useful to see overlaps, talk-over and a failing workflow.
    """

    def __init__(self, endpoint_ms: int = 500) -> None:
        self.ear = _Listener(endpoint_ms, barge_in_ms=10**9)
        self.heard: list[Int16Array] = []
        self.frame_ms = 20

    def start(self, session: AudioSession) -> None:
        self.frame_ms = session.frame_ms

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        self.ear.hear(frame)
        if self.ear.vad.speaking:
            self.heard.append(frame.samples)
        if not self.ear.turn_is_mine(frame.t_ms) or not self.heard:
            return []
        audio = np.concatenate(self.heard)
        self.heard = []
        self.ear.spoke(frame.t_ms, self.frame_ms, len(audio))
        return [AudioDelta(audio), ResponseDone()]

    def close(self) -> None:
        return None
