"""Fault injection for speech: TTS and ASR engines that raise or return garbage.

Unit level: the speech bank refuses unusable TTS output with a `TTSError` naming
engine, voice and text, and stores nothing (the next request renders again);
`CheckedASR` turns an ASR engine's failure or garbage into an `ASRError`.
Campaign level (oracle or reference agent, one or two short episodes each, the
synthetic engine standing in for piper): such a fault ends the episode as `error`
with that reason, never scored as a failure; the retry policy reruns it; other
episodes are unaffected and the index stays consistent.
"""

from __future__ import annotations

import errno
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

from duplexbench.audio._wav import write_wav
from duplexbench.campaign._engine import RunTally
from duplexbench.campaign._execution import execute
from duplexbench.campaign._lock import run_lock
from duplexbench.campaign._model import ExecutionOptions, RunOptions, RunResult
from duplexbench.campaign._runner import finish_target, prepare_target, start_target
from duplexbench.campaign._store import check_index
from duplexbench.speech import _asr as asr
from duplexbench.speech import _tts as tts
from duplexbench.speech._asr import ASRError, Transcript, Word, get_asr
from duplexbench.speech._bank import SpeechBank
from duplexbench.speech._synthesis import max_clip_ms
from duplexbench.speech._synthetic import SyntheticTTS
from duplexbench.speech._tts import SpeechUnavailable, SynthesisSettings, TTSError
from support.fixtures import FIXTURES
from support.scores import workflow_scores

Output = tuple[Any, Any]
Fault = Callable[[str, Output, int], Any]
TEXT = "Hello there, how are you today?"


def crash(text: str, out: Output, call: int) -> Any:
    raise RuntimeError("engine crashed")


class FakeTTS:
    """The synthetic engine under piper's name; `fault(text, output, call)` replaces its output."""

    name = "piper"

    def __init__(self, fault: Fault | None = None, version: str = "fake-1") -> None:
        self.fault, self._version, self.calls = fault, version, 0

    def version(self) -> str:
        return self._version

    def voices(self) -> list[str]:
        return ["joe"]

    def synthesize(self, text: str, voice: str, settings: SynthesisSettings) -> Any:
        self.calls += 1
        out = SyntheticTTS().synthesize(text, voice, settings)
        return out if self.fault is None else self.fault(text, out, self.calls)


def use_tts(monkeypatch: pytest.MonkeyPatch, engine: FakeTTS, name: str = "piper") -> FakeTTS:
    tts.tts_engines()  # the built-in engines are registered first
    monkeypatch.setitem(tts.REGISTRY._instances, name, engine)
    return engine


def use_asr(monkeypatch: pytest.MonkeyPatch, answer: Callable[[int], Any], name: str) -> None:
    """Engine `name` answers `answer(call)` (1-based); get_asr wraps it as usual."""
    calls = [0]

    class FakeASR:
        def __init__(self) -> None:
            self.name = name

        def transcribe(self, samples: Any) -> Any:
            calls[0] += 1
            return answer(calls[0])

    asr.asr_engines()
    monkeypatch.setattr(asr.REGISTRY, "_instances", {})
    monkeypatch.setitem(asr.REGISTRY._factories, name, FakeASR)


# ------------------------------------------------------------------ TTS, bank level

GARBAGE: dict[str, tuple[Fault, str]] = {
    "raises": (crash, "RuntimeError: engine crashed"),
    "empty": (lambda t, o, c: (np.zeros(0, np.int16), o[1]), "returned no audio"),
    "silence": (lambda t, o, c: (np.zeros_like(o[0]), o[1]), "returned silence"),
    "nan": (lambda t, o, c: (np.full(8000, np.nan, np.float32), o[1]), "NaN or infinite"),
    "inf": (lambda t, o, c: (o[0] / 32768.0 + np.inf, o[1]), "NaN or infinite"),
    "int16 as float": (lambda t, o, c: (o[0].astype(np.float64), o[1]), "peaking at"),
    "int32 pcm": (lambda t, o, c: (o[0].astype(np.int32) << 16, o[1]), "beyond 16 bits"),
    "complex": (lambda t, o, c: (o[0].astype(np.complex64), o[1]), "unsupported sample type"),
    "strings": (lambda t, o, c: (np.array(["x"] * 99), o[1]), "unsupported sample type"),
    "3-D": (lambda t, o, c: (o[0].reshape(1, 1, -1), o[1]), "must be 1-D"),
    "None": (lambda t, o, c: None, "returned a NoneType, not"),
    "no rate": (lambda t, o, c: (o[0],), "returned a tuple, not"),
    "rate 0": (lambda t, o, c: (o[0], 0), "sample rate 0"),
    "rate text": (lambda t, o, c: (o[0], "16000"), "sample rate '16000'"),
    "too long": (lambda t, o, c: (np.tile(o[0], 40), o[1]), r"returned \d+ ms \(at most"),
}


