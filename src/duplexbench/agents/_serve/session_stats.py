"""`serve-agent`'s per-session statistics: what `ServeConfig.on_session_end` gets (the CLI's
log line, `--log-json`)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SessionStats:
    """What one connection did (for tests and logs)."""

    started: float = field(default_factory=time.time)
    """Wall-clock start (epoch seconds)."""
    duration_s: float = 0.0
    client_events: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    truncations: list[int] = field(default_factory=list)
    frames: int = 0
    tool_results: int = 0
    end_calls: int = 0
    end: str = ""

    def record(self) -> dict[str, Any]:
        """The session's log record (JSON-ready)."""
        return {
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.started)),
            "duration_s": round(self.duration_s, 3),
            "end": self.end,
            "frames": self.frames,
            "client_events": sum(self.client_events.values()),
            "tool_results": self.tool_results,
            "truncations": len(self.truncations),
            "errors": len(self.errors),
            "error_codes": sorted(set(self.errors)),
        }

    def line(self) -> str:
        """One human-readable line for the log."""
        r = self.record()
        codes = f" ({', '.join(r['error_codes'])})" if r["error_codes"] else ""
        return (
            f"session {r['started']} {r['duration_s']:.1f} s, ended: {r['end']}; "
            f"{r['frames']} frames, {r['client_events']} client events, "
            f"{r['tool_results']} tool results, {r['truncations']} truncations, "
            f"{r['errors']} errors{codes}"
        )
