"""The page's files and the security policies its responses carry.

The page is four static files in `_page/` (package data: no build step, no
template). They are read once, when a `CallServer` is made, so a wheel that
left them out fails at once and not in the caller's browser.

`CSP` is the page's Content-Security-Policy: scripts, styles and the
WebSocket from the server itself only, no inline code, no framing. A file the
harness publishes after a call (the episode viewer) brings its own inline
script and styles, guarded by its own hash-based policy in a `<meta>` tag, so
it gets `FILE_CSP` instead: inline code allowed by this header (the file's own
policy still narrows it, as both apply), no network at all, and a sandbox that
gives the file an opaque origin, so a published file can never reach the
call's WebSocket or pages.
"""

from __future__ import annotations

import mimetypes
from dataclasses import dataclass
from importlib.resources import files

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; media-src 'self' blob:; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
FILE_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; media-src data: blob:; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'; sandbox allow-scripts"
)

TEXT_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".txt": "text/plain",
    ".md": "text/markdown",
}
"""Text types by suffix (served as UTF-8): fixed here, not left to the host's MIME table."""

PAGE = ("index.html", "app.js", "audio-worklet.js", "style.css")


@dataclass(frozen=True)
class Asset:
    body: bytes
    content_type: str


def content_type(name: str) -> str:
    """The Content-Type for a file called `name` (text types with their charset)."""
    suffix = name[name.rfind(".") :].lower() if "." in name else ""
    if suffix in TEXT_TYPES:
        return f"{TEXT_TYPES[suffix]}; charset=utf-8"
    guessed, _ = mimetypes.guess_type(name)
    return guessed or "application/octet-stream"


def load_page() -> dict[str, Asset]:
    """The page's files by name, read from the package (`_page/`).

    The folder is its own resource anchor (a namespace package with no code), so
    finding it needs nothing of `duplexbench.call` itself.
    """
    folder = files("duplexbench.call._page")
    return {name: Asset((folder / name).read_bytes(), content_type(name)) for name in PAGE}
