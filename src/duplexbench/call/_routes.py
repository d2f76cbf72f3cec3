"""Plain HTTP on the call server: which GET gets what, and the headers on every answer.

The server speaks HTTP only through the `websockets` handshake hooks:
`Routes.answer` is its `process_request` (a `Response` answers a plain GET;
None lets the WebSocket handshake of `/ws` go on) and `secure` its
`process_response` (every response, the handshake's and the library's own
errors included, gets the security headers).

The token guards everything that belongs to the call: the page itself, the
WebSocket and published files. The page's script, worklet and stylesheet
carry no secrets and are served without it (the page asks for them by plain
relative URLs). A wrong or missing token gets 403 and a plain text message.
"""

from __future__ import annotations

import hmac
import re
import threading
from http import HTTPStatus
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from duplexbench.call._assets import CSP, FILE_CSP, Asset, content_type, load_page

WS_PATH = "/ws"
FILES = "/files/"
PUBLIC = {"/app.js": "app.js", "/audio-worklet.js": "audio-worklet.js", "/style.css": "style.css"}
NAME = re.compile(r"[A-Za-z0-9._-]+")

SECURITY_HEADERS = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
)
FORBIDDEN = "This call needs the link duplexbench printed: the token is missing or wrong.\n"


def check_name(name: str) -> str:
    """`name` if it can be a published file's name (a URL path segment as it is)."""
    if not NAME.fullmatch(name) or name in {".", ".."}:
        raise ValueError(f"a published name is [A-Za-z0-9._-]+ (not . or ..), not {name!r}")
    return name


def respond(status: HTTPStatus, body: bytes, kind: str, csp: str = CSP) -> Response:
    """A complete response; `secure` adds the other security headers."""
    headers = Headers(
        [
            ("Content-Type", kind),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
            ("Content-Security-Policy", csp),
        ]
    )
    return Response(status.value, status.phrase, headers, body)


def text(status: HTTPStatus, message: str) -> Response:
    return respond(status, message.encode("utf-8"), "text/plain; charset=utf-8")


def secure(connection: ServerConnection, request: Request, response: Response) -> Response:
    """`response` with every security header it does not set itself."""
    for name, value in SECURITY_HEADERS:
        if name not in response.headers:
            response.headers[name] = value
    return response


class Routes:
    """The HTTP answers of one call server (its token, its page, its published files)."""

    def __init__(self, token: str) -> None:
        self._token = token.encode("utf-8")
        self._page: dict[str, Asset] = load_page()
        self._published: dict[str, Path] = {}
        self._lock = threading.Lock()

    def publish(self, name: str, path: Path) -> None:
        """Serve the file `path` at /files/<name> (read at each request)."""
        with self._lock:
            self._published[check_name(name)] = path

    def answer(self, connection: ServerConnection, request: Request) -> Response | None:
        """The response to a GET, or None for an authorized WebSocket handshake."""
        url = urlsplit(request.path)
        if url.path in PUBLIC:
            asset = self._page[PUBLIC[url.path]]
            return respond(HTTPStatus.OK, asset.body, asset.content_type)
        if url.path not in {"/", WS_PATH} and not url.path.startswith(FILES):
            return text(HTTPStatus.NOT_FOUND, "not found\n")
        if not self._authorized(url.query):
            return text(HTTPStatus.FORBIDDEN, FORBIDDEN)
        if url.path == WS_PATH:
            return None
        if url.path == "/":
            page = self._page["index.html"]
            return respond(HTTPStatus.OK, page.body, page.content_type)
        return self._file(url.path.removeprefix(FILES))

    def _authorized(self, query: str) -> bool:
        given = parse_qs(query).get("token", [""])[0].encode("utf-8")
        return hmac.compare_digest(given, self._token)

    def _file(self, name: str) -> Response:
        with self._lock:
            path = self._published.get(name)
        if path is None:
            return text(HTTPStatus.NOT_FOUND, "not found\n")
        try:
            body = path.read_bytes()
        except OSError:
            return text(HTTPStatus.NOT_FOUND, "not found\n")
        return respond(HTTPStatus.OK, body, content_type(path.name), FILE_CSP)
