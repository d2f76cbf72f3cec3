"""The trace: typed events (the log of an episode) and their JSONL files."""

from duplexbench.trace.events import EVENT_TYPES, TRACE_VERSION, TraceEvent
from duplexbench.trace.io import Recorder, TraceError, read_events, write_events

__all__ = [
    "EVENT_TYPES",
    "TRACE_VERSION",
    "Recorder",
    "TraceError",
    "TraceEvent",
    "read_events",
    "write_events",
]
