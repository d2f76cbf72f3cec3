"""The voices page: every voice and persona a row, audio embedded, no script, all escaped."""

from __future__ import annotations

import base64
import dataclasses
import html
import io
import wave
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from duplexbench.audio import Int16Array
from duplexbench.report import VoicesReport, measure_voices, write_voices_page
from duplexbench.report._voices_page import CSP, FORMAT, voices_page, wav_data_uri
from duplexbench.speech import _tts as tts
from duplexbench.speech._asr import Transcript
from duplexbench.speech._synthetic import SyntheticTTS
from duplexbench.speech._tts import SpeechUnavailable, SynthesisSettings
from duplexbench.speech._voice_check import EngineVoices, Listener, engine_voices
from duplexbench.users import PERSONAS
from support.xss import HOSTILE, XSS_CORPUS

EVIL = "<script>alert('voice')</script>"
SENTENCES = ("Your reference number is E1042.", "Hello there.")


class HostileTTS(SyntheticTTS):
    """The synthetic engine with a voice name that is markup."""

    def voices(self) -> list[str]:
        return ["alto", EVIL]


class MissingTTS(SyntheticTTS):
    """Lists a voice, but its package is 'missing'."""

    def voices(self) -> list[str]:
        return ["alto"]

    def synthesize(
        self, text: str, voice: str, settings: SynthesisSettings
    ) -> tuple[Int16Array, int]:
        raise SpeechUnavailable(f"not installed {EVIL}")


class HostileASR:
    """Hears every clip as the hostile corpus."""

    name = "hostile"

    def transcribe(self, samples: Int16Array) -> Transcript:
        return Transcript(HOSTILE, ())


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.audio: list[str] = []
        self.meta: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        values = {k: v or "" for k, v in attrs}
        if tag == "audio":
            self.audio.append(values.get("src", ""))
        if tag == "meta" and "http-equiv" in values:
            self.meta[values["http-equiv"]] = values.get("content", "")


@pytest.fixture
def report(monkeypatch: pytest.MonkeyPatch) -> VoicesReport:
    """Two hostile engines (`<script>` in an engine name, a voice name, an error and
    the transcripts) and two personas, one with a hostile description."""
    monkeypatch.setattr(tts.REGISTRY, "_instances", {})
    monkeypatch.setitem(tts.REGISTRY._factories, EVIL, HostileTTS)
    monkeypatch.setitem(tts.REGISTRY._factories, "gone", MissingTTS)
    first = next(iter(PERSONAS.values()))
    personas = [
        dataclasses.replace(
            first, name="plain", voice="synthetic:alto", speed=1.1, pitch_semitones=2.0
        ),
        dataclasses.replace(
            first,
            name="hostile",
            voice="synthetic:bass",
            speed=1.0,
            pitch_semitones=0.0,
            description=EVIL,
            accent=HOSTILE,
        ),
    ]
    plan = [*engine_voices([EVIL, "gone"]), EngineVoices("absent", (), False, f"no {EVIL}")]
    return measure_voices(plan, personas, Listener(HostileASR()), SENTENCES)


def test_every_voice_and_persona_is_a_row_with_its_sample(report: VoicesReport) -> None:
    page = voices_page(report)
    assert len(report.voices) == 4 and len(report.personas) == 2
    voices_table = page[page.index('id="voices"') : page.index('id="personas"')]
    assert voices_table.count('<tr class="voice">') == 4
    assert page[page.index('id="personas"') :].count('<tr class="persona">') == 2
    for check in report.voices:
        assert html.escape(check.engine) in voices_table
    assert "<td>plain</td>" in page and "<td>synthetic:alto</td>" in page
    parsed = Tags()
    parsed.feed(page)
    available = [v for v in report.voices if v.sample is not None]
    assert len(parsed.audio) == len(available) + 2 == 4
    for src in parsed.audio:
        assert src.startswith("data:audio/wav;base64,")
        with wave.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))) as clip:
            assert clip.getnchannels() == 1 and clip.getframerate() == 16_000
            assert clip.getnframes() > 0
    assert "not installed" in page and "gone:alto" in page


def test_the_page_has_a_strict_csp_and_no_script(report: VoicesReport) -> None:
    page = voices_page(report)
    parsed = Tags()
    parsed.feed(page)
    assert parsed.meta["Content-Security-Policy"] == CSP
    assert "default-src 'none'" in CSP and "media-src data:" in CSP and "script-src" not in CSP
    assert "script" not in parsed.tags and "<script" not in page.lower()
    assert '="http' not in page  # the trap URLs of the transcripts are text only


def test_every_string_is_escaped(report: VoicesReport) -> None:
    page = voices_page(report)
    assert EVIL not in page and html.escape(EVIL) in page
    for payload in XSS_CORPUS.values():
        assert payload not in page
    parsed = Tags()
    parsed.feed(page)
    allowed = {"html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "p", "ol"}
    allowed |= {"li", "table", "thead", "tbody", "tr", "th", "td", "audio", "details"}
    allowed |= {"summary", "div"}
    assert set(parsed.tags) <= allowed


def test_the_json_shape(report: VoicesReport) -> None:
    data = report.to_dict()
    assert data["format"] == FORMAT == "duplexbench-voices/1"
    assert data["sentences"] == list(SENTENCES)
    absent = data["voices"][-1]
    assert absent == {
        "voice": None,
        "engine": "absent",
        "available": False,
        "neural": None,
        "rtf": None,
        "wer": None,
        "per_sentence": [],
        "error": f"no {EVIL}",
        "wer_error": None,
    }
    plain = data["personas"][0]
    assert set(plain) == {
        *("name", "voice", "speed", "pitch_semitones", "accent", "description"),
        *("rtf", "wer", "error", "wer_error"),
    }
    assert plain["voice"] == "synthetic:alto" and plain["speed"] == 1.1
    assert plain["pitch_semitones"] == 2.0 and plain["rtf"] > 0 and plain["wer"] > 1


def test_written_atomically_and_the_audio_survives(report: VoicesReport, tmp_path: Path) -> None:
    page = write_voices_page(report, tmp_path / "voices.html")
    assert page.read_text(encoding="utf-8") == voices_page(report)
    samples = np.array([0, 1000, -1000, 32767, -32768], dtype=np.int16)
    uri = wav_data_uri(samples)
    with wave.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1]))) as clip:
        back = np.frombuffer(clip.readframes(clip.getnframes()), dtype="<i2")
    assert back.tolist() == samples.tolist()
