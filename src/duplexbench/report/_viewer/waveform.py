"""The viewer's audio: waveform peaks computed here (the page never decodes audio)
and the sources of its <audio> players (relative file URLs, or data: URIs).

Peaks are the loudest sample per bucket on a dBFS scale (-60 dBFS -> 0,
0 dBFS -> 99), at most 100 buckets per second and at most `MAX_POINTS` per
lane, so a 20-minute call stays a few tens of kilobytes per lane.
"""

from __future__ import annotations

import base64
import io
import os
import re
import wave
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import numpy as np

from duplexbench.audio import AudioFormatError, Int16Array, read_wav

MAX_PPS = 100
MAX_POINTS = 12_000
FLOOR_DB = 60.0
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_.-]+\.wav$")


@dataclass(frozen=True)
class Lane:
    key: str
    """`user`, `agent` or `line` (what the agent heard of the user)."""
    label: str
    peaks: list[int]
    pps: float
    """Peaks per second exactly (the sample rate over the bucket size)."""


@dataclass(frozen=True)
class Source:
    label: str
    src: str
    """A URL relative to the page, or a data: URI."""


@dataclass
class EpisodeAudio:
    lanes: list[Lane] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    pps: int = MAX_PPS
    duration_ms: int = 0
    notes: list[str] = field(default_factory=list)


def points_per_second(duration_ms: int) -> int:
    """At most 100 per second and at most MAX_POINTS over the whole call."""
    if duration_ms <= 0:
        return MAX_PPS
    return max(1, min(MAX_PPS, MAX_POINTS * 1000 // duration_ms))


def bucket_size(rate: int, pps: int) -> int:
    """Samples per peak."""
    return max(1, rate // pps)


def peaks(samples: Int16Array, rate: int, pps: int) -> list[int]:
    """Loudest |sample| per bucket of about 1/pps s, in dBFS mapped to 0..99."""
    if len(samples) == 0:
        return []
    bucket = bucket_size(rate, pps)
    count = -(-len(samples) // bucket)
    padded = np.zeros(count * bucket, dtype=np.int32)
    padded[: len(samples)] = samples
    loudest = np.abs(padded).reshape(count, bucket).max(axis=1)
    db = 20 * np.log10(np.maximum(loudest, 1) / 32768.0)
    scaled = np.clip((db + FLOOR_DB) / FLOOR_DB, 0.0, 1.0) * 99
    return [int(v) for v in np.rint(scaled)]


def safe_name(name: object, default: str) -> str:
    """A WAV file name from the trace, only if it is a plain name in the episode folder."""
    return name if isinstance(name, str) and _SAFE_NAME.match(name) else default


def _relative_url(path: Path, page_dir: Path) -> str:
    rel = os.path.relpath(path.resolve(), page_dir.resolve())
    return "/".join(quote(part) for part in Path(rel).parts)


def _data_uri(channels: list[Int16Array], rate: int) -> str:
    """Downmixed mono PCM16 WAV as a data: URI."""
    mono = np.mean(np.stack([c.astype(np.int32) for c in channels]), axis=0)
    buf = io.BytesIO()
    with wave.open(buf, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(np.rint(mono).astype("<i2").tobytes())
    return "data:audio/wav;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _read(path: Path, notes: list[str]) -> tuple[list[Int16Array], int] | None:
    if not path.is_file():
        notes.append(f"{path.name} is missing: no waveform or playback for it.")
        return None
    try:
        return read_wav(path)
    except (AudioFormatError, OSError, ValueError) as exc:
        notes.append(f"{path.name} is unreadable ({exc}): no waveform or playback for it.")
        return None


def _add(audio: EpisodeAudio, wav: tuple[list[Int16Array], int], line: bool, src: str) -> None:
    channels, rate = wav
    if line:
        keys, label = [("line", "user, as heard")], "user line, as the agent heard it"
    else:
        keys = [("user", "user"), ("agent", "agent")] if len(channels) == 2 else [("user", "audio")]
        label = "call (user + agent)"
    for (key, name), samples in zip(keys, channels, strict=False):
        lane_peaks = peaks(samples, rate, audio.pps)
        audio.lanes.append(Lane(key, name, lane_peaks, rate / bucket_size(rate, audio.pps)))
    audio.sources.append(Source(label, src))


def load_audio(
    episode_dir: Path, meta: dict[str, object], page_dir: Path, embed: bool
) -> EpisodeAudio:
    """Peaks and player sources of the call (`meta`: the episode.audio data, may be empty)."""
    audio = EpisodeAudio()
    paths = [episode_dir / safe_name(meta.get("file"), "audio.wav")]
    line = episode_dir / safe_name(meta.get("line_file"), "user_line.wav")
    if meta.get("line_file") is not None or line.is_file():
        paths.append(line)
    wavs = [(path, _read(path, audio.notes)) for path in paths]
    found = [(path, wav) for path, wav in wavs if wav is not None and wav[0]]
    audio.duration_ms = max((len(w[0][0]) * 1000 // w[1] for _, w in found), default=0)
    audio.pps = points_per_second(audio.duration_ms)
    for path, wav in found:
        src = _data_uri(*wav) if embed else _relative_url(path, page_dir)
        _add(audio, wav, path == line, src)
    return audio
