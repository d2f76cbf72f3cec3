"""A cascaded voice agent: VAD end-of-turn -> ASR -> a text brain -> TTS.

Wraps any `TextAgent` (the reference dialogue manager, or an LLM brain) as a
`StepAgent`. It listens while it speaks: user speech longer than
`barge_in_ms` while it is talking makes it stop (shorter sounds, such as a
backchannel, do not: only voiced frames count), and what the user said is
read once they finish.
Compute time does not advance the media clock: on the VirtualClock its
responses come `endpoint_ms` after the user stops, whatever ASR and TTS cost.

A brain with a `heard(transcript)` method is given the whole `Transcript` of each
user turn (its words and segment confidences) just before `respond` gets its text
(the `listener` asks for a spelling when the ASR was unsure); others get the text only.
"""

from __future__ import annotations

from collections import deque
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
from duplexbench.agents._protocol import (
    AgentError,
    AgentInput,
    AgentTurn,
    TextAgent,
    ToolResultMessage,
)
from duplexbench.audio import (
    NOISE_MARGIN_DB,
    SAMPLE_RATE,
    AudioFrame,
    Int16Array,
    StreamingVad,
    energy,
)
from duplexbench.speech import ASREngine, get_asr

LOUD = 10 ** (-45 / 10)
"""Frame energy (mean square, full scale 1) that counts as voiced: -45 dBFS."""


class CascadeAgent:
    def __init__(
        self,
        brain: TextAgent,
        endpoint_ms: int = 700,
        barge_in_ms: int = 600,
        asr: str = "whisper",
        preroll_ms: int = 300,
    ) -> None:
        self.brain = brain
        self.endpoint_ms, self.barge_in_ms = endpoint_ms, barge_in_ms
        self.asr_name = asr
        self.vad = StreamingVad(hangover_ms=endpoint_ms, noise_margin_db=NOISE_MARGIN_DB)
        self.preroll: deque[Int16Array] = deque()
        self.preroll_ms = preroll_ms
        self.heard: list[Int16Array] = []
        self.session: AudioSession | None = None
        self.asr: ASREngine | None = None
        self.speaking_until = 0
        self.voiced_ms = 0
        self.transcripts: list[str] = []

    def start(self, session: AudioSession) -> None:
        if session.speech is None:
            raise AgentError("the cascade needs the harness's speech kit for TTS")
        self.session = session
        self.asr = get_asr(self.asr_name)
        self.brain.start(session.session)

    def close(self) -> None:
        self.brain.close()

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        events: list[AgentEvent] = []
        if tool_results:
            events += self._turn(
                self.brain.respond(AgentInput(frame.t_ms, None, tuple(tool_results))), frame.t_ms
            )
        self._listen(frame)
        talking = frame.t_ms < self.speaking_until
        if talking and self.voiced_ms >= self.barge_in_ms:
            self.speaking_until = frame.t_ms
            events.append(SpeechCancelled())
        elif self.heard and not self.vad.speaking and not talking:
            events += self._user_finished(frame.t_ms)
        elif self.heard and not self.vad.speaking:
            self.heard = []  # said and done while the agent talked, too short to stop it
        return events

    def _listen(self, frame: AudioFrame) -> None:
        was = self.vad.speaking
        self.vad.push(frame.samples)
        loud = energy(frame.samples) >= LOUD
        frame_ms = len(frame.samples) * 1000 // SAMPLE_RATE
        self.voiced_ms = self.voiced_ms + frame_ms * loud if self.vad.speaking else 0
        if self.vad.speaking:
            if not was:
                self.heard = list(self.preroll)
            self.heard.append(frame.samples)
        self.preroll.append(frame.samples)
        while len(self.preroll) > max(1, self.preroll_ms // max(1, frame_ms)):
            self.preroll.popleft()

    def _user_finished(self, t_ms: int) -> list[AgentEvent]:
        assert self.asr is not None
        audio = np.concatenate(self.heard)
        self.heard = []
        transcript = self.asr.transcribe(audio)
        text = transcript.text.strip()
        if not text:
            return []
        self.transcripts.append(text)
        hook = getattr(self.brain, "heard", None)
        if callable(hook):  # a brain that weighs the ASR's confidence (the listener)
            hook(transcript)
        return self._turn(self.brain.respond(AgentInput(t_ms, text, ())), t_ms)

    def _turn(self, turn: AgentTurn, t_ms: int) -> list[AgentEvent]:
        assert self.session is not None and self.session.speech is not None
        events: list[AgentEvent] = [
            ToolCallRequest(c.name, c.arguments, c.call_id) for c in turn.tool_calls
        ]
        if turn.say.strip():
            audio = self.session.speech.synthesize(turn.say)
            start = max(t_ms + self.session.frame_ms, self.speaking_until)
            self.speaking_until = start + len(audio) * 1000 // SAMPLE_RATE
            events += [TranscriptDelta(turn.say), AudioDelta(audio), ResponseDone()]
        if turn.end_call:
            events.append(EndCall())
        return events
