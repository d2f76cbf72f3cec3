"""The hibari engine: determinism, version, voices, and identifiers through whisper.

Pitch (F0 and duration) is in test_pitch_shift.py, speak_digits' rules in
test_digits.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from typing import Any

import numpy as np
import pytest

from duplexbench.audio import to_int16, to_internal
from duplexbench.speech._asr import get_asr
from duplexbench.speech._digits import DIGITS_RULE, speak_digits
from duplexbench.speech._hibari import HIBARI_SEED, HibariTTS
from duplexbench.speech._synthesis import synthesize_checked
from duplexbench.speech._tts import SpeechUnavailable, SynthesisSettings, TTSEngine, get_tts

TEXT = "Hi, I'm calling about my order. My number is 555-993-9731."

# Identifiers the workflows-v2 callers give, in the suites' answer templates: the
# first value of every code shape and three phone numbers (item, fact).
ROUND_TRIP = [
    ("It's {}.", "UT2579"),  # consulting-advisory-01 reference_number
    ("That would be {}.", "EG-5636-AL"),  # consulting-advisory-01 engagement_code
    ("It's {}.", "555-993-9731"),  # consulting-advisory-01 client_phone
    ("That would be {}.", "555-851-5698"),  # coordination-scheduling-01 host_phone
    ("It's {}.", "555-900-9209"),  # coordination-scheduling-02 host_phone
    ("That would be {}.", "VS-825-LC8"),  # coordination-scheduling-01 visit_code
    ("It's {}.", "PR-35FD"),  # customer-service-04 promo_code
    ("That would be {}.", "BK-63HX2"),  # form-completion-06 bank_reference
    ("It's {}.", "PN-PX4988"),  # intake-triage-01 policy_number
    ("That would be {}.", "EV-AS26-6"),  # planning-01 event_code
    ("It's {}.", "CC-775-U"),  # procurement-01 cost_center
    ("That would be {}.", "AT-H326-93"),  # troubleshooting-01 asset_tag
    ("It's {}.", "SN-79AS-298"),  # troubleshooting-01 serial_number
    ("That would be {}.", "ER-775"),  # troubleshooting-05 error_code
    ("It's a Galaxy {}.", "S25"),  # troubleshooting device_model
]


@pytest.fixture(scope="module")
def hibari() -> Any:
    return pytest.importorskip("hibari")


@pytest.fixture(scope="module")
def engine(hibari: Any) -> TTSEngine:
    return get_tts("hibari")


def test_missing_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "hibari", None)  # import hibari -> ImportError
    with pytest.raises(SpeechUnavailable, match=re.escape("pip install 'duplexbench[speech]'")):
        HibariTTS()


def test_importing_speech_loads_neither_hibari_nor_ttspico() -> None:
    code = (
        "import sys, duplexbench.speech as s; s.tts_engines(); "
        "assert 'hibari' in s.tts_engines() and 'pico' in s.tts_engines(); "
        "print(sorted(m for m in ('hibari', 'ttspico', 'onnxruntime') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_version_names_package_model_rule_seed_and_threads(engine: TTSEngine) -> None:
    version = engine.version()
    assert version.startswith("hibari-tts 0.2.1 / heart ")
    assert re.search(r"/ heart [0-9a-f]{16} / assets [0-9a-f]{16} /", version)
    assert f"/ {DIGITS_RULE} / seed {HIBARI_SEED} / 1 threads" in version


def test_version_changes_with_the_thread_count(
    hibari: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUPLEXBENCH_TTS_THREADS", "2")
    assert HibariTTS().version().endswith("/ 2 threads")


def test_only_heart_is_offered(engine: TTSEngine) -> None:
    assert engine.voices() == ["heart"]
    with pytest.raises(ValueError, match=r"hibari voice 'emma' not available.*heart"):
        engine.synthesize("Hello.", "emma", SynthesisSettings())


def test_output_is_int16_at_24k_and_byte_identical(engine: TTSEngine, hibari: Any) -> None:
    first, rate = engine.synthesize(TEXT, "heart", SynthesisSettings())
    second, _ = engine.synthesize(TEXT, "heart", SynthesisSettings())
    assert rate == 24000 and first.dtype == np.int16 and first.size > rate
    assert first.tobytes() == second.tobytes()
    # the engine is hibari itself on the spelled text: one thread, seed 0, speed 1
    direct = hibari.Hibari(voice="heart", threads=1)(speak_digits(TEXT), speed=1.0, seed=0)
    assert to_int16(direct).tobytes() == first.tobytes()


def test_speed_shortens_the_clip(engine: TTSEngine) -> None:
    normal, _ = engine.synthesize(TEXT, "heart", SynthesisSettings())
    fast, _ = engine.synthesize(TEXT, "heart", SynthesisSettings(speed=1.5))
    assert 0.55 < fast.size / normal.size < 0.8


def test_passes_the_bank_checks(engine: TTSEngine) -> None:
    samples = synthesize_checked(engine, "hibari", TEXT, "heart", SynthesisSettings())
    assert samples.dtype == np.int16 and samples.size > 16000


def test_real_time_factor_on_one_core(engine: TTSEngine) -> None:
    """About 100x real time measured; a loose bound, for a loaded CI machine."""
    engine.synthesize("Warm up.", "heart", SynthesisSettings())
    start = time.process_time()
    samples, rate = engine.synthesize(TEXT * 3, "heart", SynthesisSettings())
    cpu = time.process_time() - start
    assert cpu < 0.2 * samples.size / rate


def _heard(value: str, transcript: str) -> bool:
    """`value` in the transcript, case, spaces, dashes and punctuation aside
    ("dash" spoken between parts may come back as a word)."""

    def norm(text: str) -> str:
        return re.sub(r"[^0-9a-z]", "", text.lower().replace("dash", ""))

    return norm(value) in norm(transcript)


def test_identifiers_survive_whisper_better_spelled(engine: TTSEngine, hibari: Any) -> None:
    """The suites' identifiers through hibari and whisper tiny.en, with and without
    speak_digits (measured on this sentence set: 13 of 15 with, 9 without)."""
    try:
        asr = get_asr("whisper")
    except SpeechUnavailable as exc:
        pytest.skip(str(exc))
    raw = hibari.Hibari(voice="heart", threads=1)
    with_rule = without_rule = 0
    misses: list[str] = []
    for template, value in ROUND_TRIP:
        sentence = template.format(value)
        spelled, rate = engine.synthesize(sentence, "heart", SynthesisSettings())
        heard = asr.transcribe(to_internal(spelled, rate)).text
        with_rule += _heard(value, heard)
        if not _heard(value, heard):
            misses.append(f"{speak_digits(sentence)!r} -> {heard!r}")
        plain = to_int16(raw(sentence, speed=1.0, seed=HIBARI_SEED))
        without_rule += _heard(value, asr.transcribe(to_internal(plain, rate)).text)
    print(
        f"\nhibari -> whisper: {with_rule}/{len(ROUND_TRIP)} identifiers with speak_digits, "
        f"{without_rule}/{len(ROUND_TRIP)} without"
    )
    assert with_rule >= 12, misses
    assert with_rule >= without_rule + 3, (with_rule, without_rule)
