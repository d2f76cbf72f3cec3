"""The frozen speech bank: every (text, voice, settings) rendered once and kept.

A clip's key is a sha256 over a canonical JSON of the text, engine, engine
version, voice, settings, output rate and :data:`BANK_FORMAT`. Clips live at
``root/<key[:2]>/<key>.wav`` (16 kHz mono PCM16) with a ``<key>.json`` sidecar
that records the samples' sha256; the sidecar is written last and acts as the
commit marker. Reads go memory LRU -> disk (checksum verified; a corrupt or
truncated file is re-rendered and counted) -> render. A render whose engine
fails or returns unusable audio raises ``TTSError``
(:mod:`duplexbench.speech._synthesis`) and stores nothing.

Writes are atomic (temp file in the same folder, then ``os.replace``), so
workers rendering the same clip at once, or a worker killed mid-write, never
leave a corrupt file under a final name. Rendering is deterministic, so
concurrent writers store identical bytes.

Every render (not a memory or disk hit) is counted per process
(:func:`renders`) and logged at DEBUG level on this module's logger, so a
caller can tell how many clips were synthesized during an episode. A process
can hand the renders of some engines to another process
(:func:`use_remote_renderer`, the campaign's render service): the clip comes
back through the disk, verified like any other read, and counts as a render.
:meth:`SpeechBank.missing` lists the requests (:class:`ClipRequest`) not yet
committed to disk, without reading or verifying any audio.

Before storing, audio is converted to 16 kHz mono int16 and its speech-active
RMS normalized to -20 dBFS (plus ``settings.gain_db``), lowered if needed so
peaks do not clip. Silence is stored as is.

An engine that speaks long lines in independent pieces (piper) keeps each
piece's audio in ``root/pieces/`` (:mod:`duplexbench.speech._pieces`), so a line
that differs from one already rendered in one value renders only the pieces
that changed; the line's samples are the same either way.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from duplexbench.audio import (
    SAMPLE_RATE,
    AudioFormatError,
    Int16Array,
    ms_for_samples,
    read_wav,
    sha256_pcm,
    write_wav,
)
from duplexbench.entries import cache_root
from duplexbench.files import write_text_atomic
from duplexbench.speech._pieces import PieceStore
from duplexbench.speech._synthesis import synthesize_checked
from duplexbench.speech._tts import SynthesisSettings, TTSError, VoiceRef, get_tts

__all__ = [
    "BANK_FORMAT",
    "TARGET_RMS_DBFS",
    "BankStats",
    "Clip",
    "ClipRequest",
    "PrerenderFailure",
    "PrerenderReport",
    "RemoteRenderer",
    "SpeechBank",
    "default_root",
    "normalize_loudness",
    "renders",
    "use_remote_renderer",
]

BANK_FORMAT = 1
PIECES_FOLDER = "pieces"
"""Under the bank's root: the piece cache of long lines (speech/_pieces.py)."""
TARGET_RMS_DBFS = -20.0
PEAK_LIMIT = 0.98  # of full scale
_FRAME = SAMPLE_RATE // 50  # 20 ms
_SILENCE_DBFS = -60.0  # loudest frame below this: treat the clip as silence
_ACTIVE_RANGE_DB = 40.0  # frames within this of the loudest count as speech
_LOG = logging.getLogger(__name__)
_RENDERS = [0]  # clips rendered in this process, by any bank
_RENDERS_LOCK = threading.Lock()


def renders() -> int:
    """How many clips the banks of this process have rendered since it started.

    A render is a call to the TTS engine (a clip missing or corrupt on disk);
    memory and disk hits do not count. Read it before and after an episode to
    count the TTS the episode waited for.
    """
    with _RENDERS_LOCK:
        return _RENDERS[0]


@dataclass(frozen=True)
class Clip:
    """One rendered utterance: 16 kHz mono int16 (read-only array)."""

    text: str
    voice: str
    key: str
    sha256: str
    samples: Int16Array = field(repr=False, compare=False)

    @property
    def duration_ms(self) -> int:
        return ms_for_samples(len(self.samples))


@dataclass(frozen=True)
class ClipRequest:
    """One clip a bank should hold: ``text`` in ``voice`` (``engine:voice``) with ``settings``."""

    text: str
    voice: str
    settings: SynthesisSettings = field(default_factory=SynthesisSettings)


