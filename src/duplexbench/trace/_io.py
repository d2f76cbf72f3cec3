"""Reading and writing `events.jsonl`; recording events with stamped seq and time."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel, TypeAdapter, ValidationError

from duplexbench.files import atomic_path
from duplexbench.trace._base import _Data, _Event
from duplexbench.trace._events import EpisodeEnd, EpisodeStart, TraceEvent

_ADAPTER: TypeAdapter[TraceEvent] = TypeAdapter(TraceEvent)
MAX_LINE_BYTES = 4 * 1024 * 1024
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class TraceError(Exception):
    """A trace that cannot be read, naming the file and line."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path, self.line, self.message = path, line, message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


def _event_classes() -> dict[type[_Data], type[_Event]]:
    """Each event's data class -> the event class (one to one: checked here)."""
    union = get_args(get_args(TraceEvent)[0])
    out: dict[type[_Data], type[_Event]] = {}
    for cls in union:
        data = cls.model_fields["data"].annotation
        assert data not in out, f"{data} is the data of two events"
        out[data] = cls
    return out


EVENT_OF_DATA = _event_classes()
"""The event class of each data class: `Recorder.emit` takes the data alone, so an event
cannot be recorded with another event's data."""


class Recorder:
    """Builds events with consecutive `seq` and the wall time since start."""

    def __init__(self, wall: Callable[[], float] = time.perf_counter) -> None:
        self.events: list[TraceEvent] = []
        self._wall = wall
        self._t0 = wall()

    def emit(self, t_ms: int, data: _Data) -> TraceEvent:
        """Record the event whose data `data` is, at media time `t_ms`."""
        cls = EVENT_OF_DATA.get(type(data))
        if cls is None:
            raise TypeError(f"{type(data).__name__} is the data of no trace event")
        wall_ms = int((self._wall() - self._t0) * 1000)
        fields = {"seq": len(self.events), "t_ms": t_ms, "wall_ms": wall_ms, "data": data}
        event: TraceEvent = cls.model_validate(fields)  # type: ignore[assignment]  # cls is in the union
        self.events.append(event)
        return event


_SURROGATE = re.compile("[\ud800-\udfff]")


def dump_event(event: BaseModel) -> str:
    """One JSON line; a lone UTF-16 surrogate (which an agent or provider can send, e.g.
    as a `\\ud800` JSON escape) is written as U+FFFD, so every trace is valid UTF-8."""
    text = json.dumps(event.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))
    return _SURROGATE.sub("\ufffd", text)


def write_events(path: Path, events: Iterable[BaseModel]) -> None:
    """Write events as JSONL atomically (a temp file renamed into place)."""
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8") as fh:
        for event in events:
            fh.write(dump_event(event) + "\n")


def parse_event(obj: Any) -> TraceEvent:
    return _ADAPTER.validate_python(obj)


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """Numbered lines, decoded one by one so that bad UTF-8 names its line."""
    try:
        with path.open("rb") as fh:
            for number, raw in enumerate(fh, start=1):
                if len(raw) > MAX_LINE_BYTES:
                    raise TraceError(str(path), number, f"line longer than {MAX_LINE_BYTES} bytes")
                try:
                    yield number, raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise TraceError(
                        str(path), number, f"not UTF-8: {exc.reason} at byte {exc.start}"
                    ) from None
    except FileNotFoundError:
        raise TraceError(str(path), None, "no such file") from None
    except OSError as exc:
        raise TraceError(str(path), None, f"cannot read: {exc}") from None


def read_events(path: Path) -> list[TraceEvent]:
    """Parse and check a whole trace; any defect raises TraceError naming the line."""
    events: list[TraceEvent] = []
    name = str(path)
    for number, line in _lines(path):
        if not line.endswith("\n"):
            raise TraceError(name, number, "truncated line (no newline at end of file)")
        if not line.strip():
            raise TraceError(name, number, "empty line")
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TraceError(name, number, f"not JSON: {exc.msg}") from None
        except RecursionError:
            raise TraceError(name, number, "not JSON: nested too deeply") from None
        except ValueError as exc:  # e.g. an integer with more digits than Python converts
            raise TraceError(name, number, f"not JSON: {exc}") from None
        if _SURROGATE_ESCAPE.search(line) and not _utf8_encodable(obj):
            raise TraceError(name, number, "a string holds a lone UTF-16 surrogate (not UTF-8)")
        try:
            event = parse_event(obj)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(p) for p in first["loc"])
            raise TraceError(name, number, f"invalid event: {loc}: {first['msg']}") from None
        if event.seq != len(events):
            raise TraceError(name, number, f"seq {event.seq} where {len(events)} was expected")
        if events and event.t_ms < events[-1].t_ms:
            raise TraceError(name, number, "media time goes backwards")
        events.append(event)
    _check_frame(name, events)
    return events


def _utf8_encodable(obj: Any) -> bool:
    """False for a value with a lone surrogate (`"\\ud800"` in JSON): no UTF-8 file holds it."""
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):
        return False
    return True


def _check_frame(name: str, events: list[TraceEvent]) -> None:
    if not events or not isinstance(events[0], EpisodeStart):
        raise TraceError(name, 1, "a trace must begin with episode.start")
    if not isinstance(events[-1], EpisodeEnd):
        raise TraceError(name, len(events), "a trace must end with episode.end (truncated?)")
