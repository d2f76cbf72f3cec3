"""A person on the line: the workflow side of the frame loop with the caller's audio
from a phone (the browser page of `duplexbench call`) instead of the simulator.

Everything else is the simulated episode's: the same Workbench, tools, approvals,
hearing of the agent (acts at the time their words play, ASR for untranscribed
audio), floor events derived from the two channels after the call, and the same
trace, so a human episode scores exactly as a simulated one (docs/human-caller.md).

What differs is how the caller's words become user events. The harness cuts the
caller's channel into utterances and reads each with ASR (`_caller_ear.py`); the
`CallerReader` of `users` reads the transcript as plans (facts given, a
correction, an approval, a revocation) whose effects apply when the words are
understood. Two rules keep that fair to the agent:

- **Tool calls wait for the caller's words.** While an utterance of the caller is
  open or being transcribed, the agent's tool calls are held and run once it is
  read: an approval said aloud is in force before the action it approves (a
  simulated caller's approval takes effect at speech onset), and a revocation
  before the commit it stops.
- **A call that ends early is incomplete.** The page closing or its connection
  dropping mid-call raises `CallerGone`: a harness error, saved with its trace,
  never scored as a pass. The caller's End button ends the call as `user_ended`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np

from duplexbench.agents import (
    AgentEvent,
    AudioSession,
    StepAgent,
    StreamingAgent,
    ToolCallRequest,
    ToolResultMessage,
)
from duplexbench.audio import SAMPLE_RATE, Int16Array, samples_for_ms
from duplexbench.orchestrator._agent_events import apply_agent_events, check_flood
from duplexbench.orchestrator._audio_loop import BankSpeech
from duplexbench.orchestrator._audio_side import AudioSide
from duplexbench.orchestrator._caller_ear import CallerEar, HeardUtterance
from duplexbench.orchestrator._clock import MediaClock, RealtimeClock
from duplexbench.orchestrator._episode import EpisodeRecord, EpisodeSetup
from duplexbench.orchestrator._floor_record import derive_floor_events
from duplexbench.orchestrator._frame_loop import EndEpisode, link_for, play
from duplexbench.orchestrator._hearing import Hearing
from duplexbench.orchestrator._playback import Playback
from duplexbench.orchestrator._tape import FrameTape
from duplexbench.orchestrator._watchdog import FAULTS, kick
from duplexbench.speech import AGENT_VOICE, SpeechBank
from duplexbench.trace import (
    ConditionSetupData,
    EndReason,
    ErrorKind,
    TraceEvent,
    UserUtteranceData,
)
from duplexbench.users import (
    CallerReader,
    CallHistory,
    CardProgress,
    Heard,
    Plan,
    RoleCard,
    due_events,
    role_card,
)
from duplexbench.workbench import WorkbenchState

HUMAN_CONDITION = "human"
"""The condition name of every human episode (and of its run directory)."""


class CallerGone(Exception):
    """The caller's page closed or lost its connection mid-call: an incomplete episode."""


class CallerPhone(Protocol):
    """The caller's end of the line (`duplexbench call` implements it over the browser)."""

    def read(self, n: int) -> Int16Array:
        """The caller's next `n` samples at the harness rate (silence when none came)."""
        ...

    def play(self, samples: Int16Array) -> None:
        """Agent audio to the caller's ear."""
        ...

    def ended(self) -> Literal["hung_up", "dropped"] | None:
        """The caller pressed End call ("hung_up") or the page went away ("dropped")."""
        ...

    def show_event(self, event: TraceEvent, state: WorkbenchState) -> None:
        """A new trace event, with the Workbench after it (transcript, artifact)."""
        ...

    def show_card(self, card: RoleCard) -> None:
        """The caller's role card, as it stands now."""
        ...


@dataclass(frozen=True)
class HumanCallConfig:
    """A human call's settings (media milliseconds)."""

    frame_ms: int = 20
    time_limit_ms: int = 30 * 60 * 1000
    idle_limit_ms: int = 300_000
    max_buffer_ms: int = 300_000
    flush_limit_ms: int = 10_000
    asr: str = "whisper"
    """ASR engine for the caller's words and for agent audio without a transcript."""
    end_of_turn_ms: int = 700
    """The caller's pause that ends an utterance."""
    asr_in_thread: bool = True
    """Read the caller's words in a worker thread, so the realtime clock never waits on
    ASR; False reads them at once on the loop's thread (a virtual clock then gives
    the same trace every run: tests, replays of a recorded caller)."""