@dataclass
class BankStats:
    hits_memory: int = 0
    hits_disk: int = 0
    rendered: int = 0
    rerendered_corrupt: int = 0


@dataclass(frozen=True)
class PrerenderFailure:
    text: str
    voice: str
    reason: str


@dataclass(frozen=True)
class PrerenderReport:
    requested: int
    unique: int
    rendered: int
    cached: int
    failures: tuple[PrerenderFailure, ...]

    @property
    def failed(self) -> int:
        return len(self.failures)

    @property
    def ok(self) -> bool:
        return not self.failures


def default_root() -> Path:
    return cache_root()


def _db_to_amp(db: float) -> float:
    return float(10.0 ** (db / 20.0))


def normalize_loudness(samples: Int16Array, gain_db: float = 0.0) -> Int16Array:
    """Scale so the RMS of speech-active 20 ms frames is -20 dBFS + ``gain_db``.

    Deterministic. Silence (loudest frame below -60 dBFS) is returned unchanged;
    the gain is lowered where it would push peaks past 98% of full scale.
    """
    if samples.size == 0:
        return samples
    x = samples.astype(np.float64) / 32768.0
    n_frames = max(1, math.ceil(x.size / _FRAME))
    padded = np.zeros(n_frames * _FRAME)
    padded[: x.size] = x
    frame_ms = np.mean(padded.reshape(n_frames, _FRAME) ** 2, axis=1)
    loudest = float(np.max(frame_ms))
    if loudest <= _db_to_amp(_SILENCE_DBFS) ** 2:
        return samples
    active = frame_ms[frame_ms >= loudest * _db_to_amp(-_ACTIVE_RANGE_DB) ** 2]
    rms = math.sqrt(float(np.mean(active)))
    gain = _db_to_amp(TARGET_RMS_DBFS + gain_db) / rms
    peak = float(np.max(np.abs(x)))
    gain = min(gain, PEAK_LIMIT / peak)
    out = np.clip(np.rint(x * gain * 32768.0), -32768, 32767)
    return out.astype(np.int16)


def _voice(voice: VoiceRef | str) -> VoiceRef:
    return voice if isinstance(voice, VoiceRef) else VoiceRef.parse(voice)


class RemoteRenderer(Protocol):
    """Renders clips of some engines in another process (`campaign/_render_service.py`)."""

    @property
    def engines(self) -> frozenset[str]:
        """The engines whose clips it renders now."""
        ...

    def render(self, root: Path, key: str, request: ClipRequest) -> bool:
        """Commit `request`'s clip under the bank folder `root` as `key`: True when
        done, False when it cannot make that clip (render it here); TTSError when
        the render failed."""
        ...


_REMOTE: list[RemoteRenderer | None] = [None]


def use_remote_renderer(renderer: RemoteRenderer | None) -> RemoteRenderer | None:
    """Banks of this process render clips of ``renderer.engines`` through it from now
    on (None: here); the renderer it replaces."""
    previous, _REMOTE[0] = _REMOTE[0], renderer
    return previous


class _Corrupt(Exception):
    """A stored clip that exists but does not verify."""


