"""The speech a step agent is lent (`AudioSession.speech`): TTS and ASR round trip."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from duplexbench.agents._audio_protocol import SpeechKit
from duplexbench.orchestrator._audio_loop import BankSpeech
from duplexbench.speech._bank import SpeechBank


def test_an_agent_can_hear_what_is_said_and_answer(tmp_path: Path) -> None:
    speech: SpeechKit = BankSpeech(SpeechBank(tmp_path), "piper:joe")
    said = speech.synthesize("Please book the meeting room for Tuesday.")
    heard = speech.transcribe(said).lower()
    assert "meeting room" in heard and "tuesday" in heard
    assert speech.transcribe(np.zeros(16_000, dtype=np.int16)) == ""
