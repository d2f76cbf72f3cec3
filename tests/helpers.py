"""Test helpers: run one text episode with any agent and score it."""

from __future__ import annotations

from duplexbench.agents.protocol import TextAgent
from duplexbench.items.load import item_checksum
from duplexbench.items.workflow import WorkflowItem
from duplexbench.orchestrator.audio_loop import AudioChannelConfig, AudioEpisode
from duplexbench.orchestrator.text_loop import EpisodeRecord, EpisodeSetup, TextEpisode
from duplexbench.scoring.episode import EpisodeScore, score_episode
from duplexbench.scoring.judge import FieldJudge
from duplexbench.speech.bank import SpeechBank


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
    item: WorkflowItem, agent: TextAgent, judge: FieldJudge | None = None, **kw: object
) -> tuple[EpisodeRecord, EpisodeScore]:
    record = run_episode(item, agent, **kw)  # type: ignore[arg-type]
    return record, score_episode(item, record.events, judge)


def run_audio(
    item: WorkflowItem,
    agent: object,
    *,
    privileged: bool = False,
    voice: str = "synthetic:alto",
    frame_ms: int = 20,
    repetition: int = 0,
    seed: int = 0,
    **config: object,
) -> EpisodeRecord:
    """One audio episode with the fast synthetic voice (unless told otherwise)."""
    setup = EpisodeSetup(
        item, item_checksum(item), "tests", "test-agent", "clean", repetition, seed
    )
    cfg = AudioChannelConfig(frame_ms=frame_ms, user_voice=voice, **config)  # type: ignore[arg-type]
    return AudioEpisode(
        setup,
        agent,
        SpeechBank(),
        privileged=privileged,
        config=cfg,  # type: ignore[arg-type]
    ).run()
