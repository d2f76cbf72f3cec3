"""Local backends: each pool worker gets its share of the cores for its speech engines."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import duplexbench.speech._bank as bank_module
from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._backends import InlineBackend, PoolBackend
from duplexbench.campaign._model import EpisodeJob, JobConfig
from duplexbench.items._load import item_checksum, load_item
from duplexbench.speech._bank import use_remote_renderer
from duplexbench.speech._threads import SPEECH_THREADS_ENV, threads_per_worker
from support.fixtures import FIXTURES


def worker_setting(backend: PoolBackend) -> str | None:
    """What a worker process sees (asked through the pool itself)."""
    return backend._pool.submit(os.getenv, SPEECH_THREADS_ENV).result(timeout=120)


def test_pool_workers_get_their_share_of_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SPEECH_THREADS_ENV, raising=False)
    backend = PoolBackend(2)
    try:
        assert worker_setting(backend) == str(threads_per_worker(2))
    finally:
        backend.close()
    assert SPEECH_THREADS_ENV not in os.environ  # the driver's own setting is untouched


def test_pool_workers_keep_what_the_user_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SPEECH_THREADS_ENV, "3")
    backend = PoolBackend(2)
    try:
        assert worker_setting(backend) == "3"
    finally:
        backend.close()


BANK = "__import__('duplexbench.speech._bank', fromlist=['_'])"
INSTALLED = f"getattr({BANK}._REMOTE[0], 'slot', None)"


def test_pool_workers_render_through_the_service_only_when_asked() -> None:
    """Audio runs: each worker's bank sends model-engine clips to the render service."""
    for service, expected in ((True, {0, 1}), (False, {None})):
        backend = PoolBackend(2, render_service=service)
        try:
            slots = {backend._pool.submit(eval, INSTALLED).result(timeout=120) for _ in range(4)}
        finally:
            backend.close()
        assert slots <= expected and slots


def test_inline_episodes_render_piper_clips_in_the_service_only_during_a_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    item = load_item(FIXTURES / "order-revocation.yaml")
    cache = str(tmp_path)
    config = JobConfig(
        "workflow", "fixtures", "oracle", "oracle", CONDITIONS["clean"], 0, speech_cache=cache
    )
    job = EpisodeJob(config, item.model_dump(mode="json"), item_checksum(item), 1, "e/r1")

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("a model engine's clip rendered in the episode's process")

    monkeypatch.setattr(bank_module, "synthesize_checked", refuse)
    backend = InlineBackend(render_service=True)
    try:
        backend.submit(job)  # an empty bank: every clip renders during the episode
        ((_, result),) = backend.wait()
        assert use_remote_renderer(None) is None  # lent to the job only
    finally:
        backend.close()
    assert result.error is None, result.error
    assert "audio.wav" in result.files and len(list(tmp_path.glob("*/*.wav"))) > 5
