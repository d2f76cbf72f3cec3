"""Local backends: each pool worker gets its share of the cores for its speech engines."""

from __future__ import annotations

import os

import pytest

from duplexbench.campaign.backends import PoolBackend
from duplexbench.speech.threads import SPEECH_THREADS_ENV, threads_per_worker


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
