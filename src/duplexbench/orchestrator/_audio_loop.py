"""The full-duplex audio episode loop on a media clock.

Every frame (20 ms by default; 40 and 200 ms work): the user's next frame
goes to the agent (channel 0), the agent's events are handled at that media
time (tool calls run on the Workbench, audio is queued), one frame of queued
agent audio is delivered (channel 1), the user hears it (VAD and the words
played so far) and decides what to do next. Approvals and revocations take
effect at the onset of the user speech carrying them. At the end, buffered
agent audio is flushed, the channels are saved and floor events derived.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from duplexbench.agents import (
    AgentEvent,
    AgentSession,
    AudioSession,
    StepAgent,
    StreamingAgent,
    ToolCallRequest,
    ToolResultMessage,
)
from duplexbench.audio import (
    SAMPLE_RATE,
    Int16Array,
    StreamingVad,
    cap_pauses,
    samples_for_ms,
    sha256_pcm,
    spoken_pieces,
)
from duplexbench.orchestrator._agent_events import apply_agent_events, check_flood
from duplexbench.orchestrator._audio_side import AudioSide
from duplexbench.orchestrator._blame import harness_code
from duplexbench.orchestrator._caller_line import CallerLine
from duplexbench.orchestrator._clock import MediaClock
from duplexbench.orchestrator._episode import EpisodeRecord, EpisodeSetup
from duplexbench.orchestrator._floor_record import derive_floor_events
from duplexbench.orchestrator._frame_loop import EndEpisode, default_clock, link_for, play
from duplexbench.orchestrator._hearing import Hearing
from duplexbench.orchestrator._playback import Delivered, Playback
from duplexbench.orchestrator._tape import FrameTape
from duplexbench.orchestrator._watchdog import FAULTS, kick
from duplexbench.speech import (
    AGENT_LEAD_MS,
    AGENT_MAX_PAUSE_MS,
    AGENT_TRAIL_MS,
    DEFAULT_VOICE,
    Clip,
    SpeechBank,
    VoiceRef,
    get_asr,
)
from duplexbench.trace import (
    EndReason,
    ErrorKind,
    UserUtteranceData,
    UserYieldedData,
)
from duplexbench.users import (
    NEUTRAL,
    CallerConfig,
    Cue,
    Observation,
    Plan,
    Realized,
    Realizer,
    RepairTraits,
    Sound,
    TurnTakingConfig,
    UserFloor,
    answers_per_turn,
    freeze_caller,
)
from duplexbench.values import SPELL_GAP_MS


@dataclass(frozen=True)
class AudioChannelConfig:
    """The audio channel's settings (media milliseconds)."""

    frame_ms: int = 20
    turn_taking: TurnTakingConfig = field(default_factory=TurnTakingConfig)
    user_voice: str | None = None
    """Voice of the user (default: the item persona's voice, else the default voice)."""
    caller: CallerConfig = field(default_factory=CallerConfig)
    """Caller personas, line effects and out-of-turn sounds (default: neutral, clean line)."""
    time_limit_ms: int = 20 * 60 * 1000
    idle_limit_ms: int = 120_000
    max_buffer_ms: int = 300_000
    flush_limit_ms: int = 60_000
    asr: str | None = "whisper"
    """ASR engine for agent audio that comes without a transcript (None: leave it unread)."""

    def __post_init__(self) -> None:
        if self.frame_ms <= 0 or self.frame_ms % 10:
            raise ValueError(f"frame_ms must be a positive multiple of 10, got {self.frame_ms}")


PLAN_GAP_MS = 150
"""Silence between the clips of one user turn (one clip per plan)."""


def _join(parts: list[Int16Array], gap: int) -> Int16Array:
    pieces: list[Int16Array] = []
    for i, part in enumerate(parts):
        if i:
            pieces.append(np.zeros(gap, dtype=np.int16))
        pieces.append(part)
    return np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int16)


