"""What the page may say: its JSON control messages, checked and normalized.

A message that is not JSON, not an object, of an unknown `type` or with a
field of the wrong type is ignored with a warning on the `duplexbench.call`
logger: the page is ours, so a bad message is a bug to see in the log, but a
live call must never stop over one. What passes is rebuilt from the known
fields only, so the harness reads exactly the shapes of the protocol.
"""

from __future__ import annotations

import json
import logging

log = logging.getLogger(__package__)
"""The package's logger, `duplexbench.call` (a logger name, not an import of the package)."""

MAX_MIC_ERROR = 500
"""Characters of a `mic_error` message kept (the browser's own wording, for the log)."""


def page_message(text: str) -> dict[str, object] | None:
    """The control message `text` carries, or None (logged) when it is none."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        log.warning("ignored a message from the page that is not JSON: %.80r", text)
        return None
    if not isinstance(data, dict):
        log.warning("ignored a message from the page that is not an object: %.80r", text)
        return None
    message = _checked(data)
    if message is None:
        log.warning("ignored an unknown or malformed message from the page: %.200r", text)
    return message


def _checked(data: dict[str, object]) -> dict[str, object] | None:
    kind = data.get("type")
    if kind in {"start", "end"}:
        return {"type": kind}
    if kind == "hello":
        rate = data.get("sample_rate")
        return {"type": kind, "sample_rate": rate} if type(rate) is int else None
    if kind == "talk":
        is_open = data.get("open")
        return {"type": kind, "open": is_open} if isinstance(is_open, bool) else None
    if kind == "mic_error":
        text = data.get("message")
        return {"type": kind, "message": text[:MAX_MIC_ERROR]} if isinstance(text, str) else None
    return None