@pytest.mark.parametrize("kind", list(GARBAGE))
def test_regression_unusable_tts_output_is_a_tts_error_and_never_stored(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fault, message = GARBAGE[kind]
    engine = use_tts(monkeypatch, FakeTTS(fault), "faulty")
    bank = SpeechBank(tmp_path)
    with pytest.raises(TTSError, match=message) as err:
        bank.clip(TEXT, "faulty:v")
    assert str(err.value).startswith(f"TTS faulty:v on {TEXT!r}")
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]  # nothing stored
    engine.fault = None  # the engine recovers: the same request renders (nothing was cached)
    assert bank.clip(TEXT, "faulty:v").duration_ms > 1000
    assert bank.stats.rendered == 1 and len(list(tmp_path.rglob("*.wav"))) == 1


def test_tts_output_that_can_be_repaired_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def loud(text: str, out: Output, call: int) -> Output:
        return out[0] / 32768.0 * 1.6, out[1]  # float, a little over full scale

    def silent(text: str, out: Output, call: int) -> Output:
        return np.zeros(1600, np.int16), out[1]

    use_tts(monkeypatch, FakeTTS(loud), "faulty")
    bank = SpeechBank(tmp_path)
    assert int(np.max(np.abs(bank.clip(TEXT, "faulty:v").samples))) < 32767  # clipped, leveled
    use_tts(monkeypatch, FakeTTS(silent), "faulty")
    assert not np.any(bank.clip("...", "faulty:v").samples)  # no words: silence is right
    slow = SynthesisSettings(speed=0.5)
    assert max_clip_ms(TEXT, slow) == 2 * max_clip_ms(TEXT, SynthesisSettings())


def test_missing_engine_is_still_speech_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing(text: str, out: Output, call: int) -> Any:
        raise SpeechUnavailable("pip install faulty")

    use_tts(monkeypatch, FakeTTS(missing), "faulty")
    with pytest.raises(SpeechUnavailable, match="pip install faulty"):  # the CLI's install hint
        SpeechBank(tmp_path).clip(TEXT, "faulty:v")
    report = SpeechBank(tmp_path).prerender([(TEXT, "faulty:v"), ("Bye.", "faulty:v")])
    assert report.failed == 2 and report.failures[0].reason.startswith("SpeechUnavailable")


def test_bank_on_a_full_disk_raises_and_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bank's own folder is full: the clip request fails (an episode error, retried)."""
    use_tts(monkeypatch, FakeTTS(), "faulty")
    real, target = write_wav, "duplexbench.speech._bank.write_wav"

    def full(path: Path, *args: Any) -> None:
        real(path, *args)  # the temp file is written, then the disk fills up
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(target, full)
    bank = SpeechBank(tmp_path)
    with pytest.raises(OSError, match="No space left on device") as err:
        bank.clip(TEXT, "faulty:v")
    assert err.value.errno == errno.ENOSPC and str(tmp_path) in str(err.value)
    monkeypatch.setattr(target, real)
    fresh = SpeechBank(tmp_path)  # a wav without its sidecar counts as absent: rendered again
    assert fresh.clip(TEXT, "faulty:v").duration_ms > 1000 and fresh.stats.rendered == 1
    assert SpeechBank(tmp_path).clip(TEXT, "faulty:v").sha256 == fresh.clip(TEXT, "faulty:v").sha256


# ------------------------------------------------------------------ ASR, engine level

