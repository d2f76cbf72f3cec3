"""The frozen speech bank: keys, disk round trips, corruption, concurrency, prerender."""

from __future__ import annotations

import json
import math
import multiprocessing
import queue as queue_module
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from duplexbench.audio._pcm import SAMPLE_RATE, sha256_pcm
from duplexbench.audio._wav import read_wav
from duplexbench.speech import _bank as bank_module
from duplexbench.speech._bank import Clip, ClipRequest, SpeechBank, normalize_loudness
from duplexbench.speech._tts import SynthesisSettings, VoiceRef, get_tts

VOICE = "synthetic:alto"
TEXT = "Hello, I would like to book a table for two."


@pytest.fixture
def bank(tmp_path: Path) -> SpeechBank:
    return SpeechBank(tmp_path / "bank")


def _active_rms_dbfs(samples: np.ndarray[Any, Any]) -> float:
    x = samples.astype(np.float64) / 32768.0
    n = len(x) // 320
    frames = np.mean(x[: n * 320].reshape(n, 320) ** 2, axis=1)
    active = frames[frames >= frames.max() * 1e-4]
    return 10.0 * math.log10(float(np.mean(active)))


def _leftovers(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and p.suffix not in (".wav", ".json")]


# ----------------------------------------------------------------------- keys


def test_key_is_stable_and_sensitive(bank: SpeechBank, monkeypatch: pytest.MonkeyPatch) -> None:
    base = bank.key(TEXT, VOICE)
    assert len(base) == 64
    assert bank.key(TEXT, VOICE) == base
    assert bank.key(TEXT, VoiceRef("synthetic", "alto")) == base
    assert SpeechBank(bank.root / "elsewhere").key(TEXT, VOICE) == base
    assert bank.key(TEXT, VOICE, SynthesisSettings(speed=1, gain_db=0)) == base
    variants = {
        bank.key(TEXT + "!", VOICE),
        bank.key(TEXT, "synthetic:tenor"),
        bank.key(TEXT, VOICE, SynthesisSettings(speed=1.25)),
        bank.key(TEXT, VOICE, SynthesisSettings(gain_db=-6.0)),
        bank.key(TEXT, "piper:joe"),
    }
    assert base not in variants
    assert len(variants) == 5
    monkeypatch.setattr(get_tts("synthetic"), "version", lambda: "synthetic-2")
    assert bank.key(TEXT, VOICE) != base


def test_default_voice_is_piper_joe(bank: SpeechBank) -> None:
    assert bank.key(TEXT, "default") == bank.key(TEXT, "piper:joe")


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_text_rejected(bank: SpeechBank, text: str) -> None:
    with pytest.raises(ValueError, match="empty"):
        bank.clip(text, VOICE)


def test_default_root_from_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DUPLEXBENCH_SPEECH_CACHE", str(tmp_path / "env"))
    assert SpeechBank().root == tmp_path / "env"
    monkeypatch.delenv("DUPLEXBENCH_SPEECH_CACHE")
    assert SpeechBank().root == Path.home() / ".cache" / "duplexbench" / "speech"


# ---------------------------------------------------------------- round trip


def test_clip_round_trip_through_disk(bank: SpeechBank) -> None:
    clip = bank.clip(TEXT, VOICE)
    assert bank.stats.rendered == 1
    assert clip.voice == VOICE
    assert clip.text == TEXT
    assert clip.samples.dtype == np.int16
    assert clip.sha256 == sha256_pcm(clip.samples)
    assert clip.duration_ms == len(clip.samples) * 1000 // SAMPLE_RATE
    assert 2000 < clip.duration_ms < 6000
    assert not clip.samples.flags.writeable

    wav, meta_path = bank.paths(clip.key)
    assert wav == bank.root / clip.key[:2] / f"{clip.key}.wav"
    channels, rate = read_wav(wav)
    assert rate == SAMPLE_RATE
    assert len(channels) == 1
    assert sha256_pcm(channels[0]) == clip.sha256
    meta = json.loads(meta_path.read_text())
    assert meta["sha256"] == clip.sha256
    assert meta["text"] == TEXT
    assert meta["voice"] == VOICE
    assert meta["engine_version"] == "synthetic-1"
    assert meta["settings"] == {"speed": 1.0, "gain_db": 0.0}
    assert meta["duration_ms"] == clip.duration_ms

    again = SpeechBank(bank.root)
    loaded = again.clip(TEXT, VOICE)
    assert loaded == clip
    assert np.array_equal(loaded.samples, clip.samples)
    assert (again.stats.hits_disk, again.stats.rendered) == (1, 0)
    assert again.clip(TEXT, VOICE) is loaded
    assert again.stats.hits_memory == 1
    assert bank.clip(TEXT, VOICE) is clip
    assert bank.stats.hits_memory == 1


