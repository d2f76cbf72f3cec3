"""A local OpenAI-compatible `/chat/completions` endpoint for judge tests."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, ClassVar


class ChatHandler(BaseHTTPRequestHandler):
    """Answers each POST with the next of `replies`; records every request."""

    replies: ClassVar[list[str]] = []
    requests: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(
            {"path": self.path, "body": body, "auth": self.headers.get("Authorization")}
        )
        self.reply(self.answer(body))

    def answer(self, body: dict[str, Any]) -> str:
        """The reply's content: the next of `replies` (a subclass may compute it)."""
        return type(self).replies.pop(0)

    def reply(self, content: str) -> None:
        payload = json.dumps({"choices": [{"message": {"content": content}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: Any) -> None:
        return None


def serve_chat() -> Iterator[str]:
    """Start the endpoint (fresh replies and requests); yields its base URL."""
    ChatHandler.replies, ChatHandler.requests = [], []
    server = HTTPServer(("127.0.0.1", 0), ChatHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/v1"
    server.shutdown()
    server.server_close()
