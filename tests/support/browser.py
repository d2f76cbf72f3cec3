"""Headless Chromium for the HTML tests: Debian's `chromium` driven by playwright.

`open_page(path)` loads a local file and returns the page with the console
errors and failed requests it collected; tests skip (with the reason) when
the browser or playwright is missing.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass
class Loaded:
    page: Any
    console_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    """Every URL the page asked for (a self-contained page asks for file: and data: only)."""


@contextmanager
def open_page(path: Path, width: int = 1280, height: int = 900) -> Iterator[Loaded]:
    """Open `path` in headless Chromium; skip the test without a browser."""
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            loaded = Loaded(page)
            page.on(
                "console",
                lambda m: loaded.console_errors.append(m.text) if m.type == "error" else None,
            )
            page.on("pageerror", lambda e: loaded.console_errors.append(str(e)))
            page.on("request", lambda r: loaded.requests.append(r.url))
            page.goto(path.resolve().as_uri())
            page.wait_for_load_state("load")
            yield loaded
        finally:
            browser.close()