class HumanEpisode(AudioSide):
    """One workflow episode with a person as the caller (module docstring)."""

    def __init__(
        self,
        setup: EpisodeSetup,
        agent: StepAgent | StreamingAgent,
        bank: SpeechBank,
        phone: CallerPhone,
        *,
        privileged: bool = False,
        config: HumanCallConfig | None = None,
        clock: MediaClock | None = None,
    ) -> None:
        super().__init__(setup, privileged)
        self.agent, self.bank, self.phone = agent, bank, phone
        self.link = link_for(agent)
        self.config = config or HumanCallConfig()
        self.clock = clock or RealtimeClock()
        self.n = samples_for_ms(self.config.frame_ms)
        self.reader = CallerReader(self.item.user)
        self.ear = CallerEar(
            self.config.asr,
            self.config.frame_ms,
            self.config.end_of_turn_ms,
            threaded=self.config.asr_in_thread,
        )
        self.playback = Playback(self.config.max_buffer_ms)
        frames = -(-self.config.time_limit_ms // self.config.frame_ms)
        self.ch0, self.ch1 = FrameTape(self.n, frames), FrameTape(self.n, frames)
        self.hearing = Hearing(
            self.recorder,
            self.observer,
            self,
            frame_ms=self.config.frame_ms,
            asr=self.config.asr,
            delivered=self.ch1.samples,
        )
        self.results: list[ToolResultMessage] = []
        self.held: list[tuple[ToolCallRequest, int]] = []
        self.hung_up = False
        self.last_voice_ms = 0
        self.error_kind: ErrorKind | None = None
        self.history = _History()
        self._shown = 0
        self._card: CardProgress | None = None

    def run(self) -> EpisodeRecord:
        return play(self, self.link, self.clock)

    # ------------------------------------------------------------ the loop's side

    @property
    def now(self) -> int:
        return len(self.ch0) * self.config.frame_ms

    def open(self) -> AudioSession:
        session = AudioSession(
            self.session(),
            self.config.frame_ms,
            SAMPLE_RATE,
            BankSpeech(self.bank, str(AGENT_VOICE), self.config.asr),
        )
        self.emit_start(session.session, "audio")
        persona = self.item.user.persona
        data = ConditionSetupData(
            condition=HUMAN_CONDITION,
            persona={"name": persona.name, "verbosity": persona.verbosity, "human": True},
            turn_taking={},
            simulator={"user": "human", "asr": self.config.asr},
        )
        self.recorder.emit(0, data)
        return session

    def begin(self) -> None:
        self._publish()

    def running(self) -> bool:
        return self.now < self.config.time_limit_ms

    out_of_time: EndReason = "time_limit"

    def frame(self, t: int) -> Int16Array:
        user = self.phone.read(self.n)
        self.ear.push(user, t)
        delivered = self.playback.pull(self.n, t)
        self.ch0.append(user)
        self.ch1.append(delivered.samples)
        if delivered.active:
            self.phone.play(delivered.samples)
        if delivered.active or self.ear.speaking:
            self.last_voice_ms = self.now
        self.hearing.frame(delivered, t, self.playback.idle)
        return user

    def handle(self, events: Sequence[AgentEvent], t: int) -> None:
        apply_agent_events(events, self.playback, self, t)

    def after_frame(self) -> EndReason | None:
        ended = self.phone.ended()
        if ended == "dropped":
            raise CallerGone("the caller's page closed or lost its connection mid-call")
        if ended == "hung_up":
            raise EndEpisode("user_ended")
        if self.hung_up and self.playback.idle:
            return "agent_ended"
        check_flood(self.playback)
        if self.now - self.last_voice_ms >= self.config.idle_limit_ms:
            return "idle_limit"
        for utterance in self.ear.take():
            self._understood(utterance, self.now)
        if self.held and not self.ear.busy:
            held, self.held = self.held, []
            for event, _ in held:
                self._run_tool(event, self.now)
        self._publish()
        return None

    def finish(self, reason: EndReason, error: str | None) -> EpisodeRecord:
        """After the call: read the caller's last words, play out the agent's queue, end."""
        try:
            for utterance in self.ear.close(self.now):
                self._understood(utterance, self.now)
            self._flush()
        except FAULTS as exc:
            if error is None:
                reason, error = "error", self.failed(exc)
            else:
                self.emit_error(self.now, f"{type(exc).__name__}: {exc}", "finish")
        user, agent = self.ch0.samples(), self.ch1.samples()
        frame_ms = self.config.frame_ms
        derive_floor_events(self.recorder, self.item, (user, agent), t=self.now, frame_ms=frame_ms)
        kind = self.error_kind if error is not None else None
        self.emit_end(self.now, reason, error or "", kind)
        self._publish()
        return self.record(reason, error, (user, agent), kind)

    # ------------------------------------------------------------ the agent's side

    def on_tool_call(self, event: ToolCallRequest, t: int) -> None:
        if self.ear.busy:
            self.held.append((event, t))
        else:
            self._run_tool(event, t)

    def _run_tool(self, event: ToolCallRequest, t: int) -> None:
        run = self.run_tool(event.name, event.arguments, event.call_id, t)
        self.results.append(run.result)
        self.history.tools.append(event.name)
        self.history.fields += run.fields
        self.hearing.add_acts(run.acts, t)

    def heard_acts(self, acts: list[str], t: int) -> None:
        super().heard_acts(acts, t)
        self.history.acts += acts

    def check_barge_ins(self, t: int) -> None:
        """The simulator's barge-ins are the person's to make: nothing to schedule."""

    # ------------------------------------------------------------ the caller's words

    def _understood(self, utterance: HeardUtterance, t: int) -> None:
        """The caller's words, read: log them and apply what they say at `t`."""
        if not utterance.text:
            return  # a cough, a breath: ASR heard no words
        heard = Heard(t, tuple(self.hearing.acts_since), self.history.frozen(t))
        plans = self.reader.read(utterance.text, heard)
        self.recorder.emit(
            t,
            UserUtteranceData(
                text=utterance.text, end_ms=t, plan_ids=[p.plan_id for p in plans], kind="turn"
            ),
        )
        for plan in plans:
            self.apply_plan(plan, t)
            self.history.note(plan)
        self.last_plans = [p.plan_id for p in plans]
        self.backchanneled = False
        self.hearing.user_took_turn()

    def _flush(self) -> None:
        limit = self.now + self.config.flush_limit_ms
        while not self.playback.idle and self.now < limit:
            t = self.now
            silence = np.zeros(self.n, dtype=np.int16)
            delivered = self.playback.pull(self.n, t)
            self.ch0.append(silence)
            self.ch1.append(delivered.samples)
            self.hearing.frame(delivered, t, self.playback.idle)
            kick()
        self.hearing.close(self.now)

    # ------------------------------------------------------------ what the caller sees

    def _publish(self) -> None:
        """New trace events and the role card to the caller's page."""
        events = self.recorder.events
        while self._shown < len(events):
            self.phone.show_event(events[self._shown], self.bench.state)
            self._shown += 1
        history = self.history.frozen(self.now)
        progress = self.history.progress(due_events(self.item.user, history))
        if progress != self._card:
            self._card = progress
            self.phone.show_card(role_card(self.item, progress))


@dataclass
class _History:
    """What happened in the call so far, for reading the caller and for the role card."""

    acts: list[str]
    tools: list[str]
    fields: list[str]
    said: list[str]
    granted: list[str]
    fired: list[str]
    revealed: list[str]
    revoked: list[str]

    def __init__(self) -> None:
        self.acts, self.tools, self.fields, self.said = [], [], [], []
        self.granted, self.fired, self.revealed, self.revoked = [], [], [], []

    def note(self, plan: Plan) -> None:
        self.said.append(plan.plan_id)
        self.revealed += [r.fact for r in plan.reveals]
        if plan.event is not None:
            self.fired.append(plan.event.id)
        if plan.approval is not None:
            self.granted.append(plan.approval.id)
        if plan.revokes is not None:
            self.revoked.append(plan.revokes)
            self.granted = [g for g in self.granted if g != plan.revokes]

    def frozen(self, t: int) -> CallHistory:
        return CallHistory(
            t_ms=t,
            acts=tuple(self.acts),
            tools=tuple(self.tools),
            fields=tuple(self.fields),
            said_plans=tuple(self.said),
            granted=tuple(self.granted),
            fired=tuple(self.fired),
        )

    def progress(self, due: Sequence[str]) -> CardProgress:
        return CardProgress(
            revealed=frozenset(self.revealed),
            fired=frozenset(self.fired),
            due=frozenset(due) - frozenset(self.fired),
            granted=frozenset(self.granted),
            revoked=frozenset(self.revoked),
        )
