"""Values an agent sends that the trace writer could not write: surrogates, huge ints, deep nesting.

Every episode must still write a trace that reads back; arguments the
workbench refuses are logged as a marker with the reason; plain-JSON
arguments are logged as a private copy (an agent editing its object later
cannot rewrite the trace).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._events import AgentEvent, ResponseDone, ToolCallRequest, TranscriptDelta
from duplexbench.agents._protocol import ToolResultMessage
from duplexbench.audio._frames import AudioFrame
from duplexbench.orchestrator._episode import loggable
from duplexbench.trace._io import read_events, write_events
from support.fixtures import fixture_item
from support.helpers import run_audio


def deep(n: int) -> Any:
    value: Any = 0
    for _ in range(n):
        value = [value]
    return value


HOSTILE_ARGUMENTS = {
    "huge-int": {"n": 10**5000},
    "deep": {"x": deep(2000)},
    "nan": {"x": math.nan},
    "surrogate": {"note": "\ud800"},
    "surrogate-key": {"\udfff": 1},
    "bytes": {"b": b"\x00"},
}


class OneShot:
    """Sends `events` once, at 1 s."""

    def __init__(self, events: list[AgentEvent]) -> None:
        self.events = events

    def start(self, session: AudioSession) -> None:
        return None

    def step(self, frame: AudioFrame, results: Sequence[ToolResultMessage]) -> list[AgentEvent]:
        return self.events if frame.t_ms == 1000 else []

    def close(self) -> None:
        return None


@pytest.mark.parametrize("case", sorted(HOSTILE_ARGUMENTS))
def test_regression_unwritable_tool_arguments_are_logged_as_a_marker(
    case: str, tmp_path: Path
) -> None:
    call = ToolCallRequest("get_flight", HOSTILE_ARGUMENTS[case], "c1")
    record = run_audio(fixture_item("airline-rebooking"), OneShot([call]))
    write_events(tmp_path / "events.jsonl", record.events)  # before: crashed for most cases
    events = read_events(tmp_path / "events.jsonl")
    (logged,) = [e for e in events if e.type == "tool.call"]
    marker = logged.data.arguments
    assert set(marker) == {"unloggable_arguments", "repr"} and marker["unloggable_arguments"]
    (result,) = [e for e in events if e.type == "tool.result"]
    assert result.data.ok is False


def test_regression_plain_arguments_are_logged_as_a_copy() -> None:
    arguments: dict[str, Any] = {"id": "DB124", "tags": ["a"]}
    record = run_audio(
        fixture_item("airline-rebooking"), OneShot([ToolCallRequest("get_flight", arguments, "c1")])
    )
    arguments["tags"].append("edited by the agent afterwards")
    (logged,) = [e for e in record.events if e.type == "tool.call"]
    assert logged.data.arguments == {"id": "DB124", "tags": ["a"]}


def test_regression_a_lone_surrogate_in_speech_text_is_written_as_replacement(
    tmp_path: Path,
) -> None:
    events: list[AgentEvent] = [TranscriptDelta("caf\ud800 ok"), ResponseDone()]
    record = run_audio(fixture_item("meeting-scheduling"), OneShot(events))
    write_events(tmp_path / "events.jsonl", record.events)
    text = (tmp_path / "events.jsonl").read_text(encoding="utf-8")
    assert "\ufffd" in text or "caf" not in text
    assert read_events(tmp_path / "events.jsonl")


def test_loggable_never_raises() -> None:
    for value in [*HOSTILE_ARGUMENTS.values(), deep(100_000), object(), {"a": [1, 2.5, None]}]:
        out = loggable(value)
        assert isinstance(out, dict | list)
