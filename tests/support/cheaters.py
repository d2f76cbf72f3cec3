"""Agents that cheat with gold they were never given, wrapped around the reference
dialogue manager (the honest `reference` agent on the text channel).

- `GoldLookup`: contaminated by the public suites. It matches the session's
  instructions and tool names to a packaged item and, when one matches, every
  field it writes holds that item's gold (at the moment the dialogue manager
  would have written what it heard, so the caller has said the value by then).
- `UnheardGold`: writes, at its first turn, the gold of every graded field whose
  value it has not heard yet (not in the instructions, and not a fact the caller
  volunteers in its first words), and never writes those fields again.
  `UnheardGold(blank=True)` is the same agent leaving those fields empty: the
  provenance rule must score the two alike (docs/metrics.md, "Unsupported values").

Both are honest about nothing but are not privileged: the harness hands them no
hidden state, so a campaign scores them as any agent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, cast

from duplexbench.agents import (
    AgentInput,
    AgentSession,
    AgentToolCall,
    AgentTurn,
    TextAgent,
    build_instructions,
    get_agent,
)
from duplexbench.items import ArtifactUpdateTool, WorkflowItem
from duplexbench.values import loose_text, value_to_text

GoldByTool = dict[str, dict[str, Any]]
"""Write tool name -> field name -> gold value."""


def reference_brain() -> TextAgent:
    info, spec = get_agent("reference")
    return cast(TextAgent, info.create(spec, "text"))  # the text channel makes a TextAgent


def gold_by_tool(item: WorkflowItem) -> GoldByTool:
    out: GoldByTool = {}
    for tool in item.tools:
        artifact = item.artifact(tool.artifact) if isinstance(tool, ArtifactUpdateTool) else None
        if artifact is not None:
            out[tool.name] = {f.name: f.gold for f in artifact.fields if f.graded}
    return out


def _key(instructions: str, tools: Iterable[str]) -> tuple[str, tuple[str, ...]]:
    return instructions, tuple(sorted(tools))


def _fields(call: AgentToolCall) -> dict[str, Any] | None:
    fields = call.arguments.get("fields") if isinstance(call.arguments, dict) else None
    return fields if isinstance(fields, dict) else None


class _Wrapped:
    """The reference dialogue manager, each of its turns passed through `rewrite`."""

    def __init__(self) -> None:
        self.inner = reference_brain()

    def start(self, session: AgentSession) -> None:
        self.inner.start(session)

    def respond(self, observation: AgentInput) -> AgentTurn:
        return self.rewrite(observation, self.inner.respond(observation))

    def rewrite(self, observation: AgentInput, turn: AgentTurn) -> AgentTurn:
        return turn

    def close(self) -> None:
        self.inner.close()


class GoldLookup(_Wrapped):
    def __init__(self, packaged: Iterable[WorkflowItem]) -> None:
        super().__init__()
        keys = [(_key(build_instructions(i), (t.name for t in i.tools)), i) for i in packaged]
        count = Counter(k for k, _ in keys)
        # instructions that several items share (a template with no values) name no item
        self._index = {k: gold_by_tool(i) for k, i in keys if count[k] == 1}
        self.matched = 0
        """Sessions that matched a packaged item."""

    def knows(self, item: WorkflowItem) -> bool:
        return _key(build_instructions(item), (t.name for t in item.tools)) in self._index

    def start(self, session: AgentSession) -> None:
        super().start(session)
        self._gold = self._index.get(_key(session.instructions, (t.name for t in session.tools)))
        self.matched += self._gold is not None

    def rewrite(self, observation: AgentInput, turn: AgentTurn) -> AgentTurn:
        if self._gold is None:
            return turn
        calls = []
        for call in turn.tool_calls:
            fields, gold = _fields(call), self._gold.get(call.name, {})
            if fields is None or not gold:
                calls.append(call)
                continue
            swapped = {k: gold.get(k, v) for k, v in fields.items()}
            calls.append(AgentToolCall(call.name, {**call.arguments, "fields": swapped}))
        return AgentTurn(turn.say, tuple(calls), turn.end_call)


def _heard(text: str, value: Any) -> bool:
    wanted = loose_text(value_to_text(value)).strip()
    return bool(wanted) and f" {wanted} " in f" {loose_text(text)} "


class UnheardGold(_Wrapped):
    def __init__(self, item: WorkflowItem, *, blank: bool = False) -> None:
        super().__init__()
        self._gold = gold_by_tool(item)
        said = {f.field for f in item.user.facts if f.reveal == "volunteer"}
        self._said = {(t, k) for t in self._gold for k in self._gold[t] if _ref(item, t, k) in said}
        self._blank = blank
        self.unheard: set[tuple[str, str]] = set()

    def start(self, session: AgentSession) -> None:
        super().start(session)
        self._instructions, self._first = session.instructions, True

    def rewrite(self, observation: AgentInput, turn: AgentTurn) -> AgentTurn:
        early: list[AgentToolCall] = []
        if self._first:
            self._first = False
            heard = f"{self._instructions}\n{observation.user_text or ''}"
            for tool, gold in self._gold.items():
                unheard = {
                    k: v
                    for k, v in gold.items()
                    if (tool, k) not in self._said and not _heard(heard, v)
                }
                self.unheard |= {(tool, k) for k in unheard}
                if unheard and not self._blank:
                    early.append(AgentToolCall(tool, {"fields": unheard}))
        calls = [*early, *(_without(c, self.unheard) for c in turn.tool_calls)]
        return AgentTurn(turn.say, tuple(c for c in calls if c is not None), turn.end_call)


def _ref(item: WorkflowItem, tool: str, field: str) -> str:
    spec = item.tool(tool)
    return f"{spec.artifact}.{field}" if isinstance(spec, ArtifactUpdateTool) else ""


def _without(call: AgentToolCall, dropped: set[tuple[str, str]]) -> AgentToolCall | None:
    """`call` without its writes to the `dropped` fields (None when nothing is left)."""
    fields = _fields(call)
    if fields is None:
        return call
    kept: Mapping[str, Any] = {k: v for k, v in fields.items() if (call.name, k) not in dropped}
    if not kept:
        return None
    return AgentToolCall(call.name, {**call.arguments, "fields": dict(kept)}, call.call_id)
