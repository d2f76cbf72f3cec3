"""`BrowserPhone`: the orchestrator's caller phone over the page's server, with a fake line."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from duplexbench.audio import Int16Array
from duplexbench.call import BrowserPhone, artifact_message
from duplexbench.trace import (
    AgentUtteranceData,
    FieldSetData,
    HarnessErrorData,
    Recorder,
    UserUtteranceData,
)
from duplexbench.workbench import WorkbenchState, initial_state
from support.fixtures import fixture_item


class FakeMic:
    def __init__(self) -> None:
        self.cleared = 0

    def read(self, n: int) -> Int16Array:
        return np.full(n, 7, dtype=np.int16)

    def clear(self) -> None:
        self.cleared += 1


@dataclass
class FakeLine:
    sent: list[dict[str, object]] = field(default_factory=list)
    audio: list[bytes] = field(default_factory=list)
    controls: deque[dict[str, object]] = field(default_factory=deque)
    mic: FakeMic = field(default_factory=FakeMic)

    def send(self, message: dict[str, object]) -> None:
        self.sent.append(message)

    def send_audio(self, pcm16: bytes) -> None:
        self.audio.append(pcm16)

    def next_control(self, timeout: float | None = None) -> dict[str, object] | None:
        return self.controls.popleft() if self.controls else None


def phone() -> tuple[BrowserPhone, FakeLine]:
    line = FakeLine()
    return BrowserPhone(line, fixture_item("form-expense-correction")), line


def test_audio_goes_both_ways_as_pcm16() -> None:
    p, line = phone()
    assert p.read(320).tolist() == [7] * 320
    p.play(np.array([1, -2, 300], dtype=np.int16))
    assert line.audio == [np.array([1, -2, 300], dtype="<i2").tobytes()]


def test_end_call_hangs_up_and_a_lost_page_drops_the_call() -> None:
    p, line = phone()
    line.controls.extend([{"type": "talk", "open": True}, {"type": "mic_error", "message": "no"}])
    assert p.ended() is None and p.mic_errors == ["no"]
    line.controls.extend([{"type": "end"}, {"type": "disconnected"}])
    assert p.ended() == "hung_up"
    assert p.ended() == "hung_up"  # said once, kept; the later disconnect changes nothing
    q, other = phone()
    other.controls.append({"type": "disconnected"})
    assert q.ended() == "dropped"


def test_utterances_become_transcript_lines_and_writes_redraw_the_artifact() -> None:
    p, line = phone()
    item = fixture_item("form-expense-correction")
    state: WorkbenchState = initial_state(item)
    rec = Recorder()
    user = rec.emit(1000, UserUtteranceData(text="It came to <b>240</b>.", end_ms=1000))
    agent = rec.emit(
        2000, AgentUtteranceData(text="What is the total?", start_ms=1500, end_ms=2000)
    )
    state.artifacts["expense"].fields["total_amount"] = 240
    write = rec.emit(
        2100,
        FieldSetData(artifact="expense", field="total_amount", new=240, call_id="c1"),
    )
    error = rec.emit(2200, HarnessErrorData(message="ASR failed", where="episode"))
    for event in (user, agent, write, error):
        p.show_event(event, state)
    caller, said, panel, banner = line.sent
    assert caller == {"type": "transcript", "id": f"u{user.seq}", "who": "caller",
                      "text": "It came to <b>240</b>.", "t_ms": 1000, "final": True}  # fmt: skip
    assert said["who"] == "agent" and said["t_ms"] == 1500
    assert panel == artifact_message(item, state)
    assert banner == {"type": "error", "where": "harness", "message": "ASR failed"}


def test_the_artifact_panel_lists_every_field_and_shows_no_gold() -> None:
    item = fixture_item("form-expense-correction")
    state = initial_state(item)
    state.artifacts["expense"].fields["expense_date"] = "2026-03-05"
    state.artifacts["expense"].fields["total_amount"] = 200
    message = artifact_message(item, state)
    artifacts = message["artifacts"]
    assert isinstance(artifacts, list)
    (panel,) = artifacts
    fields = {f["name"]: f["value"] for f in panel["fields"]}
    assert fields == {
        "employee_id": None,
        "trip_purpose": None,
        "expense_date": "2026-03-05",
        "total_amount": "200",
        "cost_center": None,
    }
    assert "E1042" not in str(message) and "CC-330" not in str(message)
