"""`Recorder.emit(t_ms, data)`: the event class comes from the data, never from the caller."""

from __future__ import annotations

import importlib
from typing import get_args

import pytest

from duplexbench.trace._base import _Data
from duplexbench.trace._events import (
    AgentActs,
    AgentActsData,
    HarnessError,
    HarnessErrorData,
    TraceEvent,
)
from duplexbench.trace._io import EVENT_OF_DATA, Recorder


def test_the_data_decides_the_event_and_seq_counts_up() -> None:
    recorder = Recorder(wall=lambda: 0.0)
    first = recorder.emit(40, AgentActsData(acts=["ASK"], text="What is it?"))
    second = recorder.emit(60, HarnessErrorData(message="boom", where="tts"))
    assert isinstance(first, AgentActs) and isinstance(second, HarnessError)
    assert [(e.seq, e.t_ms, e.type) for e in recorder.events] == [
        (0, 40, "agent.acts"),
        (1, 60, "harness.error"),
    ]


def test_data_of_no_event_is_refused() -> None:
    class Stray(_Data):
        x: int = 1

    with pytest.raises(TypeError, match="Stray is the data of no trace event"):
        Recorder().emit(0, Stray())


def test_every_event_has_its_own_data_class() -> None:
    events = get_args(get_args(TraceEvent)[0])
    assert set(EVENT_OF_DATA.values()) == set(events) and len(EVENT_OF_DATA) == len(events)


def test_every_event_class_is_public() -> None:
    events_module = importlib.import_module("duplexbench.trace._events")
    union = get_args(get_args(TraceEvent)[0])
    assert {c.__name__ for c in union} <= set(events_module.__all__)
