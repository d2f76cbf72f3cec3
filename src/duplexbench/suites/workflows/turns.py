"""The oracle's reference trajectory, built alongside the item.

Turns are written so that the reactive user policy, on the text and the
audio channel alike, says exactly what each next turn `expect`s: a filler
statement precedes every authored barge-in (so cutting it loses nothing),
a correction is confirmed, approvals are asked before the action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ReferenceBuilder:
    update_tool: str | None
    """The artifact's update tool; None in database mode (writes are collected)."""
    turns: list[dict[str, Any]] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    changes: dict[str, Any] = field(default_factory=dict)
    prefix: str = ""
    expect: str | None = None

    def write(self, name: str, value: Any) -> None:
        """Record a field value: one update call per turn, or a collected change."""
        if self.update_tool is None:
            self.changes[name] = value
            return
        for call in self.pending:
            if call["name"] == self.update_tool:
                call["arguments"]["fields"][name] = value
                return
        self.pending.append({"name": self.update_tool, "arguments": {"fields": {name: value}}})

    def call(self, tool: str, arguments: dict[str, Any] | None = None) -> None:
        self.pending.append({"name": tool, "arguments": arguments or {}})

    def add(self, text: str) -> None:
        """Speech said at the start of the next turn."""
        self.prefix = f"{self.prefix} {text}".strip()

    def say(self, text: str, then_expect: str | None, end: bool = False) -> None:
        """One agent turn: pending tool calls, then the prefix and `text` spoken."""
        turn: dict[str, Any] = {"say": f"{self.prefix} {text}".strip()}
        if self.expect is not None:
            turn["expect"] = self.expect
        if self.pending:
            turn["tool_calls"] = self.pending
        if end:
            turn["end_call"] = True
        self.turns.append(turn)
        self.pending, self.prefix, self.expect = [], "", then_expect

    def tools_used(self) -> set[str]:
        return {c["name"] for t in self.turns for c in t.get("tool_calls", [])}
