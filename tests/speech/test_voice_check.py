"""Measuring a voice: the normalizer, WER, and a voice's RTF and round-trip WER."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from duplexbench.audio import Int16Array
from duplexbench.speech import _tts as tts
from duplexbench.speech._asr import ASRError, Transcript
from duplexbench.speech._synthetic import SyntheticTTS
from duplexbench.speech._tts import SpeechUnavailable, SynthesisSettings
from duplexbench.speech._voice_check import (
    NEURAL,
    VOICE_SENTENCES,
    Listener,
    check_voice,
    engine_voices,
    normalize_words,
    reference_listener,
    word_edits,
    word_error_rate,
)


@pytest.mark.parametrize(
    ("written", "heard"),
    [
        ("E1042", "e 1 0 4 2"),
        ("E1042", "E-10-42"),
        ("E1042", "E ten forty two"),
        ("CC-330", "C C three thirty"),
        ("CC-330", "c.c. 330"),
        ("07700 900123", "oh seven seven oh oh, nine hundred thousand one hundred twenty three"),
        ("07700 900123", "077-00900123"),
        ("(415) 555-0134", "four one five, five five five, zero one three four"),
        ("(415) 555-0134", "four fifteen five five five oh one thirty four"),
        ("Siobhan O'Connor.", "siobhan o’connor"),
        (
            "March 14th, 2026 at 3:30 pm",
            "March fourteenth, twenty twenty six, at three thirty p.m.",
        ),
        ("March 14th, 2026 at 3:30 pm", "March 14, 2026 at 3.30pm."),
        ("The refund of $1,250", "the refund of one thousand two hundred and fifty dollars"),
        ("within 5 working days", "within five working days"),
        ("a hundred", "100"),
        ("the 2nd of June", "the second of june"),
    ],
)
def test_the_normalizer_writes_numbers_and_codes_in_one_form(written: str, heard: str) -> None:
    assert normalize_words(written) == normalize_words(heard)
    assert word_error_rate(written, heard) == 0.0


def test_the_normalizer_spells_digits_and_drops_punctuation() -> None:
    assert normalize_words("Your reference number is E1042.") == [
        *("your", "reference", "number", "is", "e"),
        *("1", "0", "4", "2"),
    ]
    assert normalize_words("Hello, WORLD!  It's") == ["hello", "world", "its"]
    assert normalize_words("five five five") == ["5", "5", "5"]
    assert normalize_words("nineteen ninety") == ["1", "9", "9", "0"]
    assert normalize_words("2.5 kg, 50%") == ["2", "point", "5", "kg", "5", "0", "percent"]
    assert normalize_words("oh well") == ["oh", "well"]  # "oh" is 0 only beside a number
    assert normalize_words("") == []


def test_the_normalizer_keeps_different_numbers_apart() -> None:
    assert normalize_words("E1042") != normalize_words("E1024")
    assert word_error_rate("CC-330", "CC-331") == pytest.approx(1 / 4)
    assert word_error_rate("(415) 555-0134", "(415) 555-0143") == pytest.approx(2 / 10)


def test_the_normalizer_reads_ordinals_and_only_its_own_scales() -> None:
    assert normalize_words("the twelfth") == ["the", "1", "2"]
    assert normalize_words("twentieth") == ["2", "0"]
    assert normalize_words("one millionth") == ["1", *"000000"]
    assert normalize_words("zeroth") == ["0"]
    assert normalize_words("nineth") == ["9"]  # a regular "th" as an ASR may write it
    assert normalize_words("two thousand") == ["2", "0", "0", "0"]
    assert normalize_words("two billion") == ["2", "billion"]  # thousands and millions only
    assert normalize_words("two trillion") == ["2", "trillion"]


def test_word_edits_is_the_levenshtein_distance_over_words() -> None:
    assert word_edits([], []) == 0
    assert word_edits(["a", "b"], []) == 2
    assert word_edits([], ["a"]) == 1
    assert word_edits(["a", "b", "c"], ["a", "b", "c"]) == 0
    assert word_edits(["a", "b", "c"], ["a", "x", "c"]) == 1  # substitution
    assert word_edits(["a", "b", "c"], ["a", "c"]) == 1  # deletion
    assert word_edits(["a", "b", "c"], ["a", "b", "b", "c"]) == 1  # insertion
    assert word_edits(["kitten"], ["sitting"]) == 1  # words, not characters
    assert word_edits(["the", "cat", "sat"], ["cat", "sat", "on"]) == 2


def test_word_error_rate_is_edits_over_reference_words() -> None:
    assert word_error_rate("my name is Siobhan", "my name is Shivaun") == 0.25
    assert word_error_rate("one two", "one two three four") == 1.0
    assert word_error_rate("", "") == 0.0
    assert word_error_rate("", "noise") == 1.0
    assert word_error_rate("hello there", "") == 1.0


def test_the_sentence_set_has_codes_phones_names_dates_amounts_and_a_plain_line() -> None:
    text = " ".join(VOICE_SENTENCES)
    assert len(VOICE_SENTENCES) >= 8
    for needle in ("E1042", "CC-330", "07700 900123", "(415) 555-0134", "Siobhan O'Connor"):
        assert needle in text
    assert "2026" in text and "$1,250" in text
    assert any(not any(ch.isdigit() for ch in s) and "'" not in s for s in VOICE_SENTENCES)


class EchoASR:
    """Hears every clip as the next of its lines (a scripted listener)."""

    name = "echo"

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)

    def transcribe(self, samples: Int16Array) -> Transcript:
        assert samples.dtype == np.int16 and samples.size > 0
        return Transcript(self.lines.pop(0), ())


def test_the_synthetic_engine_is_measured_end_to_end() -> None:
    sentences = VOICE_SENTENCES[:3]
    heard = ["Your reference number is E 10 42.", "Please quote the code CC 330.", ""]
    ticks: list[tuple[str, int]] = []
    check = check_voice(
        "synthetic",
        "alto",
        Listener(EchoASR(heard)),
        sentences=sentences,
        tick=lambda label, n: ticks.append((label, n)),
    )
    assert check.voice == "synthetic:alto" and check.available and check.error is None
    assert check.neural is False and NEURAL["piper"] is True
    assert check.rtf is not None and 0 < check.rtf < 1
    assert [s.text for s in check.sentences] == list(sentences)
    assert [s.wer for s in check.sentences] == [0.0, pytest.approx(4 / 12), 1.0]
    words = [len(normalize_words(s)) for s in sentences]
    assert check.wer == pytest.approx((0 + 4 + words[2]) / sum(words))
    assert ticks == [("synthetic:alto", 1)] * 3
    assert check.sample is not None and check.sample.size > 0
    shown = check.to_dict()
    assert set(shown) == {
        *("voice", "engine", "available", "neural", "rtf", "wer"),
        *("per_sentence", "error", "wer_error"),
    }
    assert shown["per_sentence"][1] == {
        "text": sentences[1],
        "heard": heard[1],
        "wer": pytest.approx(0.3333),
    }


def test_slower_speech_is_longer_and_without_an_asr_the_wer_says_why() -> None:
    fast = check_voice("synthetic", "bass", Listener(None, "no ASR here"), sentences=["Hello."])
    slow = check_voice(
        "synthetic",
        "bass",
        Listener(None, "no ASR here"),
        settings=SynthesisSettings(speed=0.5),
        sentences=["Hello."],
    )
    assert slow.sentences[0].audio_s > fast.sentences[0].audio_s
    assert fast.wer is None and fast.wer_error == "no ASR here" and fast.rtf is not None
    assert fast.sentences[0].heard is None and fast.error is None


class FailingASR:
    name = "failing"

    def transcribe(self, samples: Int16Array) -> Transcript:
        raise ASRError("ASR 'failing' failed: broken")


def test_an_asr_that_fails_leaves_the_wer_empty_with_its_error() -> None:
    check = check_voice("synthetic", "alto", Listener(FailingASR()), sentences=["One.", "Two."])
    assert check.wer is None and check.wer_error is not None and "broken" in check.wer_error
    assert all(s.wer is None for s in check.sentences) and check.rtf is not None


class MissingTTS(SyntheticTTS):
    """Lists voices but cannot speak: its package is 'missing'."""

    name = "missing"

    def synthesize(
        self, text: str, voice: str, settings: SynthesisSettings
    ) -> tuple[Int16Array, int]:
        raise SpeechUnavailable("missing is not installed: pip install missing")


def test_an_unavailable_engine_is_listed_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tts.REGISTRY, "_instances", {})
    monkeypatch.setitem(tts.REGISTRY._factories, "missing", MissingTTS)

    def absent() -> tts.TTSEngine:
        raise SpeechUnavailable("absent is not installed: apt-get install absent")

    monkeypatch.setitem(tts.REGISTRY._factories, "absent", absent)
    plan = engine_voices(["absent", "missing", "synthetic"])
    assert [(e.engine, e.available) for e in plan] == [
        ("absent", False),
        ("missing", True),
        ("synthetic", True),
    ]
    assert plan[0].voices == () and "apt-get install absent" in (plan[0].error or "")
    row = plan[0].unlisted()
    assert row.voice is None and not row.available and row.error == plan[0].error
    ticks: list[int] = []
    check = check_voice(
        "missing", "alto", Listener(None, "-"), tick=lambda _label, n: ticks.append(n)
    )
    assert not check.available and "pip install missing" in (check.error or "")
    assert check.rtf is None and check.wer is None and ticks == [len(VOICE_SENTENCES)]
    unknown = check_voice("nosuchengine", "x", Listener(None, "-"), sentences=["Hi."])
    assert not unknown.available and "unknown TTS engine" in (unknown.error or "")


def test_a_voice_the_engine_refuses_is_an_error_row() -> None:
    check = check_voice("flite", "nosuchvoice", Listener(None, "-"), sentences=["Hi."])
    assert check.error is not None and check.rtf is None


def _real_stack() -> bool:
    return all(importlib.util.find_spec(name) for name in ("piper", "faster_whisper"))


@pytest.mark.skipif(not _real_stack(), reason="needs piper and faster-whisper")
def test_piper_joe_is_heard_back_by_whisper() -> None:
    listener = reference_listener()
    if listener.asr is None:
        pytest.skip(listener.missing or "no whisper")
    check = check_voice("piper", "joe", listener, sentences=VOICE_SENTENCES[:4])
    if not check.available:
        pytest.skip(check.error or "no piper")
    assert check.error is None and check.wer is not None and check.wer < 0.3
    assert check.rtf is not None and check.rtf < 1.0
