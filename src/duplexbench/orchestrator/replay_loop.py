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
from typing import Literal

from duplexbench.agents.audio_protocol import AudioSession, StepAgent
from duplexbench.agents.events import (
    ToolCallRequest,
    UsageDelta,
)
from duplexbench.agents.protocol import (
    ActionPrivileged,
    AgentSession,
    ToolResultMessage,
)
from duplexbench.audio.frames import AudioFrame
from duplexbench.audio.pcm import SAMPLE_RATE, Int16Array, samples_for_ms, sha256_pcm
from duplexbench.items.action import CUED
from duplexbench.orchestrator.agent_events import apply_agent_events, check_flood
from duplexbench.orchestrator.audio_loop import BankSpeech
from duplexbench.orchestrator.blame import agent_code, error_kind
from duplexbench.orchestrator.clock import MediaClock, VirtualClock
from duplexbench.orchestrator.cue import (
    CueController,
    CueDecision,
    CueState,
    RuleCueController,
    TakeoverDetector,
)
from duplexbench.orchestrator.playback import Delivered, Playback
from duplexbench.orchestrator.replay import (
    ActionRecord,
    ActionSetup,
    AgentTranscript,
    ReplayConfig,
    UserTimeline,
)
from duplexbench.orchestrator.replay_trace import ReplayTrace
from duplexbench.orchestrator.tape import FrameTape
from duplexbench.orchestrator.watchdog import FAULTS, kick
from duplexbench.speech.bank import SpeechBank
from duplexbench.speech.segments import render_segment
from duplexbench.trace.events import EndReason, ErrorKind

GENERAL_INSTRUCTIONS = (
    "You are a voice assistant in a live, full-duplex spoken conversation. "
    "Talk naturally, as a person would."
)


class ActionEpisode:
    """One action item x agent x repetition over the full-duplex audio channel."""

    def __init__(
        self,
        setup: ActionSetup,
        agent: StepAgent,
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
        self.clock = clock or VirtualClock()
        self.n = samples_for_ms(self.config.frame_ms)
        self.trace = ReplayTrace(setup, self.config.frame_ms)
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
        speech = BankSpeech(self.bank, self.config.agent_voice)
        return AudioSession(self.session(), self.config.frame_ms, SAMPLE_RATE, speech)

    # ------------------------------------------------------------ run

    def run(self) -> ActionRecord:
        session = self.audio_session()
        self.trace.start(session.session)
        error: str | None = None
        reason: EndReason = "time_limit"
        try:
            self._place("main", 0)
            self.horizon = self.timeline.end_ms + self.config.observe_ms
            if self.item.action in CUED:
                self.horizon = self.item.main_end_ms + self.config.force_after_ms
            with agent_code():
                self.agent.start(session)
            reason = self._loop()
        except FAULTS as exc:  # the agent's fault fails the episode, the harness's is retried
            error, self.error_kind = f"{type(exc).__name__}: {exc}", error_kind(exc)
            self.trace.error(self.now, error, "episode")
            reason = "error"
        finally:
            try:
                self.agent.close()
            except FAULTS as exc:
                self.trace.error(self.now, f"{type(exc).__name__}: {exc}", "agent.close")
        return self._finish(reason, error)

    def _loop(self) -> EndReason:
        while self.now < self.horizon:
            t = self.now
            self.clock.advance_to(t)
            user = self.timeline.frame(t, self.n)
            delivered = self.playback.pull(self.n, t)
            self.ch0.append(user)
            self.ch1.append(delivered.samples)
            self.transcript.frame(delivered, t, self.playback.idle)
            self._utterances()
            if not self.hung_up:
                results, self.results = self.results, []
                with agent_code():
                    events = self.agent.step(AudioFrame(t, user), results)
                apply_agent_events(events, self.playback, self, self.now)
            self._after_frame(delivered)
            if self.hung_up and self.playback.idle and self.now >= self.timeline.end_ms:
                return "agent_ended"
            check_flood(self.playback)
            kick()
        return "user_ended"

    def _after_frame(self, delivered: Delivered) -> None:
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

    def _place(self, part: str, offset: int) -> None:
        fit: Literal["exact", "stretch"] = "stretch" if self.item.source == "extracted" else "exact"
        for seg in self.item.part(part):  # type: ignore[arg-type]
            samples = render_segment(
                self.bank,
                seg.text,
                seg.voice,
                seg.role,
                duration_ms=seg.end_ms - seg.start_ms,
                fit=fit,
            )
            self.timeline.place(samples, offset + seg.start_ms)
            self.trace.segment(seg, offset, sha256_pcm(samples))

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

    def _finish(self, reason: EndReason, error: str | None) -> ActionRecord:
        try:
            self._flush()
        except FAULTS as exc:  # e.g. ASR failing on the last words: keep the trace
            message = f"{type(exc).__name__}: {exc}"
            self.trace.error(self.now, message, "episode" if error is None else "finish")
            if error is None:
                reason, error, self.error_kind = "error", message, error_kind(exc)
        user, agent = self.ch0.samples(), self.ch1.samples()
        self.trace.channels(self.now, user, agent)
        kind = self.error_kind if error is not None else None
        self.trace.end(self.now, reason, error or "", kind)
        return ActionRecord(self.trace.events, reason, error, (user, agent), kind)

    def _flush(self) -> None:
        """Play out what the agent had queued (a flood is dropped), then close the transcript."""
        if self.playback.overflowing:
            self.playback.cancel()
        limit = self.now + self.config.flush_limit_ms
        while not self.playback.idle and self.now < limit:
            t = self.now
            delivered = self.playback.pull(self.n, t)
            self.ch0.append(self.timeline.frame(t, self.n))
            self.ch1.append(delivered.samples)
            self.transcript.frame(delivered, t, self.playback.idle)
            self._utterances()
            kick()
        self.transcript.close(truncated=False)
        self._utterances()
