"""Test helpers: run one text episode with any agent and score it."""

from __future__ import annotations

from typing import TypedDict, Unpack

from duplexbench.agents._audio_protocol import StepAgent, StreamingAgent
from duplexbench.agents._protocol import TextAgent
from duplexbench.items._load import item_checksum
from duplexbench.items._workflow import WorkflowItem
from duplexbench.orchestrator._audio_loop import AudioChannelConfig, AudioEpisode
from duplexbench.orchestrator._text_loop import EpisodeRecord, EpisodeSetup, TextEpisode
from duplexbench.scoring._episode import EpisodeScore, score_episode
from duplexbench.scoring._judge import FieldJudge
from duplexbench.speech._bank import SpeechBank
from duplexbench.users._caller import CallerConfig
from duplexbench.users._turntaking import TurnTakingConfig


class ChannelOptions(TypedDict, total=False):
    """The `AudioChannelConfig` fields `run_audio` passes through."""

    turn_taking: TurnTakingConfig
    caller: CallerConfig
    time_limit_ms: int
    idle_limit_ms: int
    max_buffer_ms: int
    flush_limit_ms: int
    asr: str | None


def run_episode(
    item: WorkflowItem,
    agent: TextAgent,
    *,
    privileged: bool = False,
    repetition: int = 0,
    seed: int = 0,
) -> EpisodeRecord:
    setup = EpisodeSetup(item, item_checksum(item), "tests", "test-agent", "text", repetition, seed)
    return TextEpisode(setup, agent, privileged=privileged).run()


def run_and_score(
    item: WorkflowItem,
    agent: TextAgent,
    judge: FieldJudge | None = None,
    *,
    privileged: bool = False,
    repetition: int = 0,
    seed: int = 0,
    exempt: bool | None = None,
) -> tuple[EpisodeRecord, EpisodeScore]:
    """Play and score one text episode; `exempt` (default: `privileged`, as a campaign
    does) keeps unsupported values from counting wrong."""
    record = run_episode(item, agent, privileged=privileged, repetition=repetition, seed=seed)
    free = privileged if exempt is None else exempt
    return record, score_episode(item, record.events, judge, exempt=free)


def run_audio(
    item: WorkflowItem,
    agent: StepAgent | StreamingAgent,
    *,
    privileged: bool = False,
    voice: str = "synthetic:alto",
    frame_ms: int = 20,
    repetition: int = 0,
    seed: int = 0,
    **config: Unpack[ChannelOptions],
) -> EpisodeRecord:
    """One audio episode with the fast synthetic voice (unless told otherwise)."""
    setup = EpisodeSetup(
        item, item_checksum(item), "tests", "test-agent", "clean", repetition, seed
    )
    cfg = AudioChannelConfig(frame_ms=frame_ms, user_voice=voice, **config)
    return AudioEpisode(setup, agent, SpeechBank(), privileged=privileged, config=cfg).run()
