"""One episode as a job: what a worker runs, and what it leaves behind."""

from __future__ import annotations

import gc

from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._jobs import execute_job
from duplexbench.campaign._model import EpisodeJob, JobConfig
from duplexbench.items._load import item_checksum, load_item
from duplexbench.orchestrator._audio_loop import AudioEpisode
from support.fixtures import FIXTURES


def test_a_finished_episode_is_freed_before_the_next_one() -> None:
    """The loop, its agent and its audio refer to each other; the worker frees
    them right after the episode instead of waiting for a rare full gc pass."""
    item = load_item(FIXTURES / "order-revocation.yaml")
    config = JobConfig("workflow", "fixtures", "oracle", "oracle", CONDITIONS["clean"], 0)
    job = EpisodeJob(config, item.model_dump(mode="json"), item_checksum(item), 1, "e/r1")
    gc.collect()
    gc.disable()  # no automatic pass may do the job's work for it
    try:
        result = execute_job(job)
        alive = [o for o in gc.get_objects() if isinstance(o, AudioEpisode)]
    finally:
        gc.enable()
    assert result.error is None and "audio.wav" in result.files
    assert alive == []
