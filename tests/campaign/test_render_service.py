"""The render service: clips of model engines render in a process per engine, never in the
episode's."""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import duplexbench.speech._bank as bank_module
from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._execution import wants_render_service
from duplexbench.campaign._render_service import (
    MODEL_ENGINES,
    SERVICE_ENV,
    RenderService,
    ServiceClient,
)
from duplexbench.speech._bank import ClipRequest, SpeechBank, renders, use_remote_renderer
from duplexbench.speech._tts import TTSError

VOICE = "synthetic:alto"
ENGINES = frozenset({"piper", "synthetic"})
"""synthetic stands in for a model engine (fast, no model); piper for another one."""


@pytest.fixture
def service() -> Iterator[RenderService]:
    started = RenderService(1, engines=ENGINES)
    try:
        yield started
    finally:
        started.close()
        use_remote_renderer(None)


def connected(service: RenderService) -> ServiceClient:
    client = service.connect_here()
    use_remote_renderer(client)
    return client


def no_local_synthesis(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("rendered in the episode's process")

    monkeypatch.setattr(bank_module, "synthesize_checked", refuse)


def test_a_clip_renders_in_the_service_and_reads_back_verified(
    service: RenderService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    connected(service)
    expected = SpeechBank(tmp_path / "local").clip("Your order number, please.", VOICE)
    no_local_synthesis(monkeypatch)
    before = renders()
    clip = SpeechBank(tmp_path / "bank").clip("Your order number, please.", VOICE)
    assert renders() == before + 1  # counted as this process's render
    assert clip.sha256 == expected.sha256
    np.testing.assert_array_equal(clip.samples, expected.samples)
    assert SpeechBank(tmp_path / "bank").committed(clip.key)


def test_engines_outside_the_service_render_here(tmp_path: Path) -> None:
    service = RenderService(1, engines=frozenset({"piper"}))
    try:
        client = service.connect_here()
        use_remote_renderer(client)
        assert client.engines == {"piper"}
        clip = SpeechBank(tmp_path).clip("Hello.", VOICE)
        assert client.sent == 0 and len(clip.samples) > 0
    finally:
        service.close()
        use_remote_renderer(None)


def test_the_default_service_has_a_process_per_model_engine() -> None:
    service = RenderService(2)
    try:
        pids = {engine: service.pid(engine) for engine in MODEL_ENGINES}
        assert len(set(pids.values())) == len(MODEL_ENGINES) == 2
        assert service.connect_here().engines == MODEL_ENGINES
    finally:
        service.close()


def request(bank: SpeechBank, text: str, voice: str = VOICE) -> tuple[str, ClipRequest]:
    return bank.key(text, voice), ClipRequest(text, voice)


def test_a_failed_render_is_the_episodes_tts_error(service: RenderService, tmp_path: Path) -> None:
    client, bank = service.connect_here(), SpeechBank(tmp_path)
    with pytest.raises(TTSError, match="nobody"):
        client.render(tmp_path, *request(bank, "Hello.", "piper:nobody"))
    assert client.render(tmp_path, *request(bank, "Hello again.")) is True  # still serving


def test_an_engine_the_service_does_not_share_renders_here(
    service: RenderService, tmp_path: Path
) -> None:
    """A plug-in (or a test double) registered under a model engine's name in this
    process only: the service would make another clip, so the worker renders it."""
    client = connected(service)
    key, clip = request(SpeechBank(tmp_path), "Hello.")
    assert client.render(tmp_path, "0" * 64, clip) is False
    assert not client.stopped and client.render(tmp_path, key, clip) is True


def test_a_reply_to_an_abandoned_request_is_skipped(service: RenderService, tmp_path: Path) -> None:
    """A stall alarm can interrupt a wait; the late reply must not answer the next clip."""
    client = connected(service)
    client.sent = 1
    client.reply.put((1, "failed", "TTSError: the earlier clip failed"))
    assert client.render(tmp_path, *request(SpeechBank(tmp_path), "Next line.")) is True


def test_a_stopped_engine_process_leaves_the_worker_rendering_its_clips_itself(
    service: RenderService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    client = connected(service)
    pid = service.pid("synthetic")
    assert pid is not None
    os.kill(pid, signal.SIGKILL)  # not reaped: what a worker sees of its sibling
    with caplog.at_level(logging.WARNING):
        first = SpeechBank(tmp_path).clip("Still here.", VOICE)
        SpeechBank(tmp_path).clip("And here.", VOICE)
    assert client.stopped and len(first.samples) > 0
    assert client.engines == {"piper"}  # the other engine's process still serves
    assert [r.message for r in caplog.records].count(
        "the render service's synthetic process stopped; this worker renders its clips itself"
    ) == 1


def test_a_service_has_one_reply_slot_per_worker(service: RenderService) -> None:
    service.connect_here()
    with pytest.raises(RuntimeError, match="2 workers for 1 slots"):
        service.connect_here()


@pytest.mark.parametrize(
    ("conditions", "setting", "expected"),
    [
        (["text", "clean"], None, True),
        (["clean"], "off", False),
        (["clean"], "0", False),
        (["clean"], "on", True),
        (["text"], None, False),
    ],
)
def test_local_audio_runs_start_the_service_unless_switched_off(
    conditions: list[str], setting: str | None, expected: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if setting is None:
        monkeypatch.delenv(SERVICE_ENV, raising=False)
    else:
        monkeypatch.setenv(SERVICE_ENV, setting)
    # stand-ins for Targets: only `config.condition` is read
    targets: Any = [
        SimpleNamespace(config=SimpleNamespace(condition=CONDITIONS[c])) for c in conditions
    ]
    assert wants_render_service(targets) is expected
