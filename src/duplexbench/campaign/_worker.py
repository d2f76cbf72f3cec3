"""What a worker process keeps between its episode jobs."""

from __future__ import annotations

from pathlib import Path

from duplexbench.speech import SpeechBank

_BANKS: dict[str | None, SpeechBank] = {}


def bank_at(path: str | None) -> SpeechBank:
    """The worker's speech bank at `path` (None: the default folder), made once."""
    if path not in _BANKS:
        _BANKS[path] = SpeechBank(Path(path) if path else None)
    return _BANKS[path]
