"""CallServer over real sockets: the token, the headers, published files, one page at a
time, the page's messages and audio, frame limits; and the MicBuffer it feeds."""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.sync.connection import Connection

from duplexbench.call import CSP, CallServer, MicBuffer
from duplexbench.call._assets import FILE_CSP

TOKEN = "test-token-0123456789"


@pytest.fixture
def server() -> Iterator[CallServer]:
    call = CallServer(token=TOKEN)
    call.start()
    yield call
    call.close()


class CallServerRunning:
    """A started CallServer (a made-up token by default), as a context manager."""

    def __init__(self, token: str | None = None) -> None:
        self.server = CallServer(token=token)

    def __enter__(self) -> CallServer:
        self.server.start()
        return self.server

    def __exit__(self, *exc: object) -> None:
        self.server.close()


def origin(server: CallServer) -> str:
    return f"http://127.0.0.1:{server.port}"


def ws_url(server: CallServer, token: str | None = TOKEN) -> str:
    query = "" if token is None else f"?token={token}"
    return f"ws://127.0.0.1:{server.port}/ws{query}"


def get(url: str) -> tuple[int, Any, bytes]:
    """Status, headers and body of a GET (error statuses included)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers, error.read()


def control(server: CallServer, timeout: float = 5.0) -> dict[str, object]:
    message = server.next_control(timeout=timeout)
    assert message is not None, f"no control message from the page within {timeout} s"
    return message


def page(server: CallServer) -> ClientConnection:
    """A connected stand-in for the page (its `connected` control taken)."""
    ws = connect(ws_url(server), open_timeout=5)
    assert control(server) == {"type": "connected"}
    return ws


def closed_with(ws: Connection) -> tuple[int, str]:
    """The code and reason the server closed `ws` with."""
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=5)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


# ---- HTTP ----


def test_the_page_needs_the_token(server: CallServer) -> None:
    assert server.url == f"{origin(server)}/?token={TOKEN}"
    status, headers, body = get(server.url)
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert b'id="start"' in body
    for url in (f"{origin(server)}/", f"{origin(server)}/?token=wrong", f"{origin(server)}/?x=1"):
        status, headers, body = get(url)
        assert status == 403, url
        assert headers["Content-Type"] == "text/plain; charset=utf-8"
        assert b"token" in body
        assert b"<" not in body


@pytest.mark.parametrize("token", [None, "wrong", ""])
def test_the_websocket_needs_the_token(server: CallServer, token: str | None) -> None:
    with pytest.raises(InvalidStatus) as refused:
        connect(ws_url(server, token), open_timeout=5)
    assert refused.value.response.status_code == 403
    assert server.next_control(timeout=0) is None


def test_a_made_up_token_is_long_and_random() -> None:
    with pytest.raises(RuntimeError, match="not started"):
        _ = CallServer().url
    with pytest.raises(ValueError, match="empty token"):
        CallServer(token="")
    with CallServerRunning("a b&c=d") as odd:  # a token of the caller's choosing, quoted
        assert odd.url.endswith("/?token=a%20b%26c%3Dd")
        assert get(odd.url)[0] == 200
    tokens = set()
    for _ in range(2):
        with CallServerRunning() as call:
            tokens.add(call.url.partition("?token=")[2])
    assert len(tokens) == 2
    assert all(len(token) >= 32 for token in tokens)


@pytest.mark.parametrize(
    ("path", "status", "kind"),
    [
        (f"/?token={TOKEN}", 200, "text/html; charset=utf-8"),
        ("/app.js", 200, "text/javascript; charset=utf-8"),
        ("/audio-worklet.js", 200, "text/javascript; charset=utf-8"),
        ("/style.css", 200, "text/css; charset=utf-8"),
        ("/", 403, "text/plain; charset=utf-8"),
        (f"/ws?token={TOKEN}", 426, "text/plain; charset=utf-8"),
        ("/index.html", 404, "text/plain; charset=utf-8"),
        ("/_page/app.js", 404, "text/plain; charset=utf-8"),
        ("/files/", 403, "text/plain; charset=utf-8"),
        (f"/files/nothing.html?token={TOKEN}", 404, "text/plain; charset=utf-8"),
        ("/favicon.ico", 404, "text/plain; charset=utf-8"),
    ],
)
def test_every_response_carries_the_security_headers(
    server: CallServer, path: str, status: int, kind: str
) -> None:
    got, headers, _ = get(origin(server) + path)
    assert got == status
    assert headers["Content-Type"] == kind
    assert headers["Content-Security-Policy"] == CSP
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Cache-Control"] == "no-store"


def test_the_websocket_handshake_carries_them_too(server: CallServer) -> None:
    with page(server) as ws:
        assert ws.response is not None
        assert ws.response.headers["Content-Security-Policy"] == CSP
        assert ws.response.headers["Cache-Control"] == "no-store"


def test_the_page_files_are_served_as_packaged(server: CallServer) -> None:
    _, _, script = get(origin(server) + "/app.js")
    assert b"new WebSocket(" in script
    _, _, worklet = get(origin(server) + "/audio-worklet.js")
    assert b'registerProcessor("mic-capture"' in worklet
    assert b'registerProcessor("agent-player"' in worklet


def test_a_published_file_is_served_with_the_token(server: CallServer, tmp_path: Path) -> None:
    viewer = tmp_path / "episode.html"
    viewer.write_text("<!doctype html><title>viewer</title>", encoding="utf-8")
    url = server.publish("viewer.html", viewer)
    assert url == f"{origin(server)}/files/viewer.html?token={TOKEN}"
    status, headers, body = get(url)
    assert (status, body) == (200, viewer.read_bytes())
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Content-Security-Policy"] == FILE_CSP
    assert "sandbox" in FILE_CSP
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert get(url.replace(TOKEN, "wrong"))[0] == 403
    assert get(url.partition("?")[0])[0] == 403
    viewer.unlink()
    assert get(url)[0] == 404


@pytest.mark.parametrize("name", ["", ".", "..", "../x", "a/b", "a b", "é.html", "x?y", "%2e"])
def test_a_published_name_is_one_plain_segment(
    server: CallServer, tmp_path: Path, name: str
) -> None:
    with pytest.raises(ValueError, match="published name"):
        server.publish(name, tmp_path / "x.html")


# ---- the WebSocket ----


def test_connected_and_disconnected_are_controls(server: CallServer) -> None:
    assert server.next_control(timeout=0.01) is None
    ws = page(server)
    ws.close()
    assert control(server) == {"type": "disconnected"}
    with page(server):
        pass
    assert control(server) == {"type": "disconnected"}


def test_one_page_at_a_time(server: CallServer) -> None:
    with page(server) as first:
        second = connect(ws_url(server), open_timeout=5)
        assert closed_with(second) == (1008, "another page is on this call")
        server.send({"type": "status", "state": "ready", "message": "still you"})
        assert json.loads(first.recv(timeout=5))["message"] == "still you"
    assert control(server) == {"type": "disconnected"}
    with page(server):  # the seat is free again
        pass


def test_send_and_send_audio_reach_the_page(server: CallServer) -> None:
    server.send({"type": "status", "state": "ready", "message": "nobody hears this"})
    server.send_audio(b"\x00\x01")
    with page(server) as ws:
        message: dict[str, object] = {"type": "transcript", "id": "1", "who": "agent"}
        message |= {"text": "Grüß Gott \u2028", "t_ms": 1200, "final": True}
        server.send(message)
        pcm = np.arange(-800, 800, dtype="<i2").tobytes()
        server.send_audio(pcm)
        assert json.loads(ws.recv(timeout=5)) == message
        assert ws.recv(timeout=5) == pcm
    with pytest.raises(ValueError, match="even byte count"):
        server.send_audio(b"\x00")
    with pytest.raises(ValueError):
        server.send({"type": "status", "t_ms": float("nan")})


def test_hello_then_mic_audio_comes_out_at_16_khz(server: CallServer) -> None:
    rate, tone_hz = 48000, 1000
    t = np.arange(rate * 400 // 1000) / rate
    tone = (np.sin(2 * np.pi * tone_hz * t) * 8000).astype("<i2")
    with page(server) as ws:
        ws.send(json.dumps({"type": "hello", "sample_rate": rate}))
        assert control(server) == {"type": "hello", "sample_rate": rate}
        for chunk in np.split(tone, 20):  # 20 ms frames, as the page sends
            ws.send(chunk.tobytes())
        ws.send(json.dumps({"type": "start"}))  # frames are handled in order: all are in
        assert control(server) == {"type": "start"}
    mic = server.mic
    out = mic.read(MicBuffer.RATE)
    buffered = MicBuffer.RATE - mic.underrun_samples
    assert 6400 - 16 * 15 <= buffered <= 6400  # 400 ms, less the resampler's delay
    assert mic.dropped_samples == 0
    spectrum = np.abs(np.fft.rfft(out[:buffered].astype(np.float64)))
    peak_hz = np.argmax(spectrum) * MicBuffer.RATE / buffered
    assert abs(peak_hz - tone_hz) < 10


def test_malformed_messages_are_ignored_and_logged(
    server: CallServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="duplexbench.call")
    bad = [
        "not json",
        "[1, 2]",
        '"start"',
        "[" * 5000 + "]" * 5000,
        '{"type": "bogus"}',
        '{"kind": "start"}',
        '{"type": "talk", "open": "yes"}',
        '{"type": "hello", "sample_rate": true}',
        '{"type": "hello", "sample_rate": 48000.5}',
        '{"type": "hello", "sample_rate": 5}',
        '{"type": "mic_error", "message": 3}',
        '{"type": "constructor"}',
    ]
    with page(server) as ws:
        for text in bad:
            ws.send(text)
        ws.send(b"\x01\x00" * 100)  # audio before any hello
        ws.send(json.dumps({"type": "hello", "sample_rate": 16000}))
        ws.send(b"\x01\x00\x02")  # odd length
        ws.send(json.dumps({"type": "talk", "open": True, "extra": "<b>"}))
        ws.send(json.dumps({"type": "mic_error", "message": "x" * 2000}))
        assert control(server) == {"type": "hello", "sample_rate": 16000}
        assert control(server) == {"type": "talk", "open": True}
        assert control(server) == {"type": "mic_error", "message": "x" * 500}
    assert control(server) == {"type": "disconnected"}
    assert server.mic.read(1).tolist() == [0]
    assert server.mic.underrun_samples == 1
    warnings = [r for r in caplog.records if r.name == "duplexbench.call"]
    assert len(warnings) == len(bad) + 1  # audio warns once per page
    assert all(r.levelno == logging.WARNING for r in warnings)


@pytest.mark.parametrize(
    ("fits", "too_big"),
    [(b"\x00" * 64 * 1024, b"\x00" * (64 * 1024 + 2)), ("x" * 16 * 1024, "x" * (16 * 1024 + 1))],
    ids=["binary", "text"],
)
def test_an_oversized_frame_closes_the_socket(
    server: CallServer, fits: str | bytes, too_big: str | bytes
) -> None:
    with page(server) as ws:
        ws.send(fits)
        ws.send(json.dumps({"type": "end"}))
        assert control(server) == {"type": "end"}
        ws.send(too_big)
        assert closed_with(ws)[0] == 1009
    assert control(server) == {"type": "disconnected"}


def test_close_ends_the_page_and_is_idempotent(server: CallServer) -> None:
    ws = page(server)
    server.close()
    assert closed_with(ws)[0] == 1001
    assert control(server) == {"type": "disconnected"}
    server.close()
    server.send({"type": "status"})  # nobody to send to: dropped
    with pytest.raises(RuntimeError, match="starts once"):
        server.start()


def test_a_busy_port_fails_start() -> None:
    with CallServerRunning() as first:
        second = CallServer(port=first.port)
        with pytest.raises(OSError):
            second.start()
        second.close()


# ---- MicBuffer ----


def pcm(values: list[int] | np.ndarray[Any, Any]) -> bytes:
    return np.asarray(values, dtype="<i2").tobytes()


def test_mic_at_16_khz_is_passed_through_in_exact_reads() -> None:
    mic = MicBuffer()
    mic.push(pcm([1, 2, 3]))
    assert mic.read(2).tolist() == [1, 2]
    got = mic.read(4)
    assert got.dtype == np.int16
    assert got.tolist() == [3, 0, 0, 0]
    assert mic.underrun_samples == 3
    assert mic.read(0).tolist() == []


def test_mic_keeps_at_most_500_ms() -> None:
    mic = MicBuffer()
    mic.push(pcm(np.arange(9000) % 1000))
    assert mic.dropped_samples == 1000
    out = mic.read(8000)
    assert out[0] == 1000 % 1000 and out[-1] == 8999 % 1000
    assert mic.underrun_samples == 0


def test_mic_resamples_and_clears() -> None:
    mic = MicBuffer()
    mic.set_input_rate(44100)
    mic.push(pcm(np.full(4410, 1000)))
    mic.clear()
    assert mic.read(10).tolist() == [0] * 10
    for _ in range(25):  # 500 ms at 44.1 kHz in 20 ms frames
        mic.push(pcm(np.full(882, 1000)))
    before = mic.underrun_samples
    out = mic.read(8000)
    buffered = 8000 - (mic.underrun_samples - before)
    assert 8000 - 16 * 15 <= buffered <= 8000  # 500 ms at 16 kHz, less the resampler's delay
    assert abs(int(out[buffered // 2]) - 1000) < 5
    assert mic.dropped_samples == 0


def test_mic_refuses_bad_input() -> None:
    mic = MicBuffer()
    for rate in (0, 5, 10**6):
        with pytest.raises(ValueError, match="unsupported"):
            mic.set_input_rate(rate)
    with pytest.raises(ValueError, match="even byte count"):
        mic.push(b"\x00")
    with pytest.raises(ValueError, match="cannot read"):
        mic.read(-1)
