"""The transcript cache: the same clip is decoded once; nothing it stores changes a result."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from duplexbench import entries
from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._model import ExecutionOptions, RunOptions
from duplexbench.campaign._runner import run_campaign
from duplexbench.speech._asr import CheckedASR, Transcript, TranscriptSegment, Word
from duplexbench.speech._transcripts import FORMAT, TranscriptCache, shared_cache
from support.fixtures import FIXTURES

IDENTITY = "fake model v1 beam=1"


class CountingEngine:
    name = "fake"
    cache_identity: str | None = IDENTITY

    def __init__(self) -> None:
        self.calls = 0

    def transcribe(self, samples: np.ndarray) -> Transcript:
        self.calls += 1
        return HEARD


HEARD = Transcript(
    "hello there",
    (Word("hello", 0, 300), Word("there", 300, 600)),
    (TranscriptSegment("hello there", 0, 600, -0.31415926535897931, 0.0123456789012345),),
)


def tone(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(-3000, 3000, 16_000).astype(np.int16)


@pytest.fixture
def cache_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "transcripts"
    monkeypatch.setenv("DUPLEXBENCH_TRANSCRIPT_CACHE", str(root))
    return root


def test_the_same_clip_is_decoded_once_across_engine_instances(cache_root: Path) -> None:
    first, second = CountingEngine(), CountingEngine()
    a = CheckedASR("fake", first).transcribe(tone(1))
    b = CheckedASR("fake", second).transcribe(tone(1))
    assert a == b and first.calls == 1 and second.calls == 0
    CheckedASR("fake", second).transcribe(tone(2))  # other audio: decoded
    assert second.calls == 1
    assert len(list(cache_root.glob("*/*.json"))) == 2
    # a fresh process reads the disk: same transcript, no decode
    fresh = TranscriptCache(cache_root)
    key = fresh.key(IDENTITY, tone(1))
    assert fresh.get(key) == HEARD


def test_segments_round_trip_through_the_disk_exactly(cache_root: Path) -> None:
    engine = CountingEngine()
    assert CheckedASR("fake", engine).transcribe(tone(6)) == HEARD
    fresh = TranscriptCache(cache_root)  # another process: no memory copy
    got = fresh.get(fresh.key(IDENTITY, tone(6)))
    assert got == HEARD and fresh.misses == 0  # floats bit for bit, from the disk
    assert got is not None and got.mean_logprob == HEARD.mean_logprob
    plain = Transcript("hi", ())  # an engine that reports no confidence stays unknown
    fresh.put("ab" * 32, plain)
    assert TranscriptCache(cache_root).get("ab" * 32) == plain


def _write_v2_entry(root: Path, samples: np.ndarray) -> Path:
    """What the cache kept before segments (format 2): text and words only."""
    old_key = hashlib.sha256(f"2\0{IDENTITY}\0".encode())
    old_key.update(np.ascontiguousarray(samples, dtype="<i2").tobytes())
    store = entries.CheckedEntries(root, 2, "transcript cache")
    payload = {"text": "hello there", "words": [["hello", 0, 300], ["there", 300, 600]]}
    store.put(old_key.hexdigest(), payload)
    return store.path(old_key.hexdigest())


def test_entries_without_segments_are_decoded_again(cache_root: Path) -> None:
    assert FORMAT >= 3  # format 3 added the segments
    old = _write_v2_entry(cache_root, tone(7))
    assert old.is_file()
    engine = CountingEngine()
    assert CheckedASR("fake", engine).transcribe(tone(7)).segments == HEARD.segments
    assert engine.calls == 1  # the old entry is never read back as "confidence unknown"
    # an entry of the current format that somehow lacks its segments is a miss too
    reader = TranscriptCache(cache_root)
    key = reader.key(IDENTITY, tone(8))
    entries.CheckedEntries(cache_root, FORMAT, "t").put(key, {"text": "hi", "words": []})
    assert reader.get(key) is None
    assert CheckedASR("fake", engine).transcribe(tone(8)) == HEARD and engine.calls == 2
    assert TranscriptCache(cache_root).get(key) == HEARD  # replaced, with its segments


def test_another_model_or_setting_is_another_entry(cache_root: Path) -> None:
    engine = CountingEngine()
    CheckedASR("fake", engine).transcribe(tone(1))
    engine.cache_identity = "fake model v1 beam=5"
    CheckedASR("fake", engine).transcribe(tone(1))
    assert engine.calls == 2


def test_an_engine_without_identity_is_never_cached(cache_root: Path) -> None:
    class Plain(CountingEngine):
        cache_identity = None

    engine = Plain()
    for _ in range(2):
        CheckedASR("plain", engine).transcribe(tone(1))
    assert engine.calls == 2 and not cache_root.exists()


def test_an_entry_that_fails_its_checksum_is_recomputed_and_replaced(cache_root: Path) -> None:
    engine = CountingEngine()
    CheckedASR("fake", engine).transcribe(tone(3))
    [path] = cache_root.glob("*/*.json")
    entry = json.loads(path.read_text())
    entry["payload"]["text"] = "a forged transcript"
    path.write_text(json.dumps(entry))
    reader = TranscriptCache(cache_root)  # no memory copy: reads the disk
    assert reader.get(path.stem) is None and reader.replaced == 1 and not path.exists()
    path.parent.mkdir(exist_ok=True)
    path.write_text("{truncated")
    assert reader.get(path.stem) is None and reader.replaced == 2


def test_a_full_disk_is_a_warning_not_a_failure(
    cache_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(path: Path, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(entries, "write_text_atomic", full)
    engine = CountingEngine()
    with pytest.warns(RuntimeWarning, match="No space left"):
        result = CheckedASR("fake", engine).transcribe(tone(4))
    assert result.text == "hello there"


def test_off_disables_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUPLEXBENCH_TRANSCRIPT_CACHE", "off")
    assert shared_cache() is None
    engine = CountingEngine()
    for _ in range(2):
        CheckedASR("fake", engine).transcribe(tone(5))
    assert engine.calls == 2


def _traces(out: Path) -> dict[str, list[dict[str, object]]]:
    """Every episode's events without wall-clock times (the only field allowed to differ)."""
    found = {}
    for path in sorted(out.glob("episodes/*/*/*/r*/events.jsonl")):
        events = [json.loads(line) for line in path.read_text().splitlines()]
        for e in events:
            e.pop("wall_ms", None)
        found[str(path.relative_to(out))] = events
    return found


def test_traces_and_summaries_are_identical_cold_on_one_worker_and_warm_on_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("faster_whisper")
    monkeypatch.setenv("DUPLEXBENCH_TRANSCRIPT_CACHE", str(tmp_path / "transcripts"))
    results = {}
    for name, workers in (("cold", 1), ("warm", 2)):
        opts = RunOptions(
            str(FIXTURES),
            agent="reference",
            condition=CONDITIONS["clean"],
            repeats=1,
            items=("meeting-scheduling", "order-revocation"),
            out=tmp_path / name,
            execution=ExecutionOptions(workers=workers),
        )
        results[name] = run_campaign(opts)
        if name == "cold":
            stored = len(list((tmp_path / "transcripts").glob("*/*.json")))
    assert stored > 0  # the cold run filled the cache; the warm runs read it
    cold = _traces(tmp_path / "cold")
    assert len(cold) == 2
    assert _traces(tmp_path / "warm") == cold  # a warm cache and two workers change nothing
    assert results["warm"].summary == results["cold"].summary
