"""The trace of an action episode: every event the replay loop records."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from duplexbench.agents import AgentSession, ToolCallRequest, ToolResultMessage
from duplexbench.audio import SAMPLE_RATE, Int16Array, segments, sha256_pcm
from duplexbench.items import Segment
from duplexbench.orchestrator._cue import CueDecision
from duplexbench.orchestrator._episode import start_data
from duplexbench.orchestrator._replay import ActionSetup, AgentTranscript, Utterance
from duplexbench.speech import get_asr
from duplexbench.trace import (
    AgentTruncatedData,
    AgentUsageData,
    AgentUtteranceData,
    EndReason,
    EpisodeAudioData,
    EpisodeEndData,
    ErrorKind,
    FloorSegmentData,
    HarnessErrorData,
    Recorder,
    ReplayCueData,
    ReplaySegmentData,
    ReplayUserStoppedData,
    ToolCallData,
    TraceEvent,
)


class ReplayTrace:
    def __init__(self, setup: ActionSetup, frame_ms: int) -> None:
        self.setup, self.frame_ms = setup, frame_ms
        self.recorder = Recorder()
        self._calls = 0

    @property
    def events(self) -> list[TraceEvent]:
        return self.recorder.events

    def start(self, session: AgentSession) -> None:
        item = self.setup.item
        data = start_data(self.setup, item.id, item.version, session, "audio")
        self.recorder.emit(0, data)

    def error(self, t: int, message: str, where: str) -> None:
        self.recorder.emit(t, HarnessErrorData(message=message, where=where))

    def end(
        self, t: int, reason: EndReason, detail: str, error_kind: ErrorKind | None = None
    ) -> None:
        data = EpisodeEndData(reason=reason, detail=detail, error_kind=error_kind)
        self.recorder.emit(t, data)

    def segment(self, seg: Segment, offset: int, sha: str, voice: str) -> None:
        """A segment placed at `offset`, said in `voice` (a persona's, or the item's)."""
        data = ReplaySegmentData(
            segment=seg.id,
            role=seg.role,
            part=seg.part,
            text=seg.text,
            voice=voice,
            start_ms=offset + seg.start_ms,
            end_ms=offset + seg.end_ms,
            audio_sha256=sha,
        )
        self.recorder.emit(offset, data)  # stamped when placed

    def cue(self, t: int, end: int, decision: CueDecision, controller: str) -> None:
        data = ReplayCueData(
            start_ms=t,
            end_ms=end,
            forced=decision.forced,
            controller=controller,
            reason=decision.reason,
        )
        self.recorder.emit(t, data)

    def user_stopped(self, t: int, dropped_ms: int, reason: str) -> None:
        data = ReplayUserStoppedData(dropped_ms=dropped_ms, reason=reason)
        self.recorder.emit(t, data)

    def tool_call(self, event: ToolCallRequest, t: int) -> ToolResultMessage:
        self._calls += 1
        call_id = event.call_id or f"call-{self._calls}"
        data = ToolCallData(call_id=call_id, name=event.name, arguments=event.arguments)
        self.recorder.emit(t, data)
        output = {"ok": False, "error": "no tools are available in this conversation"}
        return ToolResultMessage(call_id, event.name, output)

    def truncated(self, t: int, dropped_samples: int, unheard: str) -> None:
        dropped_ms = dropped_samples * 1000 // SAMPLE_RATE
        if dropped_ms or unheard:
            data = AgentTruncatedData(dropped_ms=dropped_ms, unheard_text=unheard)
            self.recorder.emit(t, data)

    def usage(self, t: int, fields: dict[str, Any]) -> None:
        self.recorder.emit(t, AgentUsageData(**fields))

    def utterances(
        self,
        t: int,
        transcript: AgentTranscript,
        agent: Callable[[int, int], Int16Array],
        asr: str | None,
    ) -> None:
        """An `agent.utterance` (stamped `t`, at or after its end) for each utterance
        that has closed since the last call; ASR (of `agent(start_ms, end_ms)`, the
        delivered channel) where no words came."""
        closed, transcript.finished = transcript.finished, []
        for utt, truncated in closed:
            transcribed = False
            if not utt.words and asr is not None:
                transcribed = self._transcribe(utt, agent, asr)
            data = AgentUtteranceData(
                text=" ".join(utt.words),
                start_ms=utt.start_ms,
                end_ms=utt.end_ms,
                truncated=truncated,
                cancelled=utt.cancelled,
                transcribed=transcribed,
                word_end_ms=utt.word_end_ms,
            )
            self.recorder.emit(max(t, utt.end_ms), data)

    @staticmethod
    def _transcribe(utt: Utterance, agent: Callable[[int, int], Int16Array], asr: str) -> bool:
        """Read the utterance's audio with ASR; word times from ASR (else spread evenly)."""
        result = get_asr(asr).transcribe(agent(utt.start_ms, utt.end_ms))
        words = [w for w in result.words if w.text.strip()]
        if words:
            utt.words = [w.text.strip() for w in words]
            utt.word_end_ms = [min(utt.end_ms, utt.start_ms + w.end_ms) for w in words]
        else:
            utt.words = result.text.split()
            span = max(1, utt.end_ms - utt.start_ms)
            n = len(utt.words)
            utt.word_end_ms = [utt.start_ms + span * (i + 1) // n for i in range(n)]
        return bool(utt.words)

    def channels(
        self, t: int, user: Int16Array, agent: Int16Array, line: Int16Array | None = None
    ) -> None:
        data = EpisodeAudioData(
            sample_rate=SAMPLE_RATE,
            frame_ms=self.frame_ms,
            duration_ms=len(user) * 1000 // SAMPLE_RATE,
            user_sha256=sha256_pcm(user),
            agent_sha256=sha256_pcm(agent),
            line_file=None if line is None else "user_line.wav",
            line_sha256=None if line is None else sha256_pcm(line),
        )
        self.recorder.emit(t, data)
        for channel, samples in (("user", user), ("agent", agent)):
            for s in segments(np.asarray(samples)):
                seg = FloorSegmentData(channel=channel, start_ms=s.start_ms, end_ms=s.end_ms)
                self.recorder.emit(t, seg)