def test_memory_lru_is_bounded(tmp_path: Path) -> None:
    small = SpeechBank(tmp_path, memory_items=2)
    for word in ("one", "two", "three"):
        small.clip(word, VOICE)
    small.clip("one", VOICE)  # evicted: comes from disk
    assert (small.stats.hits_memory, small.stats.hits_disk) == (0, 1)
    small.clip("three", VOICE)
    assert small.stats.hits_memory == 1


def test_memory_lru_holds_at_most_its_bytes_of_audio(tmp_path: Path) -> None:
    one = SpeechBank(tmp_path).clip("one", VOICE)
    small = SpeechBank(tmp_path, memory_mib=2.5 * one.samples.nbytes / 2**20)
    for word in ("one", "one", "two", "three"):
        small.clip(word, VOICE)
    assert small.stats.hits_memory == 1
    small.clip("one", VOICE)  # the oldest went when "three" came: from disk
    assert (small.stats.hits_memory, small.stats.hits_disk) == (1, 2)
    small.clip("three", VOICE)
    assert small.stats.hits_memory == 2
    none = SpeechBank(tmp_path, memory_mib=0.5 * one.samples.nbytes / 2**20)
    none.clip("one", VOICE)
    none.clip("one", VOICE)  # larger than the budget: never kept
    assert none.stats.hits_memory == 0


def test_clips_are_loudness_normalized(bank: SpeechBank) -> None:
    synthetic = bank.clip(TEXT, VOICE)
    assert abs(_active_rms_dbfs(synthetic.samples) - (-20.0)) < 1.0
    quieter = bank.clip(TEXT, VOICE, SynthesisSettings(gain_db=-6.0))
    assert abs(_active_rms_dbfs(quieter.samples) - (-26.0)) < 1.0
    piper = bank.clip("The total was two hundred dollars.", "piper:joe")
    assert abs(_active_rms_dbfs(piper.samples) - (-20.0)) < 1.5


def test_normalize_loudness_edge_cases() -> None:
    silence = np.zeros(16000, dtype=np.int16)
    assert np.array_equal(normalize_loudness(silence), silence)
    assert normalize_loudness(np.zeros(0, dtype=np.int16)).size == 0
    # A single loud click must not be pushed past full scale.
    click = np.zeros(16000, dtype=np.int16)
    click[8000] = 1000
    out = normalize_loudness(click, gain_db=20.0)
    assert int(np.abs(out.astype(np.int32)).max()) <= 32767 * 0.99
    tone = (np.sin(np.arange(16000) * 0.1) * 3000).astype(np.int16)
    assert np.array_equal(normalize_loudness(tone), normalize_loudness(tone))


# ---------------------------------------------------------------- corruption


def _flip_bytes(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for i in range(len(data) // 2, len(data) // 2 + 64):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _garble_sidecar(path: Path) -> None:
    path.with_suffix(".json").write_text("{not json")


@pytest.mark.parametrize("damage", [_flip_bytes, _truncate, _garble_sidecar])
def test_damaged_clip_is_rerendered(bank: SpeechBank, damage: Any) -> None:
    clip = bank.clip(TEXT, VOICE)
    wav, _ = bank.paths(clip.key)
    damage(wav)
    fresh = SpeechBank(bank.root)
    repaired = fresh.clip(TEXT, VOICE)
    assert repaired.sha256 == clip.sha256
    assert (fresh.stats.rerendered_corrupt, fresh.stats.hits_disk) == (1, 0)
    assert fresh.stats.rendered == 0
    verify = SpeechBank(bank.root)
    assert verify.clip(TEXT, VOICE).sha256 == clip.sha256
    assert (verify.stats.hits_disk, verify.stats.rerendered_corrupt) == (1, 0)


def test_wav_without_sidecar_counts_as_absent(
    bank: SpeechBank, monkeypatch: pytest.MonkeyPatch
) -> None:
    def killed(path: Path, text: str) -> None:
        raise KeyboardInterrupt  # the process dies between the wav and the sidecar

    with monkeypatch.context() as m:
        m.setattr(bank_module, "write_text_atomic", killed)
        with pytest.raises(KeyboardInterrupt):
            bank.clip(TEXT, VOICE)
    fresh = SpeechBank(bank.root)
    clip = fresh.clip(TEXT, VOICE)
    assert (fresh.stats.rendered, fresh.stats.rerendered_corrupt) == (1, 0)
    assert SpeechBank(bank.root).clip(TEXT, VOICE).sha256 == clip.sha256
    assert _leftovers(bank.root) == []


# --------------------------------------------------------------- concurrency

CONCURRENT_TEXTS = [f"Clip number {i}, spoken by many workers at once." for i in range(5)]


def _worker(root: str, barrier: Any, queue: Any) -> None:
    worker_bank = SpeechBank(Path(root))
    barrier.wait(timeout=60)
    queue.put({text: worker_bank.clip(text, VOICE).sha256 for text in CONCURRENT_TEXTS})


def test_concurrent_workers_share_one_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Spawned children import this module by its pytest name (e.g. tests.speech.test_bank).
    monkeypatch.syspath_prepend(str(Path(__file__).parents[__name__.count(".")]))
    ctx = multiprocessing.get_context("spawn")
    barrier, queue = ctx.Barrier(4), ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(str(tmp_path), barrier, queue)) for _ in range(4)]
    for proc in procs:
        proc.start()
    results: list[dict[str, str]] = []
    deadline = time.monotonic() + 120
    while len(results) < len(procs) and time.monotonic() < deadline:
        try:
            results.append(queue.get(timeout=0.5))
        except queue_module.Empty:
            assert all(p.exitcode in (None, 0) for p in procs), [p.exitcode for p in procs]
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0
    assert len(results) == len(procs)
    assert all(result == results[0] for result in results)
    reader = SpeechBank(tmp_path)
    for text in CONCURRENT_TEXTS:
        assert reader.clip(text, VOICE).sha256 == results[0][text]
    assert (reader.stats.hits_disk, reader.stats.rerendered_corrupt) == (5, 0)
    assert len(list(tmp_path.rglob("*.wav"))) == 5
    assert len(list(tmp_path.rglob("*.json"))) == 5
    assert _leftovers(tmp_path) == []


