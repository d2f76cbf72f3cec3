"""Ogg Opus for the Moshi protocol: a streaming writer and an incremental reader.

Both directions of a Moshi conversation carry one Ogg Opus stream each (mono;
Moshi's own client and server write 24 kHz input), cut into websocket
messages wherever the writer happened to flush: a message may hold several
pages, part of one, or the header pages with the first audio. So the reader
here is fed bytes as they arrive and returns the audio of every packet that is
complete; nothing blocks and nothing waits for the end of the stream.

The Ogg layer (pages, lacing, the page CRC) is ours, small and strict: a page
that does not start with `OggS`, has a bad CRC or belongs to a second stream is
an `OggOpusError`. The Opus layer is libopus through PyAV's codec contexts
(`av`, no container code): the encoder takes 24 kHz int16 and makes 20 ms
packets (10 to 120 ms on request), the decoder returns int16 at 48 kHz (what
libopus decodes to through PyAV). As Moshi's own reader (sphn) does, the
decoder plays every sample of every packet: the header's pre-skip is not
applied (sphn's writer puts a fixed 3840 there, not its codec delay).

PyAV is not a core dependency of duplexbench (the `moshi` extra brings it, and
so does `asr`); `PYAV_MISSING` says why it cannot be used, if it cannot.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from duplexbench.audio import Int16Array

try:
    import av

    PYAV_MISSING: str | None = None
except ImportError as _exc:  # pragma: no cover - PyAV is installed with the asr and dev extras
    PYAV_MISSING = f"Opus needs PyAV ({_exc}): pip install 'duplexbench[moshi]'"

OPUS_RATE = 48_000
"""The rate libopus decodes to here (and the unit of Ogg Opus granule positions)."""
MOSHI_RATE = 24_000
"""The rate Moshi's client and server encode at."""
FRAME_MS = (10, 20, 40, 60, 80, 100, 120)
"""Packet durations the encoder makes (Moshi's own writer: 80 ms)."""
MAX_PACKET_BYTES = 1 << 20
"""A packet continued over pages beyond this is refused (Opus packets are <= 1275 bytes)."""
_HEADER = struct.Struct("<4sBBqIIIB")  # capture, version, flags, granule, serial, seq, crc, nseg
_CONTINUED, _FIRST = 0x01, 0x02
_SERIAL = 0x64_75_70_78  # "dupx"


class OggOpusError(ValueError):
    """The bytes are not a mono Ogg Opus stream we can read (the reason says what)."""


def _crc_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) if crc & 0x80000000 else crc << 1
        table.append(crc & 0xFFFFFFFF)
    return tuple(table)


_CRC = _crc_table()


def ogg_crc(data: bytes | bytearray | memoryview) -> int:
    """The Ogg page checksum (CRC-32, polynomial 0x04C11DB7, not reflected, no final xor)."""
    crc = 0
    for byte in bytes(data):
        crc = ((crc << 8) & 0xFFFFFFFF) ^ _CRC[(crc >> 24) ^ byte]
    return crc