class BankSpeech:
    """The SpeechKit handed to local agents: TTS through the shared speech bank, ASR
    through the harness's engine (`asr`)."""

    def __init__(self, bank: SpeechBank, default_voice: str, asr: str = "whisper") -> None:
        self.bank, self.default_voice, self.asr = bank, default_voice, asr

    def synthesize(self, text: str, voice: str | None = None) -> Int16Array:
        with harness_code():  # a TTS fault is the harness's, even inside the agent's step
            clip = self.bank.clip(text, voice or self.default_voice)
            return cap_pauses(
                clip.samples, AGENT_MAX_PAUSE_MS, lead_ms=AGENT_LEAD_MS, trail_ms=AGENT_TRAIL_MS
            )

    def transcribe(self, samples: Int16Array) -> str:
        with harness_code():  # the lent engine's fault is the harness's too
            return get_asr(self.asr).transcribe(samples).text


class AudioEpisode(AudioSide):
    """One workflow episode over the full-duplex audio channel, with a step or streaming agent
    (`frame_loop.play` drives it; a streaming agent gets a `RealtimeClock` by default)."""

    def __init__(
        self,
        setup: EpisodeSetup,
        agent: StepAgent | StreamingAgent,
        bank: SpeechBank,
        *,
        privileged: bool = False,
        config: AudioChannelConfig | None = None,
        clock: MediaClock | None = None,
    ) -> None:
        super().__init__(setup, privileged)
        self.agent = agent
        self.link = link_for(agent)
        self.bank = bank
        self.config = config or AudioChannelConfig()
        self.clock = clock or default_clock(self.link)
        self.n = samples_for_ms(self.config.frame_ms)
        voice = self.config.user_voice or self.item.user.persona.voice
        voice = str(DEFAULT_VOICE if voice in ("", "default") else VoiceRef.parse(voice))
        self.caller = freeze_caller(
            self.config.caller, self.config.turn_taking, self.item.id, setup.repetition_seed, voice
        )
        self.voice = self.caller.voice
        self.agent_voice = self.caller.agent_voice(voice)  # lent to local agents
        self.realizer = Realizer(
            self.item.id,
            self.item.user,
            setup.seed,
            setup.repetition_seed,
            verbosity=self.caller.persona.verbosity,
        )
        self.policy.fit_caller(
            answers_per_turn(self.caller.persona.verbosity)
            if self.caller.persona.name != NEUTRAL
            else self.policy.max_answers,
            RepairTraits.of(self.caller.persona),
        )
        self.line = CallerLine(self.caller, self.recorder, bank)
        rng = random.Random(self.caller.seed)
        self.floor = UserFloor(self.caller.turn_taking, self.n, rng=rng)
        self.floor.decide_interrupt = self.line.decider(self.item.user.goal, lambda: self.now)
        self.playback = Playback(self.config.max_buffer_ms)
        self.ear = StreamingVad(sample_rate=SAMPLE_RATE)
        frames = -(-self.config.time_limit_ms // self.config.frame_ms)
        self.ch0 = FrameTape(self.n, frames)
        self.ch1 = FrameTape(self.n, frames)
        self.hearing = Hearing(
            self.recorder,
            self.observer,
            self,
            frame_ms=self.config.frame_ms,
            asr=self.config.asr,
            delivered=self.ch1.samples,
        )
        self.results: list[ToolResultMessage] = []
        self.hung_up = False
        self.tools_since: list[str] = []
        self.fields_since: list[str] = []
        self.last_voice_ms = 0
        self.error_kind: ErrorKind | None = None
        """Whose fault the episode's error is (`orchestrator/_blame.py`); None: no error."""

    # ------------------------------------------------------------ run

    def audio_session(self) -> AudioSession:
        return AudioSession(
            self.session(),
            self.config.frame_ms,
            SAMPLE_RATE,
            BankSpeech(self.bank, self.agent_voice),
        )

    def emit_start(self, session: AgentSession, channel: Literal["text", "audio"]) -> None:
        super().emit_start(session, channel)
        self.line.emit_setup(self.setup.condition, self.simulator, self.agent_voice)

    def run(self) -> EpisodeRecord:
        return play(self, self.link, self.clock)

    # ------------------------------------------------------------ the loop's side (frame_loop)

    def open(self) -> AudioSession:
        session = self.audio_session()
        self.emit_start(session.session, "audio")
        return session

    def begin(self) -> None:
        self._say(self.policy.opening(), 0)

    def running(self) -> bool:
        return self.now < self.config.time_limit_ms

    out_of_time: EndReason = "time_limit"

    def finish(self, reason: EndReason, error: str | None) -> EpisodeRecord:
        """After the call: drop a flood, flush queued audio, derive floor events, end."""
        try:
            if self.playback.overflowing:
                self.hearing.cut(self.now, *self.playback.cancel())
            self._flush()
        except FAULTS as exc:  # e.g. ASR failing on the last words: keep the trace
            if error is None:
                reason, error = "error", self.failed(exc)
            else:
                self.emit_error(self.now, f"{type(exc).__name__}: {exc}", "finish")
        line = self.line.close(self.now)
        audio = self._finish_audio(line)
        kind = self.error_kind if error is not None else None
        self.emit_end(self.now, reason, error or "", kind)
        record = self.record(reason, error, audio, kind)
        record.line = line
        return record

    @property
    def now(self) -> int:
        return len(self.ch0) * self.config.frame_ms

    def frame(self, t: int) -> Int16Array:
        user, sent = self.user_frame(t)
        self._deliver(user, self.playback.pull(self.n, t), t)
        return sent

    def after_frame(self) -> EndReason | None:
        """Check the limits and let the user act.

        Within a frame [t, t+F): both channels are delivered and heard first; the
        agent, having heard the frame, acts at t+F (its audio plays from t+F on).
        """
        if self.hung_up and self.playback.idle:
            return "agent_ended"
        check_flood(self.playback)
        if self.now - self.last_voice_ms >= self.config.idle_limit_ms:
            return "idle_limit"
        self._user_turn(self.now)
        return None

    def user_frame(self, t: int) -> tuple[Int16Array, Int16Array]:
        """The user's clean frame starting at `t` and the frame the agent receives."""
        clean = self.floor.frame()
        return clean, self.line.send(clean, t)

    # ------------------------------------------------------------ agent side

    def handle(self, events: Sequence[AgentEvent], t: int) -> None:
        apply_agent_events(events, self.playback, self, t)
        if events:
            self.check_barge_ins(t)

    def on_tool_call(self, event: ToolCallRequest, t: int) -> None:
        run = self.run_tool(event.name, event.arguments, event.call_id, t)
        self.results.append(run.result)
        self.tools_since.append(event.name)
        self.fields_since += run.fields
        self.hearing.add_acts(run.acts, t)

    def _deliver(self, user: Int16Array, delivered: Delivered, t: int) -> None:
        self.ch0.append(user)
        self.ch1.append(delivered.samples)
        self.ear.push(delivered.samples)
        if delivered.active or self.floor.speaking is not None:
            self.last_voice_ms = self.now
        self.hearing.frame(delivered, t, self.playback.idle)

    # ------------------------------------------------------------ user side

    def observation(self, agent_spoke: bool = True) -> Observation:
        return Observation(
            self.now,
            tuple(self.hearing.acts_since),
            tuple(self.tools_since),
            tuple(self.fields_since),
            agent_spoke,
            tuple(self.hearing.heard_since),
        )

    def check_barge_ins(self, t: int) -> None:
        for plan in self.policy.due_barge_ins(self.observation()):
            offset = plan.event.trigger.offset_ms if plan.event else 0
            self.floor.schedule(t + offset, [plan])

    def _user_turn(self, now: int) -> None:
        if self.policy.has_timed_events():
            self.check_barge_ins(now)
        cue = self.floor.after_frame(
            now,
            self.ear.speaking,
            self.ear.silence_ms,
            self.ear.speech_ms,
            self.hearing.listening(),
        )
        if cue is Cue.FINISHED:
            self._finished(now)
        elif cue is Cue.YIELDED:
            s = self.floor.finished
            assert s is not None
            data = UserYieldedData(plan_ids=s.plan_ids, dropped_ms=self.floor.dropped_ms(s))
            self.recorder.emit(now, data)
        elif cue is Cue.BARGE_IN:
            self._say(self.floor.due(now), now)
        elif cue is Cue.REPEAT:
            plans, self.floor.interrupted = self.floor.interrupted, []
            self._say(plans, now)
        elif cue in (Cue.REPLY, Cue.NUDGE):
            self._say(self.policy.react(self.observation(cue is Cue.REPLY)), now)
        elif cue is Cue.BACKCHANNEL:
            self._say([self.policy.backchannel()], now)
        elif cue is Cue.INTERRUPT:
            self._say(self.policy.react(self.observation()), now)
        elif self.floor.speaking is None:
            sound = self.line.due_sound(now, True)
            if sound is not None:
                self._sound(sound, now)

    def _sound(self, sound: Sound, t: int) -> None:
        """An out-of-turn sound (a cough, a side remark): not a turn, nothing to act on."""
        samples = self.line.say_sound(sound, t)
        act = "vocal_tic" if sound.kind == "vocal_tic" else "aside"
        self.backchanneled = True  # not a turn (a privileged agent knows to keep the floor)
        self.floor.start(samples, [Plan(f"sound:{sound.kind}", act)], t)

    def _finished(self, now: int) -> None:
        s = self.floor.finished
        assert s is not None
        self.policy.utterance_finished(s.plan_ids)
        self.check_barge_ins(now)
        if any(p.act == "end" for p in s.plans):
            raise EndEpisode(
                "agent_idle" if self.policy.end_reason == "agent_idle" else "user_ended"
            )

    def _say(self, plans: list[Plan], t: int) -> None:
        """Start speaking `plans` at media time `t` (effects at onset)."""
        if not plans:
            return
        for plan in plans:
            self.apply_plan(plan, t)
        realized = [self.realizer.realize_plan(p) for p in plans]
        spoken = [self._clips(r) for r in realized]
        parts = [
            spoken_pieces([c.samples for c in clips], SPELL_GAP_MS)
            if r.pieces
            else clips[0].samples
            for r, clips in zip(realized, spoken, strict=True)
        ]
        samples = _join(parts, samples_for_ms(PLAN_GAP_MS))
        self.recorder.emit(
            t,
            UserUtteranceData(
                text=" ".join(r.text for r in realized),
                end_ms=t + len(samples) * 1000 // SAMPLE_RATE,
                plan_ids=[p.plan_id for p in plans],
                variant_ids=[r.variant_id for r in realized],
                voice=self.voice,
                clips=[c.sha256 for clips in spoken for c in clips],
                audio_sha256=sha256_pcm(samples),
                kind="backchannel" if all(p.act == "backchannel" for p in plans) else "turn",
            ),
        )
        self.backchanneled = all(p.act == "backchannel" for p in plans)
        if not self.backchanneled:
            self.last_plans = [p.plan_id for p in plans]
            self.hearing.user_took_turn()
            self.tools_since, self.fields_since = [], []
        self.floor.start(samples, plans, t)
        if any(p.approval is not None for p in plans):
            self.check_barge_ins(t)

    def _clips(self, realized: Realized) -> list[Clip]:
        """One plan's words in the caller's voice: one clip, or a spelled value's pieces
        (said with a pause of `SPELL_GAP_MS` between them: `spoken_pieces`)."""
        pieces = realized.pieces or (realized.text,)
        return [self.line.clip(p, realized.speed) for p in pieces]

    # ------------------------------------------------------------ end

    def _flush(self) -> None:
        """Play out what the agent had queued: nothing at the end of a call is lost."""
        limit = self.now + self.config.flush_limit_ms
        self.floor.speaking = None
        while not self.playback.idle and self.now < limit:
            t = self.now
            silence = np.zeros(self.n, dtype=np.int16)
            self.line.send(silence, t)  # the line carries on while the agent finishes
            self._deliver(silence, self.playback.pull(self.n, t), t)
            kick()
        self.hearing.close(self.now)

    def _finish_audio(self, line: Int16Array | None) -> tuple[Int16Array, Int16Array]:
        user, agent = self.ch0.samples(), self.ch1.samples()
        frame_ms = self.config.frame_ms
        channels = (user, agent)
        derive_floor_events(
            self.recorder, self.item, channels, t=self.now, frame_ms=frame_ms, line=line
        )
        return user, agent
