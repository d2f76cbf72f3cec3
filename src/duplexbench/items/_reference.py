"""The reference (oracle) trajectory: what a perfect agent does."""

from __future__ import annotations

from pydantic import Field

from duplexbench.items._base import Identifier, JsonValue, StrictModel


class ToolCallSpec(StrictModel):
    name: Identifier
    arguments: dict[str, JsonValue] = Field(default_factory=dict)


class ReferenceTurn(StrictModel):
    """One agent turn: tool calls first, then speech."""

    expect: str | None = Field(
        None, description="User plan id expected just before this turn (checked)."
    )
    say: str = ""
    tool_calls: list[ToolCallSpec] = Field(default_factory=list)
    end_call: bool = False


class Reference(StrictModel):
    turns: list[ReferenceTurn] = Field(min_length=1)

    @property
    def tool_call_count(self) -> int:
        return sum(len(t.tool_calls) for t in self.turns)
