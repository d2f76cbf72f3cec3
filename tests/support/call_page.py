"""The live caller page in headless Chromium, against a real `CallServer`.

`open_call(server)` opens the server's page with Chromium's fake microphone
(a beep) granted without a prompt (`microphone=False`: headless Chromium
refuses it, as a person who says no), and collects console errors and every
URL the page asks for (HTTP and WebSocket). `next_of(server, kind)` waits for the
page's next control message of one type, skipping the others. Tests skip
(with the reason) when the browser or playwright is missing, as
`support.browser` does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from duplexbench.call import CallServer
from support.browser import CHROMIUM

ARGS = ["--no-sandbox", "--use-fake-device-for-media-stream"]
AUTOPLAY = "--autoplay-policy=no-user-gesture-required"
"""A scripted microphone's AudioContext plays without a click."""
GRANT = "--use-fake-ui-for-media-stream"
"""Answers the microphone prompt with yes (without it, headless Chromium says no)."""


@dataclass
class CallPage:
    page: Any
    console_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    """Every URL the page asked for, WebSockets included."""


@contextmanager
def open_call(
    server: CallServer,
    microphone: bool = True,
    width: int = 1280,
    height: int = 900,
    init_script: str | None = None,
) -> Iterator[CallPage]:
    """Open `server.url` in headless Chromium with a fake microphone; skip without a browser.

    `init_script` runs in the page before its own scripts (a scripted microphone)."""
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        args = [*ARGS, GRANT] if microphone else ARGS
        if init_script is not None:
            args = [*args, AUTOPLAY]
        browser = p.chromium.launch(executable_path=CHROMIUM, args=args)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            loaded = CallPage(page)
            page.on(
                "console",
                lambda m: loaded.console_errors.append(m.text) if m.type == "error" else None,
            )
            page.on("pageerror", lambda e: loaded.console_errors.append(str(e)))
            page.on("request", lambda r: loaded.requests.append(r.url))
            page.on("websocket", lambda ws: loaded.requests.append(ws.url))
            if init_script is not None:
                page.add_init_script(init_script)
            page.goto(server.url)
            page.wait_for_load_state("load")
            yield loaded
        finally:
            browser.close()


def next_of(server: CallServer, kind: str, timeout: float = 10.0) -> dict[str, object]:
    """The page's next control message of type `kind` (others are skipped)."""
    while True:
        message = server.next_control(timeout=timeout)
        assert message is not None, f"waited {timeout:g} s for a {kind!r} message from the page"
        if message["type"] == kind:
            return message