# ----------------------------------------------------------------- prerender


def test_prerender_counts_and_dedupes(bank: SpeechBank) -> None:
    seen: list[tuple[int, int]] = []
    requests: list[tuple[str, VoiceRef | str]] = [
        ("Good morning.", VOICE),
        ("Good morning.", VOICE),
        ("Good morning.", VoiceRef("synthetic", "alto")),
        ("Good evening.", "synthetic:bass"),
        ("", VOICE),
        ("Hello.", "nope:voice"),
        ("Hello.", "barename"),
    ]
    report = bank.prerender(requests, progress=lambda done, total: seen.append((done, total)))
    assert (report.requested, report.unique) == (7, 5)
    assert (report.rendered, report.cached, report.failed) == (2, 0, 3)
    assert not report.ok
    reasons = " | ".join(f.reason for f in report.failures)
    assert "empty" in reasons
    assert "unknown TTS engine 'nope'" in reasons
    assert "engine:voice" in reasons
    assert seen == [(i, 5) for i in range(1, 6)]

    fresh = SpeechBank(bank.root)
    again = fresh.prerender(requests[:4])
    assert (again.rendered, again.cached, again.failed) == (0, 2, 0)
    assert again.ok
    assert fresh.stats.hits_disk == 2
    assert _leftovers(bank.root) == []


def test_clip_is_frozen_and_compares_by_checksum(bank: SpeechBank) -> None:
    clip = bank.clip(TEXT, VOICE)
    assert isinstance(clip, Clip)
    frozen: Any = clip  # written to on purpose
    with pytest.raises(AttributeError):
        frozen.text = "other"
    with pytest.raises(ValueError):
        clip.samples[0] = 1


# ---------------------------------------------------------- requests, renders


def test_missing_lists_each_uncommitted_clip_once(bank: SpeechBank) -> None:
    slow = SynthesisSettings(speed=0.8)
    requests = [
        ClipRequest("Good morning.", VOICE),
        ClipRequest("Good morning.", VOICE),  # the same clip
        ClipRequest("Good morning.", VOICE, slow),  # another clip: other settings
        ClipRequest("Good night.", VOICE),
        ClipRequest("", VOICE),  # kept: rendering it says why it fails
    ]
    assert bank.missing(requests) == [requests[0], requests[2], requests[3], requests[4]]
    bank.clip("Good morning.", VOICE, slow)
    assert bank.missing(requests) == [requests[0], requests[3], requests[4]]


def test_renders_counts_engine_calls_not_hits(bank: SpeechBank) -> None:
    before = bank_module.renders()
    bank.clip("Counted once.", VOICE)
    bank.clip("Counted once.", VOICE)  # memory
    SpeechBank(bank.root).clip("Counted once.", VOICE)  # disk
    assert bank_module.renders() == before + 1
    bank.clip("Counted once.", VOICE, SynthesisSettings(speed=1.5))
    assert bank_module.renders() == before + 2


def test_prerender_takes_requests_with_their_own_settings(bank: SpeechBank) -> None:
    fast = SynthesisSettings(speed=1.5)
    report = bank.prerender([ClipRequest("Hi.", VOICE, fast), ("Hi.", VOICE)])
    assert (report.unique, report.rendered) == (2, 2)
    assert bank.missing([ClipRequest("Hi.", VOICE, fast), ClipRequest("Hi.", VOICE)]) == []