class SpeechBank:
    """Render-once cache of TTS clips (memory LRU over a content-addressed folder)."""

    def __init__(
        self, root: Path | None = None, memory_items: int = 512, memory_mib: float = 32.0
    ) -> None:
        self.root = Path(root) if root is not None else default_root()
        self.memory_items = max(0, memory_items)
        self.memory_bytes = max(0, int(memory_mib * 2**20))
        """The LRU also keeps at most this much audio: a disk read is a few ms, and a
        worker that kept 512 long clips held over 100 MiB of them."""
        self._memory_used = 0
        self.stats = BankStats()
        self._memory: OrderedDict[str, Clip] = OrderedDict()
        self._lock = threading.Lock()
        self.pieces = PieceStore(self.root / PIECES_FOLDER)
        """Pieces of long lines, rendered once (speech/_pieces.py)."""

    # ------------------------------------------------------------ keys/paths

    def _describe(
        self, text: str, voice: VoiceRef | str, settings: SynthesisSettings
    ) -> tuple[dict[str, Any], VoiceRef]:
        if not text or not text.strip():
            raise ValueError("cannot render empty text")
        ref = _voice(voice)
        engine = get_tts(ref.engine)
        desc = {
            "format": BANK_FORMAT,
            "text": text,
            "engine": ref.engine,
            "engine_version": engine.version(),
            "voice": ref.voice,
            "settings": settings.as_dict(),
            "rate": SAMPLE_RATE,
        }
        return desc, ref

    @staticmethod
    def _key_of(desc: dict[str, Any]) -> str:
        canonical = json.dumps(desc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def key(
        self,
        text: str,
        voice: VoiceRef | str,
        settings: SynthesisSettings = SynthesisSettings(),  # noqa: B008 - frozen
    ) -> str:
        return self._key_of(self._describe(text, voice, settings)[0])

    def paths(self, key: str) -> tuple[Path, Path]:
        """The (wav, sidecar) paths of a key."""
        folder = self.root / key[:2]
        return folder / f"{key}.wav", folder / f"{key}.json"

    def committed(self, key: str) -> bool:
        """Whether a clip was committed under ``key`` (its sidecar exists; not verified)."""
        return self.paths(key)[1].exists()

    def missing(self, requests: Iterable[ClipRequest]) -> list[ClipRequest]:
        """The requests whose clip is not committed yet, one per key, in first-seen order.

        Requests the bank cannot describe (empty text, an unknown engine) are
        kept: rendering them reports why they fail.
        """
        out: list[ClipRequest] = []
        seen: set[str] = set()
        for request in requests:
            try:
                key = self.key(request.text, request.voice, request.settings)
            except ValueError:
                out.append(request)
                continue
            if key not in seen:
                seen.add(key)
                if not self.committed(key):
                    out.append(request)
        return out

    # ------------------------------------------------------------- lookups

    def clip(
        self,
        text: str,
        voice: VoiceRef | str,
        settings: SynthesisSettings = SynthesisSettings(),  # noqa: B008 - frozen
    ) -> Clip:
        """The clip for (text, voice, settings): from memory, disk, or freshly rendered."""
        return self._get(text, voice, settings)[0]

    def _get(
        self, text: str, voice: VoiceRef | str, settings: SynthesisSettings
    ) -> tuple[Clip, str]:
        desc, ref = self._describe(text, voice, settings)
        key = self._key_of(desc)
        with self._lock:
            hit = self._memory.get(key)
            if hit is not None:
                self._memory.move_to_end(key)
                self.stats.hits_memory += 1
                return hit, "memory"
        try:
            clip = self._load(key)
        except _Corrupt:
            clip = None
            with self._lock:
                self.stats.rerendered_corrupt += 1
            source = "rerendered"
        else:
            source = "disk" if clip is not None else "rendered"
        if clip is None:
            clip = self._render(desc, ref, key, settings)
            if source == "rendered":
                with self._lock:
                    self.stats.rendered += 1
        else:
            with self._lock:
                self.stats.hits_disk += 1
        self._remember(clip)
        return clip, source

    def _remember(self, clip: Clip) -> None:
        if self.memory_items == 0 or clip.samples.nbytes > self.memory_bytes:
            return
        with self._lock:
            if clip.key not in self._memory:
                self._memory_used += clip.samples.nbytes
            self._memory[clip.key] = clip
            self._memory.move_to_end(clip.key)
            while len(self._memory) > self.memory_items or self._memory_used > self.memory_bytes:
                self._memory_used -= self._memory.popitem(last=False)[1].samples.nbytes

    def _load(self, key: str) -> Clip | None:
        """The verified clip on disk, None if absent, _Corrupt if it does not verify."""
        wav_path, meta_path = self.paths(key)
        if not meta_path.exists():
            return None  # never committed (or killed before the sidecar landed)
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            channels, rate = read_wav(wav_path)
        except (OSError, ValueError, AudioFormatError) as exc:
            raise _Corrupt(str(exc)) from None
        if (
            not isinstance(meta, dict)
            or meta.get("key") != key
            or rate != SAMPLE_RATE
            or len(channels) != 1
            or meta.get("samples") != len(channels[0])
            or meta.get("sha256") != sha256_pcm(channels[0])
        ):
            raise _Corrupt(f"{wav_path} does not match its sidecar")
        samples = channels[0]
        samples.flags.writeable = False
        return Clip(str(meta["text"]), str(meta["voice"]), key, str(meta["sha256"]), samples)

    def _render(
        self, desc: dict[str, Any], ref: VoiceRef, key: str, settings: SynthesisSettings
    ) -> Clip:
        remote = _REMOTE[0]
        if (
            remote is not None
            and ref.engine in remote.engines
            and remote.render(self.root, key, ClipRequest(desc["text"], str(ref), settings))
        ):
            return self._rendered_elsewhere(key, ref, desc["text"])
        engine = get_tts(ref.engine)
        raw = synthesize_checked(
            engine, ref.engine, desc["text"], ref.voice, settings, pieces=self.pieces
        )
        with _RENDERS_LOCK:
            _RENDERS[0] += 1
        _LOG.debug("rendered %s %s: %r", ref, settings.as_dict(), desc["text"])
        samples = normalize_loudness(raw, settings.gain_db)
        samples.flags.writeable = False
        clip = Clip(desc["text"], str(ref), key, sha256_pcm(samples), samples)
        self._store(clip, desc)
        return clip

    def _rendered_elsewhere(self, key: str, ref: VoiceRef, text: str) -> Clip:
        """The clip another process just committed, verified like any disk read."""
        try:
            clip = self._load(key)
        except _Corrupt as exc:
            raise TTSError(f"the clip rendered for {text!r} does not verify: {exc}") from None
        if clip is None:
            raise TTSError(f"the clip rendered for {text!r} is not in {self.root}")
        with _RENDERS_LOCK:
            _RENDERS[0] += 1
        _LOG.debug("rendered %s elsewhere: %r", ref, text)
        return clip

    def _store(self, clip: Clip, desc: dict[str, Any]) -> None:
        wav_path, meta_path = self.paths(clip.key)
        try:
            existing = self._load(clip.key)
        except _Corrupt:
            existing = None
        if existing is not None and existing.sha256 == clip.sha256:
            return  # another worker committed the same clip meanwhile
        meta = {
            "key": clip.key,
            "text": clip.text,
            "voice": clip.voice,
            "engine": desc["engine"],
            "engine_version": desc["engine_version"],
            "settings": desc["settings"],
            "format": BANK_FORMAT,
            "rate": SAMPLE_RATE,
            "samples": len(clip.samples),
            "sha256": clip.sha256,
            "duration_ms": clip.duration_ms,
        }
        write_wav(wav_path, [clip.samples], SAMPLE_RATE)  # atomic; creates the folder
        write_text_atomic(meta_path, json.dumps(meta, indent=1, ensure_ascii=False) + "\n")

    # ----------------------------------------------------------- prerender

    def prerender(
        self,
        requests: Iterable[tuple[str, VoiceRef | str] | ClipRequest],
        progress: Callable[[int, int], None] | None = None,
        settings: SynthesisSettings = SynthesisSettings(),  # noqa: B008 - frozen
    ) -> PrerenderReport:
        """Make sure every (text, voice) is on disk; never raises for one bad request.

        A (text, voice) pair is spoken with ``settings``; a :class:`ClipRequest`
        carries its own.
        """
        items = [
            (r.text, r.voice, r.settings) if isinstance(r, ClipRequest) else (*r, settings)
            for r in requests
        ]
        unique: list[tuple[str, VoiceRef | str, SynthesisSettings]] = []
        seen: set[tuple[str, str, SynthesisSettings]] = set()
        for text, voice, said in items:
            ident = (text, str(voice), said)
            if ident not in seen:
                seen.add(ident)
                unique.append((text, voice, said))
        rendered = cached = 0
        failures: list[PrerenderFailure] = []
        done_keys: set[str] = set()
        for done, (text, voice, said) in enumerate(unique, start=1):
            try:
                desc, _ = self._describe(text, voice, said)
                key = self._key_of(desc)
                if key in done_keys:  # e.g. "default" and "piper:joe"
                    cached += 1
                else:
                    done_keys.add(key)
                    _, source = self._get(text, voice, said)
                    if source in ("memory", "disk"):
                        cached += 1
                    else:
                        rendered += 1
            except Exception as exc:  # one bad request must not stop the batch
                failures.append(PrerenderFailure(text, str(voice), f"{type(exc).__name__}: {exc}"))
            if progress is not None:
                progress(done, len(unique))
        return PrerenderReport(len(items), len(unique), rendered, cached, tuple(failures))
