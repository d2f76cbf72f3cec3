"""The caller's phone over the browser page: `BrowserPhone` is the orchestrator's
`CallerPhone` on a `CallServer` (microphone in, agent audio out, what the page shows).

What the page shows is read from the trace as it is written: the caller's and the
agent's utterances become transcript lines, every field write or lifecycle change
redraws the artifact panel from the Workbench, a harness error shows as an error.
The page never sees the gold, the reference or the agent's instructions.
"""

from __future__ import annotations

import json
from typing import Literal, Protocol

import numpy as np

from duplexbench.audio import Int16Array
from duplexbench.items import WorkflowItem
from duplexbench.trace import (
    AgentUtterance,
    FieldSet,
    HarnessError,
    LifecycleChanged,
    TraceEvent,
    UserUtterance,
)
from duplexbench.users import RoleCard
from duplexbench.workbench import WorkbenchState


class Mic(Protocol):
    def read(self, n: int) -> Int16Array: ...

    def clear(self) -> None: ...


class Line(Protocol):
    """What of `CallServer` the phone uses (a fake in tests)."""

    def send(self, message: dict[str, object]) -> None: ...

    def send_audio(self, pcm16: bytes) -> None: ...

    def next_control(self, timeout: float | None = None) -> dict[str, object] | None: ...

    @property
    def mic(self) -> Mic: ...


class BrowserPhone:
    """The orchestrator's `CallerPhone` over the page (module docstring)."""

    def __init__(self, line: Line, item: WorkflowItem) -> None:
        self.line, self.item = line, item
        self.ending: Literal["hung_up", "dropped"] | None = None
        self.mic_errors: list[str] = []

    # ------------------------------------------------------------ audio

    def read(self, n: int) -> Int16Array:
        return self.line.mic.read(n)

    def play(self, samples: Int16Array) -> None:
        self.line.send_audio(np.asarray(samples, dtype="<i2").tobytes())

    # ------------------------------------------------------------ the caller's buttons

    def ended(self) -> Literal["hung_up", "dropped"] | None:
        """Drain the page's controls; End call hangs up, a lost page drops the call."""
        while self.ending is None:
            control = self.line.next_control(timeout=0)
            if control is None:
                break
            kind = control.get("type")
            if kind == "end":
                self.ending = "hung_up"
            elif kind == "disconnected":
                self.ending = "dropped"
            elif kind == "mic_error":
                self.mic_errors.append(str(control.get("message", "")))
        return self.ending

    # ------------------------------------------------------------ what the page shows

    def show_card(self, card: RoleCard) -> None:
        self.line.send(card.to_message())

    def show_event(self, event: TraceEvent, state: WorkbenchState) -> None:
        if isinstance(event, UserUtterance):
            self._transcript(f"u{event.seq}", "caller", event.data.text, event.t_ms)
        elif isinstance(event, AgentUtterance):
            self._transcript(f"a{event.seq}", "agent", event.data.text, event.data.start_ms)
        elif isinstance(event, FieldSet | LifecycleChanged):
            self.line.send(artifact_message(self.item, state))
        elif isinstance(event, HarnessError):
            self.line.send({"type": "error", "where": "harness", "message": event.data.message})

    def _transcript(self, key: str, who: str, text: str, t_ms: int) -> None:
        message = {"type": "transcript", "id": key, "who": who, "text": text, "t_ms": t_ms}
        self.line.send({**message, "final": True})


def artifact_message(item: WorkflowItem, state: WorkbenchState) -> dict[str, object]:
    """The artifact panel: every field the item's artifacts have, with what is written."""
    artifacts = []
    for artifact in item.artifacts:
        now = state.artifacts.get(artifact.id)
        fields = [
            {"name": f.name, "value": _shown(now.fields.get(f.name) if now else None)}
            for f in artifact.fields
        ]
        artifacts.append(
            {
                "id": artifact.id,
                "title": artifact.title or artifact.id,
                "state": now.lifecycle if now else "empty",
                "fields": fields,
            }
        )
    return {"type": "artifact", "artifacts": artifacts}


def _shown(value: object) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
