"""A scripted person on the line: the orchestrator's `CallerPhone` for human-call tests.

`ScriptedPhone` says its opening line at once, then answers each agent line whose
text contains the next reply's cue with that reply, spoken by the speech bank.
It can press End call (`hang_up_after_ms`) or drop the page (`drop_after_ms`) at a
media time, and keeps what the page would have shown (events, cards, agent audio).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from duplexbench.audio import Int16Array, samples_for_ms
from duplexbench.speech import DEFAULT_VOICE, SpeechBank
from duplexbench.trace import AgentUtterance, TraceEvent
from duplexbench.users import RoleCard
from duplexbench.workbench import WorkbenchState

LEAD_MS = 300
"""Silence before each line: a person takes a breath before answering."""

EXPENSE_OPENING = "Hi, I need to file an expense report for a client onsite trip."
EXPENSE_REPLIES: list[tuple[str, str]] = [
    ("employee", "My employee ID is E 1 0 4 2."),
    ("purpose", "It was a client onsite visit."),
    ("date", "It was on March 5th, 2026."),
    ("total", "The total was 240 dollars."),
    ("cost center", "Sorry, correction, the total is actually 200 dollars, not 240."),
    ("cost center", "The cost center is CC-330."),
    ("confirm", "Yes, that's correct."),
    ("submit", "Yes, go ahead and submit it."),
]
"""A person's side of form-expense-correction with the reference agent: (what the
agent's last line asks about, the answer), in the order it asks. The first question
about the cost center gets the correction of the total (the item's correction, at
the next turn); "E 1 0 4 2" is spelled as a person spells an ID, so ASR writes E1042."""


@dataclass
class ScriptedPhone:
    bank: SpeechBank
    opening: str | None
    replies: list[tuple[str, str]]
    """(cue in the agent's line, the caller's answer), in order."""
    voice: str = str(DEFAULT_VOICE)
    hang_up_after_ms: int | None = None
    drop_after_ms: int | None = None
    frame_ms: int = 20
    events: list[TraceEvent] = field(default_factory=list)
    cards: list[RoleCard] = field(default_factory=list)
    agent_samples: int = 0
    said: list[str] = field(default_factory=list)
    _queue: deque[Int16Array] = field(default_factory=deque)
    _t: int = 0

    def __post_init__(self) -> None:
        if self.opening is not None:
            self._say(self.opening)

    def _say(self, text: str) -> None:
        samples = self.bank.clip(text, self.voice).samples
        lead = np.zeros(samples_for_ms(LEAD_MS), dtype=np.int16)
        self._queue.append(np.concatenate([lead, samples]))
        self.said.append(text)

    def read(self, n: int) -> Int16Array:
        self._t += self.frame_ms
        out = np.zeros(n, dtype=np.int16)
        filled = 0
        while filled < n and self._queue:
            head = self._queue[0]
            take = min(n - filled, len(head))
            out[filled : filled + take] = head[:take]
            filled += take
            if take == len(head):
                self._queue.popleft()
            else:
                self._queue[0] = head[take:]
        return out

    def play(self, samples: Int16Array) -> None:
        self.agent_samples += len(samples)

    def ended(self) -> Literal["hung_up", "dropped"] | None:
        if self.drop_after_ms is not None and self._t >= self.drop_after_ms:
            return "dropped"
        if self.hang_up_after_ms is not None and self._t >= self.hang_up_after_ms:
            return "hung_up"
        return None

    def show_event(self, event: TraceEvent, state: WorkbenchState) -> None:
        self.events.append(event)
        if isinstance(event, AgentUtterance) and self.replies:
            cue, reply = self.replies[0]
            if cue in event.data.text.lower():
                self.replies.pop(0)
                self._say(reply)

    def show_card(self, card: RoleCard) -> None:
        self.cards.append(card)
