"""The speech engines' thread policy: ASR follows cores / workers, TTS is fixed, env overrides."""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os

import pytest

from duplexbench.speech import _threads as threads
from duplexbench.speech._threads import (
    ASR_THREADS_ENV,
    MAX_DEFAULT,
    NATIVE_THREAD_VARS,
    SPEECH_THREADS_ENV,
    TTS_DEFAULT,
    TTS_THREADS_ENV,
    speech_threads,
    threads_per_worker,
    use_worker_share,
    worker_environment,
)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in (ASR_THREADS_ENV, SPEECH_THREADS_ENV, TTS_THREADS_ENV):
        monkeypatch.setenv(name, "")  # recorded, so what use_worker_share sets is undone
        monkeypatch.delenv(name)
    return monkeypatch


def with_cores(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    monkeypatch.setattr(threads, "cores", lambda: n)


def test_workers_share_the_cores(clean_env: pytest.MonkeyPatch) -> None:
    with_cores(clean_env, 2)
    assert [threads_per_worker(w) for w in (1, 2, 3, 0)] == [2, 1, 1, 2]
    with_cores(clean_env, 64)
    assert threads_per_worker(1) == MAX_DEFAULT and threads_per_worker(16) == 4


def test_defaults_asr_every_core_tts_one_thread(clean_env: pytest.MonkeyPatch) -> None:
    with_cores(clean_env, 4)
    assert speech_threads("asr") == 4 and speech_threads("tts") == TTS_DEFAULT == 1
    with_cores(clean_env, 32)
    assert speech_threads("asr") == MAX_DEFAULT


def test_the_most_specific_variable_wins(clean_env: pytest.MonkeyPatch) -> None:
    with_cores(clean_env, 4)
    clean_env.setenv(SPEECH_THREADS_ENV, "2")
    assert speech_threads("asr") == 2
    assert speech_threads("tts") == 1  # the workers' share never changes what TTS renders
    clean_env.setenv(ASR_THREADS_ENV, "3")
    clean_env.setenv(TTS_THREADS_ENV, "5")
    assert speech_threads("asr") == 3 and speech_threads("tts") == 5


@pytest.mark.parametrize("bad", ["0", "-2", "two", "", " ", "1.5"])
def test_invalid_values_are_ignored(clean_env: pytest.MonkeyPatch, bad: str) -> None:
    with_cores(clean_env, 4)
    clean_env.setenv(ASR_THREADS_ENV, bad)
    clean_env.setenv(TTS_THREADS_ENV, bad)
    assert speech_threads("asr") == 4 and speech_threads("tts") == 1
    clean_env.setenv(SPEECH_THREADS_ENV, "3")
    assert speech_threads("asr") == 3  # the next rule applies
    clean_env.setenv(SPEECH_THREADS_ENV, bad)
    assert use_worker_share(2) == 2 and os.environ[SPEECH_THREADS_ENV] == "2"


def test_a_worker_share_keeps_what_the_user_set(clean_env: pytest.MonkeyPatch) -> None:
    with_cores(clean_env, 8)
    assert use_worker_share(0) == 1 and speech_threads("asr") == 1
    clean_env.setenv(SPEECH_THREADS_ENV, "6")
    assert use_worker_share(2) == 6 and speech_threads("asr") == 6
    clean_env.delenv(SPEECH_THREADS_ENV)
    clean_env.setenv(ASR_THREADS_ENV, "3")
    assert use_worker_share(4) == 4 and speech_threads("asr") == 3


def test_spawned_workers_get_the_share_for_native_pools_unless_the_user_set_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in NATIVE_THREAD_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")  # the user's choice is kept
    context = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        with worker_environment(1):  # the worker starts in the first submit
            futures = [pool.submit(os.getenv, name) for name in NATIVE_THREAD_VARS]
        seen = [f.result(timeout=120) for f in futures]
    assert dict(zip(NATIVE_THREAD_VARS, seen, strict=True)) == {
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "3",
    }
    assert os.environ.get("OMP_NUM_THREADS") is None  # this process's environment is back
    assert os.environ.get("OPENBLAS_NUM_THREADS") is None
