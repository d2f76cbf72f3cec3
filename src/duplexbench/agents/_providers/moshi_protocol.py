"""The Moshi websocket protocol's framing, and a `Transport` that speaks it.

Every websocket message is binary; its first byte is the kind and the rest
its payload (https://github.com/kyutai-labs/moshi/blob/main/rust/protocol.md;
`moshi/moshi/server.py` and `client/src/protocol/` in the same repository):

| byte | kind | payload |
|---|---|---|
| 0 | `handshake` | none (`moshi.server`), or u32 LE protocol and model versions |
| 1 | `audio` | bytes of an Ogg Opus stream (mono, 24 kHz), cut anywhere |
| 2 | `text` | UTF-8 text: a piece of the model's text stream (a token) |
| 3 | `control` | one byte: start, end turn, pause, restart (unused when fully streaming) |
| 4 | `metadata` | UTF-8 JSON (moshi-backend: the sampling settings, model files) |
| 5 | `error` | UTF-8 text: what went wrong |
| 6 | `ping` | nothing |
| 7 | `coloredtext` | one color byte, then UTF-8 text (the web client's reading) |
| 8, 9 | `image`, `codes` | defined by moshi-server, not used by a chat |

A frame becomes the message `{"type": KIND, "kind": BYTE, "data": PAYLOAD}`
(`unknown` for a byte not in the table), so the adapter runs on this
transport, on a scripted provider (`duplexbench.testing.ScriptedProvider`)
or on anything else that carries such dicts. A frame without a kind byte, or
a text (not binary) websocket message, is a `TransportError`.
"""

from __future__ import annotations

from duplexbench.agents._providers.transport import Message, TransportError, WebSocketTransport

KINDS = {
    0: "handshake",
    1: "audio",
    2: "text",
    3: "control",
    4: "metadata",
    5: "error",
    6: "ping",
    7: "coloredtext",
    8: "image",
    9: "codes",
}
BYTES = {name: kind for kind, name in KINDS.items()}


class ProtocolError(ValueError):
    """A frame that is not a Moshi message."""


def encode_frame(message: Message) -> bytes:
    """The frame for `{"type": KIND, "data": bytes}`; b"" for an audio message without
    audio (never sent: Moshi's own client skips empty writes, and so do we)."""
    kind = message.get("type")
    if kind not in BYTES:
        raise ProtocolError(f"no Moshi message kind {kind!r}")
    data = message.get("data", b"")
    if not isinstance(data, bytes | bytearray):
        raise ProtocolError(f"{kind} data must be bytes, got {type(data).__name__}")
    if kind == "audio" and not data:
        return b""
    return bytes([BYTES[kind]]) + bytes(data)


def decode_frame(frame: bytes) -> Message:
    """`{"type": KIND, "kind": BYTE, "data": PAYLOAD}`; ProtocolError for an empty frame."""
    if not frame:
        raise ProtocolError("an empty frame (no kind byte)")
    return {"type": KINDS.get(frame[0], "unknown"), "kind": frame[0], "data": bytes(frame[1:])}


def message(kind: str, data: bytes = b"") -> Message:
    """A message as the transport hands it over (for scripts and tests)."""
    return decode_frame(bytes([BYTES[kind]]) + data)


class MoshiTransport(WebSocketTransport):
    """Moshi's binary frames over a `websockets` client connection (the connection,
    close codes and failures are `WebSocketTransport`'s)."""

    def encode(self, message: Message) -> bytes | None:
        return encode_frame(message) or None  # an audio message without audio: nothing

    def decode(self, raw: str | bytes) -> Message:
        if isinstance(raw, str):
            raise TransportError(f"a text frame (Moshi frames are binary): {raw[:80]!r}")
        try:
            return decode_frame(raw)
        except ProtocolError as exc:
            raise TransportError(str(exc)) from None


async def connect(url: str, headers: dict[str, str]) -> MoshiTransport:
    """The `Connector` of the Moshi adapter."""
    return await MoshiTransport.connect(url, headers)
