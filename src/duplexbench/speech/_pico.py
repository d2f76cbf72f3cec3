"""The ``pico`` TTS engine: SVOX Pico (non-neural), voices ``pico:en-US`` and ``pico:en-GB``.

``pip install 'duplexbench[pico]'`` (the ``ttspico`` package, which compiles
the SVOX Pico C sources; its language files, the text analysis ``*_ta.bin``
and the speaker ``*_sg.bin``, are installed with it). Both voices are female.

- Deterministic with a fresh engine per clip: a reused ``TtsEngine`` carries
  state from one text to the next (the same text twice gave other samples),
  a fresh one repeats byte for byte. Creating one costs about a millisecond.
- The language files are always read from the package's own directory:
  ``ttspico`` would otherwise prefer ``/usr/share/pico/lang`` when a system
  package put files there, and the voice would depend on the machine.
  Their digests are part of :meth:`PicoTTS.version`.
- Speed: Pico's ``rate`` property, in whole percent (20..500): speed 1.25 is
  rate 125. Pico keeps pauses closer to their length, so a clip at rate 200
  is about 0.6 times as long, not half.
- Pitch: Pico's ``pitch`` property, in whole percent of the voice's F0
  (50..200), ``round(100 * 2 ** (semitones / 12))``: the full ±12 semitones
  (measured: the median F0 moves by the semitones asked, within 0.2). At
  speed 1 and pitch 0 neither property is set.
- Text first goes through :func:`~duplexbench.speech._digits.speak_digits`,
  as for hibari: Pico reads codes as words and numbers too ("PR-35FD" came
  back from whisper as "for 35 FD"); the suites' identifiers (test_hibari.py's
  15) came back 9 of 15 times with it and 4 without (en-US), 11 and 5 (en-GB).
- Output: mono int16 at 16 kHz (Pico's only rate).
- Engines run one at a time (a lock): the C library is not documented as
  reentrant; at about 200x real time that costs little.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import threading
from pathlib import Path
from typing import Any

from duplexbench.audio import Int16Array, pcm16_bytes_to_array
from duplexbench.entries import file_digest
from duplexbench.speech._digits import DIGITS_RULE, speak_digits
from duplexbench.speech._pitch import pitch_factor
from duplexbench.speech._tts_types import SpeechUnavailable, SynthesisSettings

__all__ = ["PICO_RATE", "PicoTTS", "pico_pitch", "pico_rate"]

PICO_RATE = 16_000
"""Pico's sample rate (the only one it speaks at)."""

_INSTALL = "pip install 'duplexbench[pico]'"
_RATE_RANGE = (20, 500)  # Pico's rate property, percent
_PITCH_RANGE = (50, 200)  # Pico's pitch property, percent
# The language files of each voice: text analysis and speaker (signal generation).
_VOICE_FILES = {
    "en-US": ("en-US_ta.bin", "en-US_lh0_sg.bin"),
    "en-GB": ("en-GB_ta.bin", "en-GB_kh0_sg.bin"),
}


def pico_rate(speed: float) -> int:
    """Pico's ``rate`` (percent) for a speed; ValueError outside Pico's 20..500."""
    rate = round(100 * speed)
    if not _RATE_RANGE[0] <= rate <= _RATE_RANGE[1]:
        raise ValueError(
            f"pico speaks at speed {_RATE_RANGE[0] / 100:g} to {_RATE_RANGE[1] / 100:g}, "
            f"got {speed:g}"
        )
    return rate


def pico_pitch(semitones: float) -> int:
    """Pico's ``pitch`` (percent of the voice's F0) for a shift in semitones."""
    pitch = round(100 * pitch_factor(semitones))
    return max(_PITCH_RANGE[0], min(_PITCH_RANGE[1], pitch))


def _import_ttspico() -> Any:
    try:
        return importlib.import_module("ttspico")
    except ImportError as exc:
        raise SpeechUnavailable(
            f"the pico engine needs the ttspico package: {_INSTALL} ({exc})"
        ) from None


class PicoTTS:
    """SVOX Pico through ``ttspico``; a fresh engine per clip."""

    name = "pico"
    VOICES = tuple(_VOICE_FILES)

    def __init__(self) -> None:
        self._module = _import_ttspico()
        self._lang_dir = Path(self._module._LANG_DIR)
        for files in _VOICE_FILES.values():
            for file in files:
                if not (self._lang_dir / file).is_file():
                    raise SpeechUnavailable(
                        f"pico language file {file} missing in {self._lang_dir}: {_INSTALL}"
                    )
        self._version: str | None = None
        self._lock = threading.Lock()

    def version(self) -> str:
        if self._version is None:
            digest = hashlib.sha256()
            for voice, files in _VOICE_FILES.items():
                for file in files:
                    line = f"{voice}\0{file}\0{file_digest(self._lang_dir / file)}\n"
                    digest.update(line.encode())
            runtime = importlib.metadata.version("ttspico")
            self._version = (
                f"ttspico {runtime} / languages {digest.hexdigest()[:16]} / {DIGITS_RULE}"
            )
        return self._version

    def voices(self) -> list[str]:
        return list(self.VOICES)

    def synthesize(
        self, text: str, voice: str, settings: SynthesisSettings
    ) -> tuple[Int16Array, int]:
        """`text`, its identifiers spelled (:func:`speak_digits`), at the settings'
        speed (Pico's rate) and pitch (Pico's pitch); mono int16 at 16 kHz."""
        if voice not in self.VOICES:
            raise ValueError(
                f"pico voice {voice!r} not available; voices: {', '.join(self.VOICES)}"
            )
        rate = pico_rate(settings.speed)
        spoken = speak_digits(text)
        with self._lock:
            try:
                engine = self._module.TtsEngine(voice, lang_dir=str(self._lang_dir))
            except RuntimeError as exc:
                raise SpeechUnavailable(f"pico could not load {voice}: {exc}") from None
            if rate != 100:
                engine.rate = rate
            if settings.pitch_semitones != 0.0:
                engine.pitch = pico_pitch(settings.pitch_semitones)
            chunks: list[tuple[tuple[int, ...], bytes]] = []

            def keep(fmt: tuple[int, ...], audio: bytes, fin: bool) -> bool:
                chunks.append((tuple(fmt), bytes(audio)))
                return True  # go on

            engine.speak(spoken, keep)
        formats = {fmt for fmt, audio in chunks if audio}
        if formats - {(PICO_RATE, 16, 1)}:
            raise ValueError(f"pico spoke {sorted(formats)} (rate, bits, channels), not 16 kHz")
        data = b"".join(audio for _, audio in chunks)
        return pcm16_bytes_to_array(data[: len(data) // 2 * 2]), PICO_RATE