def ogg_page(packet: bytes, *, serial: int, sequence: int, granule: int, first: bool) -> bytes:
    """One page holding exactly one whole packet (its lacing ends on the page)."""
    lacing = [255] * (len(packet) // 255) + [len(packet) % 255]
    if len(lacing) > 255:
        raise OggOpusError(f"a packet of {len(packet)} bytes does not fit one page")
    flags = _FIRST if first else 0
    head = _HEADER.pack(b"OggS", 0, flags, granule, serial, sequence, 0, len(lacing))
    page = bytearray(head + bytes(lacing) + packet)
    page[22:26] = struct.pack("<I", ogg_crc(page))
    return bytes(page)


@dataclass(frozen=True, slots=True)
class OggPacket:
    data: bytes
    granule: int
    """The granule position of the page the packet ends on."""


class OggReader:
    """Packets of one logical Ogg stream, from bytes fed in pieces of any size."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._partial = bytearray()
        self._serial: int | None = None
        self._continuing = False

    def feed(self, data: bytes) -> list[OggPacket]:
        self._buf += data
        packets: list[OggPacket] = []
        while (page := self._next_page()) is not None:
            packets += self._packets(*page)
        return packets

    def _next_page(self) -> tuple[int, int, bytes, bytes] | None:
        """(flags, granule, lacing values, body) of the next whole page, or None."""
        buf = self._buf
        if not b"OggS\0".startswith(bytes(buf[:5])):  # garbage is caught on its first bytes
            raise OggOpusError(f"not an Ogg page: {bytes(buf[:8])!r}")
        if len(buf) < _HEADER.size:
            return None
        _capture, _version, flags, granule, serial, _seq, crc, nseg = _HEADER.unpack_from(buf)
        lacing = bytes(buf[_HEADER.size : _HEADER.size + nseg])
        end = _HEADER.size + nseg + sum(lacing)
        if len(lacing) < nseg or len(buf) < end:
            return None
        page = bytearray(buf[:end])
        page[22:26] = b"\0\0\0\0"
        if ogg_crc(page) != crc:
            raise OggOpusError("Ogg page checksum mismatch")
        if self._serial is None:
            self._serial = serial
        elif serial != self._serial:
            raise OggOpusError(f"a second Ogg stream (serial {serial}) is not supported")
        body = bytes(buf[_HEADER.size + nseg : end])
        del buf[:end]
        return flags, granule, lacing, body

    def _packets(self, flags: int, granule: int, lacing: bytes, body: bytes) -> Iterator[OggPacket]:
        if bool(flags & _CONTINUED) != self._continuing:
            raise OggOpusError("Ogg page continuation does not match the packet in progress")
        pos = 0
        for value in lacing:
            self._partial += body[pos : pos + value]
            pos += value
            if len(self._partial) > MAX_PACKET_BYTES:
                raise OggOpusError(f"an Ogg packet over {MAX_PACKET_BYTES} bytes")
            if value < 255:
                yield OggPacket(bytes(self._partial), granule)
                self._partial.clear()
        self._continuing = bool(lacing) and lacing[-1] == 255


def _require_pyav() -> None:
    if PYAV_MISSING is not None:
        raise OggOpusError(PYAV_MISSING)


class OggOpusDecoder:
    """Mono Ogg Opus bytes in (any cut), int16 audio at 48 kHz out, one array per packet."""

    def __init__(self) -> None:
        _require_pyav()
        self._ogg = OggReader()
        self._codec: av.AudioCodecContext | None = None
        self._packets = 0

    def feed(self, data: bytes) -> list[Int16Array]:
        out: list[Int16Array] = []
        for packet in self._ogg.feed(data):
            self._packets += 1
            pcm = self._packet(packet.data)
            if pcm is not None and pcm.size:
                out.append(pcm)
        return out

    def _packet(self, data: bytes) -> Int16Array | None:
        if self._codec is None:
            self._codec = _opus_decoder(data)
            return None
        if data.startswith(b"OpusTags") or not data:  # comments; an empty packet (DTX)
            return None
        try:
            frames = self._codec.decode(av.Packet(data))
        except av.error.FFmpegError as exc:
            raise OggOpusError(f"undecodable Opus packet {self._packets}: {exc}") from None
        parts = [_int16(frame) for frame in frames]
        return np.concatenate(parts) if parts else None


def _opus_decoder(head: bytes) -> av.AudioCodecContext:
    """The decoder for a stream whose first packet is `head` (an `OpusHead`, RFC 7845)."""
    if len(head) < 19 or not head.startswith(b"OpusHead"):
        raise OggOpusError(f"the stream does not start with OpusHead: {head[:16]!r}")
    if head[8] >> 4 != 0:
        raise OggOpusError(f"unsupported OpusHead version {head[8]}")
    if head[9] != 1:
        raise OggOpusError(f"expected mono Opus, the stream has {head[9]} channels")
    codec = av.CodecContext.create("libopus", "r")
    assert isinstance(codec, av.AudioCodecContext)
    codec.layout = "mono"
    return codec


def _int16(frame: av.AudioFrame) -> Int16Array:
    samples: npt.NDArray[Any] = frame.to_ndarray().reshape(-1)
    if samples.dtype == np.int16:
        return samples.astype(np.int16, copy=False)
    scaled = np.clip(samples.astype(np.float64) * 32768.0, -32768, 32767)
    return scaled.astype(np.int16)


class OggOpusEncoder:
    """int16 audio at `sample_rate` in, Ogg Opus pages out: the header pages with the
    first call, then one page per packet as packets complete."""

    def __init__(self, sample_rate: int = MOSHI_RATE, frame_ms: int = 20) -> None:
        _require_pyav()
        if frame_ms not in FRAME_MS:
            raise ValueError(f"Opus frame_ms must be one of {FRAME_MS}, got {frame_ms}")
        codec = av.CodecContext.create("libopus", "w")
        assert isinstance(codec, av.AudioCodecContext)
        codec.sample_rate, codec.layout, codec.format = sample_rate, "mono", "s16"
        codec.options = {"application": "voip", "frame_duration": str(frame_ms)}
        codec.open()
        self.sample_rate = sample_rate
        self.frame_size = sample_rate * frame_ms // 1000
        self._codec = codec
        self._pending = np.zeros(0, dtype=np.int16)
        self._sequence = 0
        self._granule = 0
        self._started = False
        self._pts = 0

    def encode(self, pcm: Int16Array) -> bytes:
        pages = [] if self._started else self._headers()
        self._pending = np.concatenate([self._pending, np.asarray(pcm, dtype=np.int16)])
        while len(self._pending) >= self.frame_size:
            chunk, self._pending = np.split(self._pending, [self.frame_size])
            frame = av.AudioFrame.from_ndarray(chunk.reshape(1, -1), format="s16", layout="mono")
            frame.sample_rate, frame.pts = self.sample_rate, self._pts
            self._pts += self.frame_size
            for packet in self._codec.encode(frame):
                duration = packet.duration or self.frame_size
                self._granule += duration * OPUS_RATE // self.sample_rate
                pages.append(self._page(bytes(packet), self._granule))
        return b"".join(pages)

    def _headers(self) -> list[bytes]:
        self._started = True
        head = bytes(self._codec.extradata or b"")
        if not head.startswith(b"OpusHead"):  # pragma: no cover - libopus always sets it
            head = b"OpusHead" + struct.pack("<BBHIhB", 1, 1, 312, self.sample_rate, 0, 0)
        vendor = b"duplexbench"
        tags = b"OpusTags" + struct.pack("<I", len(vendor)) + vendor + struct.pack("<I", 0)
        return [self._page(head, 0), self._page(tags, 0)]

    def _page(self, packet: bytes, granule: int) -> bytes:
        seq = self._sequence
        self._sequence += 1
        return ogg_page(packet, serial=_SERIAL, sequence=seq, granule=granule, first=seq == 0)
