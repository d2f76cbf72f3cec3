"""The action episode: direct or simulator replay of a fixed user timeline.

Direct replay (wait, ignore, take_turn, backchannel) streams the item's
audio at the agent's input rate and records the agent concurrently, with
`observe_ms` (15 s) appended; t = 0 is the first streamed sample. Simulator
replay plays the lead-in (the `main` segments), lets the cue controller
place the `cue` segments while the agent answers (stop, hold_floor,
recover), or stops the user once the agent takes over (interrupt). The
user never reacts otherwise: the audio is fixed, only cue timing adapts.
Agent tool calls are answered with an error (action items have no tools).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal

import numpy as np

from duplexbench.agents import (
    ActionPrivileged,
    AgentEvent,
    AgentSession,
    AudioSession,
    StepAgent,
    StreamingAgent,
    ToolCallRequest,
    ToolResultMessage,
    UsageDelta,
)
from duplexbench.audio import SAMPLE_RATE, Int16Array, samples_for_ms, sha256_pcm
from duplexbench.items import CUED
from duplexbench.orchestrator._agent_events import apply_agent_events, check_flood
from duplexbench.orchestrator._audio_loop import BankSpeech
from duplexbench.orchestrator._blame import error_kind
from duplexbench.orchestrator._caller_line import CallerLine
from duplexbench.orchestrator._clock import MediaClock
from duplexbench.orchestrator._cue import (
    CueController,
    CueDecision,
    CueState,
    RuleCueController,
    TakeoverDetector,
)
from duplexbench.orchestrator._frame_loop import default_clock, link_for, play
from duplexbench.orchestrator._playback import Delivered, Playback
from duplexbench.orchestrator._replay import (
    ActionRecord,
    ActionSetup,
    AgentTranscript,
    ReplayConfig,
    UserTimeline,
)
from duplexbench.orchestrator._replay_caller import CLEAN, replay_caller
from duplexbench.orchestrator._replay_trace import ReplayTrace
from duplexbench.orchestrator._tape import FrameTape
from duplexbench.orchestrator._watchdog import FAULTS, kick
from duplexbench.speech import SpeechBank, SynthesisSettings, agent_voice_for, render_segment
from duplexbench.trace import EndReason, ErrorKind
from duplexbench.users import NEUTRAL

GENERAL_INSTRUCTIONS = (
    "You are a voice assistant in a live, full-duplex spoken conversation. "
    "Talk naturally, as a person would."
)


class ActionEpisode:
    """One action item x agent x repetition over the full-duplex audio channel."""

    def __init__(
        self,
        setup: ActionSetup,
        agent: StepAgent | StreamingAgent,
        bank: SpeechBank,
        *,
        privileged: bool = False,
        config: ReplayConfig | None = None,
        controller: CueController | None = None,
        clock: MediaClock | None = None,
    ) -> None:
        self.setup, self.item, self.agent, self.bank = setup, setup.item, agent, bank
        self.privileged = privileged
        self.config = config or ReplayConfig()
        self.controller = controller or RuleCueController(self.config)
        self.takeover = TakeoverDetector(self.config)
        self.link = link_for(agent)
        self.clock = clock or default_clock(self.link)
        self.n = samples_for_ms(self.config.frame_ms)
        self.trace = ReplayTrace(setup, self.config.frame_ms)
        self.caller = replay_caller(self.config.caller, self.item, setup.repetition_seed)
        self.line = CallerLine(self.caller, self.trace.recorder, bank)
        self.agent_voice = self.config.agent_voice or agent_voice_for(self._voices())
        self.timeline = UserTimeline()
        self.playback = Playback(self.config.max_buffer_ms)
        self.transcript = AgentTranscript(self.config.frame_ms)
        minute = 60_000 // self.config.frame_ms  # grows past it: replays are short
        self.ch0 = FrameTape(self.n, minute)
        self.ch1 = FrameTape(self.n, minute)
        self.results: list[ToolResultMessage] = []
        self.cue_start: int | None = None
        self.lead_in_end = self.item.main_end_ms  # item constants, off the per-frame path
        self.cue_text = " ".join(s.text for s in self.item.part("cue"))
        self.horizon = 0
        self.delivered = Delivered(np.zeros(self.n, dtype=np.int16), [], False)
        self.hung_up = False
        self.error_kind: ErrorKind | None = None

    @property
    def now(self) -> int:
        return len(self.ch0) * self.config.frame_ms

    def session(self) -> AgentSession:
        instructions = f"{GENERAL_INSTRUCTIONS} {self.item.context}"
        action = None
        if self.privileged:
            action = ActionPrivileged(self.item, lambda: self.cue_start)
        return AgentSession(instructions, (), self.item.id, self.setup.seed, action=action)

    def audio_session(self) -> AudioSession:
        speech = BankSpeech(self.bank, self.agent_voice)
        return AudioSession(self.session(), self.config.frame_ms, SAMPLE_RATE, speech)

    # ------------------------------------------------------------ the loop's side (frame_loop)

    def run(self) -> ActionRecord:
        return play(self, self.link, self.clock)

    def open(self) -> AudioSession:
        session = self.audio_session()
        self.trace.start(session.session)
        if self.config.caller != CLEAN:  # a clean replay's trace is as it always was
            self.line.emit_setup(self.setup.condition, {"replay": "scripted"}, self.agent_voice)
        return session

    def begin(self) -> None:
        self._place("main", 0)
        self.horizon = self.timeline.end_ms + self.config.observe_ms
        if self.item.action in CUED:
            self.horizon = self.item.main_end_ms + self.config.force_after_ms

    def running(self) -> bool:
        return self.now < self.horizon

    out_of_time: EndReason = "user_ended"

    def frame(self, t: int) -> Int16Array:
        user = self.timeline.frame(t, self.n)
        sent = self.line.send(user, t)  # the caller's line (clean: `user` itself)
        self.delivered = self.playback.pull(self.n, t)
        self.ch0.append(user)
        self.ch1.append(self.delivered.samples)
        self.transcript.frame(self.delivered, t, self.playback.idle)
        self._utterances()
        return sent

    def take_results(self) -> Sequence[ToolResultMessage]:
        results, self.results = self.results, []
        return results

    def handle(self, events: Sequence[AgentEvent], t: int) -> None:
        apply_agent_events(events, self.playback, self, t)

    def after_frame(self) -> EndReason | None:
        self._cue_or_stop(self.delivered)
        if self.hung_up and self.playback.idle and self.now >= self.timeline.end_ms:
            return "agent_ended"
        check_flood(self.playback)
        return None

    def failed(self, exc: BaseException) -> str:
        error, self.error_kind = f"{type(exc).__name__}: {exc}", error_kind(exc)
        self.trace.error(self.now, error, "episode")
        return error

    def log_error(self, message: str, where: str) -> None:
        self.trace.error(self.now, message, where)

    def _cue_or_stop(self, delivered: Delivered) -> None:
        t = self.now
        if self.item.action in CUED and self.cue_start is None:
            queued = self.playback.buffered_samples * 1000 // SAMPLE_RATE
            state = CueState(t, self.lead_in_end, delivered, self.transcript, queued, self.cue_text)
            decision = self.controller.decide(state)
            if decision.fire:
                self._inject(t, decision)
        elif self.item.action == "interrupt" and self.timeline.stopped_at is None:
            why = self.takeover.took_over(self.transcript)
            if why is not None and t < self.lead_in_end:
                dropped = self.timeline.stop(t)
                self.trace.user_stopped(t, dropped, why)
                self.horizon = t + self.config.observe_ms

    def _inject(self, t: int, decision: CueDecision) -> None:
        self.cue_start = t
        end = t + self.item.cue_duration_ms
        self.trace.cue(t, end, decision, self.controller.name)
        self._place("cue", t)
        self.horizon = end + self.config.observe_ms

    def _voices(self) -> list[tuple[str, float]]:
        """(voice, pitch) of every segment as authored, and of the persona that says the
        user's lines (`_place`): the agent's voice is the same in every condition."""
        voices = [(seg.voice, 0.0) for seg in self.item.segments]
        if self.caller.persona.name != NEUTRAL:
            voices.append((self.caller.voice, self.line.settings.pitch_semitones))
        return voices

    def _place(self, part: Literal["main", "cue"], offset: int) -> None:
        extracted = self.item.source == "extracted"
        persona = self.caller.persona.name != NEUTRAL
        for seg in self.item.part(part):
            voiced = persona and seg.role == "user"  # the persona says the user's lines
            fit: Literal["exact", "stretch"] = "stretch" if extracted or voiced else "exact"
            samples = render_segment(
                self.bank,
                seg.text,
                self.caller.voice if voiced else seg.voice,
                seg.role,
                duration_ms=seg.end_ms - seg.start_ms,
                fit=fit,
                settings=self.line.settings if voiced else SynthesisSettings(),
            )
            if seg.role == "user" and self.line.line is not None:
                self.line.line.note_speech(samples)  # the noise is set against the speech level
            self.timeline.place(samples, offset + seg.start_ms)
            voice = self.caller.voice if voiced else seg.voice
            self.trace.segment(seg, offset, sha256_pcm(samples), voice)

    # ------------------------------------------------------------ agent side

    def on_tool_call(self, event: ToolCallRequest, t: int) -> None:
        self.results.append(self.trace.tool_call(event, t))

    def on_cancel(self, t: int, dropped_samples: int, unheard: str) -> None:
        self.trace.truncated(t, dropped_samples, unheard)
        self.transcript.close(truncated=bool(dropped_samples or unheard), cancelled=True)
        self._utterances()

    def on_usage(self, t: int, usage: UsageDelta) -> None:
        self.trace.usage(t, dataclasses.asdict(usage))

    def on_end_call(self) -> None:
        self.hung_up = True

    def _utterances(self) -> None:
        """Log the agent utterances that closed (ASR reads the delivered frames)."""
        if self.transcript.finished:
            self.trace.utterances(self.now, self.transcript, self._delivered, self.config.asr)

    def _delivered(self, start_ms: int, end_ms: int) -> Int16Array:
        """The agent channel as delivered between two frame boundaries."""
        frame = self.config.frame_ms
        return self.ch1.samples(start_ms // frame, -(-end_ms // frame))

    # ------------------------------------------------------------ end

    def finish(self, reason: EndReason, error: str | None) -> ActionRecord:
        try:
            self._flush()
        except FAULTS as exc:  # e.g. ASR failing on the last words: keep the trace
            message = f"{type(exc).__name__}: {exc}"
            self.trace.error(self.now, message, "episode" if error is None else "finish")
            if error is None:
                reason, error, self.error_kind = "error", message, error_kind(exc)
        line = self.line.close(self.now)
        user, agent = self.ch0.samples(), self.ch1.samples()
        self.trace.channels(self.now, user, agent, line)
        kind = self.error_kind if error is not None else None
        self.trace.end(self.now, reason, error or "", kind)
        return ActionRecord(self.trace.events, reason, error, (user, agent), kind, line)

    def _flush(self) -> None:
        """Play out what the agent had queued (a flood is dropped), then close the transcript."""
        if self.playback.overflowing:
            self.playback.cancel()
        limit = self.now + self.config.flush_limit_ms
        while not self.playback.idle and self.now < limit:
            t = self.now
            delivered = self.playback.pull(self.n, t)
            user = self.timeline.frame(t, self.n)
            self.line.send(user, t)  # the line carries on while the agent finishes
            self.ch0.append(user)
            self.ch1.append(delivered.samples)
            self.transcript.frame(delivered, t, self.playback.idle)
            self._utterances()
            kick()
        self.transcript.close(truncated=False)
        self._utterances()