# what a broken engine returns: wrong-typed fields go through Any on purpose
NAN_WORD = Word("hi", cast(Any, float("nan")), 9)
ASR_GARBAGE: dict[str, tuple[Any, str]] = {
    "None": (None, "a NoneType, not a Transcript"),
    "str": ("hello", "a str, not a Transcript"),
    "text None": (Transcript(cast(Any, None), ()), "text of type NoneType"),
    "huge text": (Transcript("la " * 1000, ()), "3000 characters for 1000 ms"),
    "words None": (Transcript("hi", cast(Any, None)), "words of type NoneType"),
    "tuple word": (
        Transcript("hi", cast(Any, (("hi", 0, 9),))),
        "a word that is not a Word",
    ),
    "NaN time": (Transcript("hi", (NAN_WORD,)), r"word 'hi' with bad times \(nan, 9\)"),
}


@pytest.mark.parametrize("kind", list(ASR_GARBAGE))
def test_regression_asr_garbage_is_an_asr_error(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    answer, message = ASR_GARBAGE[kind]
    use_asr(monkeypatch, lambda call: answer, "faulty")
    with pytest.raises(ASRError, match=rf"ASR 'faulty' returned {message}"):
        get_asr("faulty").transcribe(np.ones(16000, np.int16))


def test_asr_failures_are_named_and_times_repaired(monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(call: int) -> Any:
        raise MemoryError("decoder out of memory") if call == 1 else RuntimeError("no")

    use_asr(monkeypatch, crash, "faulty")
    engine = get_asr("faulty")
    with pytest.raises(ASRError, match="ASR 'faulty' failed: MemoryError: decoder out of memory"):
        engine.transcribe(np.ones(16000, np.int16))
    with pytest.raises(ValueError, match="mono"):  # the caller's mistake, not the engine's
        engine.transcribe(np.ones((10, 2), np.int16))
    wild = Transcript("hi there", (Word("hi", -50, 30), Word("there", 900, 5000)))
    use_asr(monkeypatch, lambda call: wild, "faulty")
    got = get_asr("faulty").transcribe(np.ones(16000, np.int16))
    assert got == Transcript("hi there", (Word("hi", 0, 30), Word("there", 900, 1000)))


# ------------------------------------------------------------------ in a campaign

ORDER, MEETING = "order-revocation", "meeting-scheduling"


def campaign(
    tmp_path: Path, agent: str, items: tuple[str, ...], retries: int = 0
) -> tuple[RunResult, RunTally]:
    """Run the episodes inline (the fakes live in this process); the result and the progress."""
    execution = ExecutionOptions(retries=retries, backoff_s=0.0)
    opts = RunOptions(
        str(FIXTURES), agent=agent, repeats=1, items=items, out=tmp_path / "run",
        speech_cache=tmp_path / "bank", execution=execution,
    )  # fmt: skip
    target = prepare_target(opts)
    with run_lock(target.run_dir):
        start_target(target, opts)
        progress = execute([target], execution)
        return finish_target(target), progress


def test_tts_failing_once_is_retried_and_the_episode_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def once(text: str, out: Output, call: int) -> Output:
        return crash(text, out, call) if call == 1 else out

    engine = use_tts(monkeypatch, FakeTTS(once, "fake-once"))
    result, progress = campaign(tmp_path, "oracle", (ORDER,), retries=1)
    assert progress.retried == 1 and progress.errors == 0 and engine.calls > 1
    assert [(s.status, s.ws) for s in workflow_scores(result.scores)] == [("ok", 1)]
    assert check_index(result.run_dir) == []


def test_tts_always_failing_for_one_item_errors_only_that_episode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def paper(text: str, out: Output, call: int) -> Output:
        return crash(text, out, call) if "copy paper" in text else out

    use_tts(monkeypatch, FakeTTS(paper, "fake-paper"))
    result, progress = campaign(tmp_path, "oracle", (ORDER, MEETING), retries=1)
    by_item = {s.item_id: s for s in workflow_scores(result.scores)}
    assert progress.retried == 1 and progress.done == 2  # the campaign finished
    assert by_item[ORDER].status == "error" and by_item[ORDER].ws is None  # not a failure
    assert (by_item[ORDER].error or "").startswith("TTSError: TTS piper:joe on 'Hello, can you")
    assert (by_item[ORDER].error or "").endswith("RuntimeError: engine crashed")
    assert (by_item[MEETING].status, by_item[MEETING].ws) == ("ok", 1)
    assert result.summary.errors == 1 and result.summary.episodes == 2
    assert check_index(result.run_dir) == []


@pytest.mark.parametrize("kind", ["empty", "silence", "nan", "too long"])
def test_regression_tts_garbage_ends_the_episode_as_error_not_as_failure(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fault, message = GARBAGE[kind]
    use_tts(monkeypatch, FakeTTS(fault, f"fake-{kind}"))
    result, _ = campaign(tmp_path, "oracle", (ORDER,))
    (score,) = workflow_scores(
        result.scores
    )  # before: status ok, ws 0 (the user never spoke or never stopped)
    assert score.status == "error" and score.ws is None
    assert score.error is not None and score.error.startswith("TTSError: TTS piper:joe on")
    assert re.search(message, score.error)


def perfect_asr(monkeypatch: pytest.MonkeyPatch, fail_first: Any = None) -> None:
    """ASR that hears the last text the bank spoke (the user's turn, in polite turn-taking)."""
    spoken = [""]
    clip = SpeechBank.clip

    def remember(self: SpeechBank, text: str, *args: Any, **kw: Any) -> Any:
        spoken[0] = text
        return clip(self, text, *args, **kw)

    def answer(call: int) -> Any:
        if call == 1 and fail_first is not None:
            return fail_first(call)
        return Transcript(spoken[0], ())

    monkeypatch.setattr(SpeechBank, "clip", remember)
    use_asr(monkeypatch, answer, "whisper")


def test_asr_failing_once_is_retried_and_the_episode_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The retried episode runs whole: scored, and the agent wrote what it heard. (Not
    its Workflow Success: this fake ASR hears only the last clip the bank spoke, and
    since reference version 4 asks for spellings, a clip per letter, it hears one.)"""
    use_tts(monkeypatch, FakeTTS(version="fake-asr"))
    perfect_asr(monkeypatch, fail_first=lambda call: 1 / 0)
    result, progress = campaign(tmp_path, "reference", (ORDER,), retries=1)
    assert progress.retried == 1 and progress.errors == 0
    [score] = workflow_scores(result.scores)
    assert score.status == "ok" and score.afa is not None
    assert score.afa.correct * 2 > score.afa.total  # most fields right


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (lambda call: 1 / 0, "ASRError: ASR 'whisper' failed: ZeroDivisionError: division by zero"),
        (lambda call: None, "ASRError: ASR 'whisper' returned a NoneType, not a Transcript"),
    ],
    ids=["raises", "returns None"],
)
def test_regression_asr_fault_ends_the_episode_as_error(
    answer: Callable[[int], Any], reason: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_tts(monkeypatch, FakeTTS(version="fake-asr"))
    use_asr(monkeypatch, answer, "whisper")
    result, progress = campaign(tmp_path, "reference", (ORDER,), retries=1)
    assert progress.retried == 1  # retried, then kept as an error (never a failure)
    assert [(s.status, s.error) for s in result.scores] == [("error", reason)]


def test_empty_transcript_is_not_a_fault_the_agent_heard_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_tts(monkeypatch, FakeTTS(version="fake-asr"))
    use_asr(monkeypatch, lambda call: Transcript("", ()), "whisper")
    result, progress = campaign(tmp_path, "reference", (ORDER,), retries=1)
    assert progress.retried == 0  # the cascade never answers: scored as its failure
    assert [(s.status, s.ws) for s in workflow_scores(result.scores)] == [("ok", 0)]


def test_harness_asr_fault_on_agent_audio_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`echo` sends audio without a transcript: the harness reads it with ASR."""
    use_tts(monkeypatch, FakeTTS(version="fake-asr"))
    use_asr(monkeypatch, lambda call: 1 / 0, "whisper")
    result, _ = campaign(tmp_path, "echo", (ORDER,))
    assert [(s.status, s.error) for s in result.scores] == [
        ("error", "ASRError: ASR 'whisper' failed: ZeroDivisionError: division by zero")
    ]
    (folder,) = result.run_dir.glob("episodes/*/*/*/r0")
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    assert events[-1]["type"] == "episode.end" and events[-1]["data"]["reason"] == "error"
    assert (folder / "audio.wav").exists()  # the trace and audio are kept, not only result.json
