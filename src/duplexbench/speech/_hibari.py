"""The ``hibari`` TTS engine: a small neural US English female voice, ``hibari:heart``.

``pip install 'duplexbench[speech]'`` (the ``hibari-tts`` package, import name
``hibari``). Only ``heart`` ships inside the package; hibari's other voices
are downloaded from the network on first use, which a benchmark must not
depend on, so they are refused (``ValueError``).

- Deterministic: one onnxruntime intra-op thread (``speech_threads("tts")``)
  and a fixed noise seed (:data:`HIBARI_SEED`) give byte-identical samples
  call after call (tests/speech/test_hibari.py checks it). The thread count
  and the seed are part of :meth:`HibariTTS.version`, hence of every bank key.
- The model (ONNX session, G2P lexicons) loads once per process, on the
  first clip; synthesis is serialized by a lock (hibari's G2P loads its
  out-of-vocabulary net lazily and is not documented as thread-safe; at 100 to
  170 times real time on one core the lock costs little).
- Text first goes through :func:`~duplexbench.speech._digits.speak_digits`:
  hibari reads every digit string as a number ("07700" as "seven thousand
  seven hundred"), a caller reads identifiers digit by digit.
- Speed is hibari's ``speed``; pitch (±3 semitones) is rendered slower and
  resampled (:mod:`duplexbench.speech._pitch`).
- Output: mono int16 at hibari's native 24 kHz (the bank resamples).

:meth:`HibariTTS.version` names the package version, the digest of the voice
model and of hibari's other assets (lexicons, tagger, OOV nets: they change
the phonemes), the digit rule, the seed and the thread count.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import threading
from pathlib import Path
from typing import Any

import numpy as np

from duplexbench.audio import Int16Array, to_int16
from duplexbench.entries import file_digest
from duplexbench.speech._digits import DIGITS_RULE, speak_digits
from duplexbench.speech._engines import check_pitch
from duplexbench.speech._pitch import FloatArray, render_at_pitch
from duplexbench.speech._threads import speech_threads
from duplexbench.speech._tts_types import SpeechUnavailable, SynthesisSettings

__all__ = ["HIBARI_SEED", "HibariTTS"]

HIBARI_SEED = 0
"""The seed of hibari's noise component: a fixed seed makes its output repeatable."""

_INSTALL = "pip install 'duplexbench[speech]'"


def _import_hibari() -> Any:
    try:
        return importlib.import_module("hibari")
    except ImportError as exc:
        raise SpeechUnavailable(
            f"the hibari engine needs the hibari-tts package: {_INSTALL} ({exc})"
        ) from None


class HibariTTS:
    """hibari with its bundled ``heart`` voice; deterministic (fixed seed, one thread)."""

    name = "hibari"
    VOICES = ("heart",)

    def __init__(self) -> None:
        package = _import_hibari()
        voices = importlib.import_module("hibari.voices")
        try:
            self._model_path = Path(voices.voice_path("heart", download_missing=False))
        except (FileNotFoundError, ValueError) as exc:
            raise SpeechUnavailable(
                f"hibari's heart voice is missing: {_INSTALL} ({exc})"
            ) from None
        self._assets = Path(package.__file__).parent / "assets"
        self.rate = int(package.SAMPLE_RATE)
        self.threads = speech_threads("tts")
        self._package = package
        self._model: Any = None
        self._version: str | None = None
        self._lock = threading.Lock()

    def version(self) -> str:
        if self._version is None:
            runtime = importlib.metadata.version("hibari-tts")
            model = file_digest(self._model_path)[:16]
            self._version = (
                f"hibari-tts {runtime} / heart {model} / assets {self._assets_digest()[:16]}"
                f" / {DIGITS_RULE} / seed {HIBARI_SEED} / {self.threads} threads"
            )
        return self._version

    def _assets_digest(self) -> str:
        """One digest of hibari's assets besides the voice model (G2P data and nets)."""
        digest = hashlib.sha256()
        for path in sorted(self._assets.iterdir()):
            if path.is_file() and path.resolve() != self._model_path.resolve():
                digest.update(f"{path.name}\0{file_digest(path)}\n".encode())
        return digest.hexdigest()

    def voices(self) -> list[str]:
        return list(self.VOICES)

    def _loaded(self) -> Any:
        """The model, loaded on first use; call with the lock held."""
        if self._model is None:
            try:
                self._model = self._package.Hibari(voice="heart", threads=self.threads)
            except ImportError as exc:  # onnxruntime
                raise SpeechUnavailable(f"hibari could not load: {_INSTALL} ({exc})") from None
        return self._model

    def synthesize(
        self, text: str, voice: str, settings: SynthesisSettings
    ) -> tuple[Int16Array, int]:
        """`text`, its identifiers spelled (:func:`speak_digits`), at the settings'
        speed and pitch; mono int16 at 24 kHz."""
        if voice not in self.VOICES:
            raise ValueError(
                f"hibari voice {voice!r} not available (only 'heart' ships with the "
                f"package; hibari downloads the others at run time); voices: heart"
            )
        check_pitch(self.name, voice, settings.pitch_semitones)
        spoken = speak_digits(text)
        with self._lock:
            model = self._loaded()

            def render(speed: float) -> FloatArray:
                audio = model(spoken, speed=speed, seed=HIBARI_SEED)
                return np.asarray(audio, dtype=np.float32).reshape(-1)

            audio = render_at_pitch(render, settings.speed, settings.pitch_semitones, self.rate)
        return to_int16(audio), self.rate
