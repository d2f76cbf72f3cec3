"""Running one episode of a campaign on the right channel and saving its files."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from duplexbench.agents import AgentInfo, AgentSpec, StepAgent, StreamingAgent, TextAgent
from duplexbench.audio import SAMPLE_RATE, write_wav
from duplexbench.campaign._conditions import Condition
from duplexbench.campaign._preflight import preflight
from duplexbench.campaign._rundir import write_model
from duplexbench.items import WorkflowItem
from duplexbench.orchestrator import (
    AudioChannelConfig,
    AudioEpisode,
    EpisodeRecord,
    EpisodeSetup,
    RealtimeClock,
    TextEpisode,
)
from duplexbench.speech import DEFAULT_VOICE, SpeechBank, VoiceRef
from duplexbench.trace import write_events
from duplexbench.users import CallerConfig, DeciderConfig


@dataclass(frozen=True)
class EpisodeRunner:
    """Everything needed to run any episode of one (agent, condition)."""

    info: AgentInfo
    spec: AgentSpec
    condition: Condition
    frame_ms: int = 20
    bank: SpeechBank | None = None
    realtime_speed: float = 1.0
    """Pace of the RealtimeClock for streaming (network) agents; 1.0 = wall-clock speed."""
    decider: DeciderConfig | None = None
    """Optional LLM decision model for the user's interruptions (natural turn-taking)."""
    noise_dir: str | None = None
    """Folder of noise/burst recordings for conditions with line effects."""
    voice_fallback: bool = False
    """Personas whose engine is missing speak with their fallback voice."""

    @property
    def caller(self) -> CallerConfig:
        return replace(
            self.condition.caller,
            decider=self.decider,
            noise_dir=self.noise_dir,
            voice_fallback=self.voice_fallback,
        )

    def check(self, items: list[WorkflowItem]) -> None:
        """Fail fast before the first episode (`campaign/_preflight.py`)."""
        voices = [self.voice_of(item) for item in items]
        condition = replace(self.condition, caller=self.caller)
        preflight(self.info, self.spec, condition, voices, self.noise_dir)

    def voice_of(self, item: WorkflowItem) -> str:
        voice = self.condition.user_voice or item.user.persona.voice
        return str(DEFAULT_VOICE if voice in ("", "default") else VoiceRef.parse(voice))

    def run(self, setup: EpisodeSetup) -> EpisodeRecord:
        agent = self.info.create(self.spec, self.condition.channel)
        if self.condition.channel == "text":
            assert isinstance(agent, TextAgent)
            return TextEpisode(setup, agent, privileged=self.info.privileged).run()
        assert self.bank is not None
        config = AudioChannelConfig(
            frame_ms=self.frame_ms,
            turn_taking=self.condition.turn_taking,
            user_voice=self.condition.user_voice,
            caller=self.caller,
        )
        assert isinstance(agent, StepAgent | StreamingAgent)
        clock = (
            RealtimeClock(speed=self.realtime_speed) if isinstance(agent, StreamingAgent) else None
        )
        episode = AudioEpisode(
            setup, agent, self.bank, privileged=self.info.privileged, config=config, clock=clock
        )
        return episode.run()


def save_episode(folder: Path, record: EpisodeRecord) -> None:
    """events.jsonl, workbench.json and (audio channel) the stereo audio.wav, plus
    user_line.wav (the user channel as the agent received it) on a degraded line."""
    if record.audio is not None:
        user, agent = record.audio
        write_wav(folder / "audio.wav", [user, agent], SAMPLE_RATE)
    if record.line is not None:
        write_wav(folder / "user_line.wav", [record.line], SAMPLE_RATE)
    write_model(folder / "workbench.json", record.state)
    write_events(folder / "events.jsonl", record.events)
