"""The trace file: round trip, and a clear error for every kind of damage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from duplexbench.agents._builtin import OracleAgent
from duplexbench.trace._events import EVENT_TYPES
from duplexbench.trace._io import TraceError, read_events, write_events
from support.fixtures import fixture_item
from support.helpers import run_episode


@pytest.fixture
def trace_file(tmp_path: Path) -> Path:
    record = run_episode(fixture_item("order-revocation"), OracleAgent(), privileged=True)
    path = tmp_path / "events.jsonl"
    write_events(path, record.events)
    return path


def test_round_trip_is_exact(trace_file: Path) -> None:
    events = read_events(trace_file)
    again = trace_file.with_name("again.jsonl")
    write_events(again, events)
    assert again.read_bytes() == trace_file.read_bytes()


def test_every_line_has_the_contract_fields(trace_file: Path) -> None:
    for line in trace_file.read_text().splitlines():
        obj = json.loads(line)
        assert list(obj)[:6] == ["seq", "t_ms", "wall_ms", "actor", "type", "data"]
        assert obj["type"] in EVENT_TYPES


def _damage(path: Path, lines: list[str]) -> None:
    path.write_text("".join(lines))


def test_truncated_last_line(trace_file: Path) -> None:
    text = trace_file.read_text()
    trace_file.write_text(text[: len(text) - 20])
    with pytest.raises(TraceError, match=r"truncated|not JSON"):
        read_events(trace_file)


def test_missing_episode_end(trace_file: Path) -> None:
    lines = trace_file.read_text().splitlines(keepends=True)
    _damage(trace_file, lines[:-1])
    with pytest.raises(TraceError, match=r"must end with episode.end"):
        read_events(trace_file)


def test_corrupt_line_names_its_number(trace_file: Path) -> None:
    lines = trace_file.read_text().splitlines(keepends=True)
    lines[3] = "{not json\n"
    _damage(trace_file, lines)
    with pytest.raises(TraceError) as info:
        read_events(trace_file)
    assert info.value.line == 4 and "not JSON" in str(info.value)


def test_reordered_and_duplicated_lines(trace_file: Path) -> None:
    lines = trace_file.read_text().splitlines(keepends=True)
    _damage(trace_file, [lines[0], lines[2], lines[1], *lines[3:]])
    with pytest.raises(TraceError, match="seq 2 where 1"):
        read_events(trace_file)
    _damage(trace_file, [lines[0], lines[1], lines[1], *lines[2:]])
    with pytest.raises(TraceError, match="seq 1 where 2"):
        read_events(trace_file)


def test_unknown_event_type(trace_file: Path) -> None:
    lines = trace_file.read_text().splitlines(keepends=True)
    obj = json.loads(lines[1])
    obj["type"] = "agent.dance"
    lines[1] = json.dumps(obj) + "\n"
    _damage(trace_file, lines)
    with pytest.raises(TraceError, match=r"line 2|:2"):
        read_events(trace_file)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match="no such file"):
        read_events(tmp_path / "nope.jsonl")
