"""`duplexbench voices`: JSON, the page, the engine and persona filters, missing engines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from duplexbench.audio import Int16Array
from duplexbench.cli import _voices as voices_cli
from duplexbench.cli import main
from duplexbench.speech import _tts as tts
from duplexbench.speech._asr import Transcript
from duplexbench.speech._synthetic import SyntheticTTS
from duplexbench.speech._tts import SpeechUnavailable, SynthesisSettings
from duplexbench.speech._voice_check import VOICE_SENTENCES, Listener
from duplexbench.users import NEUTRAL, PERSONAS


class PerfectASR:
    """Hears each clip as the sentence it was (the set, in order, over and over)."""

    name = "perfect"

    def __init__(self, sentences: tuple[str, ...]) -> None:
        self.sentences, self.calls = sentences, 0

    def transcribe(self, samples: Int16Array) -> Transcript:
        text = self.sentences[self.calls % len(self.sentences)]
        self.calls += 1
        return Transcript(text, ())


@pytest.fixture(autouse=True)
def listener(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A scripted ASR instead of whisper (fast), and a working folder of its own."""
    fake = Listener(PerfectASR(VOICE_SENTENCES[:2]))
    monkeypatch.setattr(voices_cli, "reference_listener", lambda: fake)
    monkeypatch.chdir(tmp_path)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, ["voices", *args], catch_exceptions=False)


def test_json_on_a_restricted_set(tmp_path: Path) -> None:
    result = invoke("--json", "--engine", "synthetic", "--persona", NEUTRAL, "--sentences", "2")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"format", "sentences", "voices", "personas"}
    assert data["format"] == "duplexbench-voices/1"
    assert data["sentences"] == list(VOICE_SENTENCES[:2])
    synthetic = [f"synthetic:{v}" for v in SyntheticTTS().voices()]
    assert [v["voice"] for v in data["voices"]] == synthetic
    for voice in data["voices"]:
        assert set(voice) == {
            *("voice", "engine", "available", "neural", "rtf", "wer"),
            *("per_sentence", "error", "wer_error"),
        }
        assert voice["engine"] == "synthetic" and voice["available"] is True
        assert voice["neural"] is False and voice["error"] is None
        assert voice["rtf"] > 0 and voice["wer"] == 0.0
        assert [s["text"] for s in voice["per_sentence"]] == list(VOICE_SENTENCES[:2])
        assert all(set(s) == {"text", "heard", "wer"} for s in voice["per_sentence"])
    [persona] = data["personas"]
    expected = PERSONAS[NEUTRAL]
    assert persona["name"] == NEUTRAL and persona["voice"] == expected.voice
    assert persona["speed"] == expected.speed
    assert persona["pitch_semitones"] == expected.pitch_semitones
    assert persona["accent"] == expected.accent
    assert persona["description"] == expected.description
    assert set(persona) >= {"rtf", "wer", "error"}
    assert not (tmp_path / "voices.html").exists()  # --json writes a page only with --out


def test_the_page_by_default_and_at_out(tmp_path: Path) -> None:
    result = invoke("--engine", "synthetic", "--no-personas", "--sentences", "1")
    assert result.exit_code == 0, result.output
    assert "synthetic:alto" in result.output and "page: voices.html" in result.output
    page = (tmp_path / "voices.html").read_text(encoding="utf-8")
    assert page.count('<tr class="voice">') == len(SyntheticTTS().voices())
    assert '<tr class="persona">' not in page
    out = tmp_path / "sub" / "listen.html"
    result = invoke("--json", "--engine", "synthetic", "--no-personas", "--out", str(out))
    assert result.exit_code == 0 and out.is_file()
    assert json.loads(result.stdout)["personas"] == []


class MissingTTS(SyntheticTTS):
    def synthesize(
        self, text: str, voice: str, settings: SynthesisSettings
    ) -> tuple[Int16Array, int]:
        raise SpeechUnavailable("missingtts is not installed: pip install missingtts")


def test_an_unavailable_engine_is_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tts.REGISTRY, "_instances", {})
    monkeypatch.setitem(tts.REGISTRY._factories, "missingtts", MissingTTS)

    def absent() -> tts.TTSEngine:
        raise SpeechUnavailable("absent is not installed")

    monkeypatch.setitem(tts.REGISTRY._factories, "absent", absent)
    args = ["--json", "--engine", "absent", "--engine", "missingtts", "--no-personas"]
    result = invoke(*args, "--sentences", "1")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["voices"]
    assert rows[0]["voice"] is None and rows[0]["available"] is False
    assert rows[0]["error"] == "absent is not installed"
    assert {r["available"] for r in rows[1:]} == {False} and len(rows) == 6
    assert all("pip install missingtts" in r["error"] for r in rows[1:])


def test_bad_options_are_refused() -> None:
    result = invoke("--engine", "nosuch")
    assert result.exit_code == 2 and "unknown engine nosuch" in result.output
    result = invoke("--persona", "nobody", "--engine", "synthetic")
    assert result.exit_code == 2 and "unknown persona nobody" in result.output
    result = invoke("--persona", NEUTRAL, "--no-personas")
    assert result.exit_code == 2 and "exclude each other" in result.output
    result = invoke("--sentences", "0")
    assert result.exit_code == 2


def test_help_explains_the_measures() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    for words in ("real-time factor", "word", "--no-personas", "--engine", "offline"):
        assert words in result.output
