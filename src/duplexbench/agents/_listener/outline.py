"""The outline of an item: its reference trajectory with every caller value taken out.

What the `listener` is told (docs/agents.md, "The listener"): per reference turn the
user plan it follows (`expect`: plan ids name facts and events, never values), its
tool calls as (tool, kind, argument paths) with each argument's SOURCE instead of its
value, the acts the harness's observer reads in the turn's words (slots, never
values) and whether it ends the call; the facts (slot, the field each fills), the
facts the caller volunteers, the authored events (kind, facts revealed, approval
revoked) and the approvals (action, the phrases that name it, the slots read back).

A source is one of:

- `fact:<id>`: the value equals that caller fact (version); the listener writes what
  it HEARD for it;
- `record:<table>.<column>`: from the result of a database read;
- `knowledge:<doc>`: from that knowledge document (the item's gold provenance);
- `search:<doc>`: the query of a knowledge search, which looked for that document
  (the listener writes its own query);
- `literal`: a constant that is no caller fact's value and holds none (an action
  name, a summary, a value the item computes or judges): kept with its value;
- `composed`: a text that holds a caller value: not kept, and the listener cannot
  fill it (it ends the run with an AgentError naming the step).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

SourceKind = Literal["fact", "record", "knowledge", "search", "literal", "composed"]
FILLABLE: frozenset[str] = frozenset({"fact", "record", "knowledge", "search", "literal"})
KNOWN_TOOL_KINDS: frozenset[str] = frozenset(
    {
        "knowledge_search",
        "database_read",
        "database_write",
        "artifact_update",
        "artifact_transition",
        "action",
        "approval_request",
    }
)


@dataclass(frozen=True)
class Source:
    """Where one argument's value comes from (the module docstring)."""

    kind: SourceKind
    ref: str = ""
    literal: Any = None
    """The constant itself: `literal` sources only."""

    def __str__(self) -> str:
        return self.kind if self.kind in ("literal", "composed") else f"{self.kind}:{self.ref}"


@dataclass(frozen=True)
class ArgStep:
    """One argument of a tool call: its path (`("fields", "currency")`, `("id",)`)."""

    path: tuple[str, ...]
    source: Source

    @property
    def name(self) -> str:
        return ".".join(self.path)


@dataclass(frozen=True)
class CallStep:
    tool: str
    kind: str
    """The tool's kind (`artifact_update`, ...), or `unknown` for a tool the item lacks."""
    args: tuple[ArgStep, ...] = ()

    def describe(self) -> str:
        inner = ", ".join(f"{a.name}={a.source}" for a in self.args)
        return f"{self.tool}[{self.kind}]({inner})"


@dataclass(frozen=True)
class OutlineTurn:
    index: int
    expect: str | None
    calls: tuple[CallStep, ...]
    acts: tuple[str, ...]
    end_call: bool = False
    stated: tuple[str, ...] = ()
    """Slots whose values the turn's words state (what its `READBACK` reads back)."""


@dataclass(frozen=True)
class FactOutline:
    id: str
    slot: str
    """The first fact of its `supersedes` chain: the slot the agent asks for."""
    field: str | None = None
    """`artifact.field` (the item's) or `tool.argument` (where the reference writes it)."""


@dataclass(frozen=True)
class EventOutline:
    id: str
    kind: str
    reveals: tuple[str, ...] = ()
    revokes: str | None = None


@dataclass(frozen=True)
class ApprovalOutline:
    id: str
    action: str
    names: tuple[str, ...] = ()
    """Phrases that name the action aloud ("update the account")."""
    readback: tuple[str, ...] = ()
    """Slots whose current values must be read back before the caller approves."""


@dataclass(frozen=True)
class Outline:
    item_id: str
    turns: tuple[OutlineTurn, ...]
    facts: Mapping[str, FactOutline] = field(default_factory=dict)
    volunteered: tuple[str, ...] = ()
    events: Mapping[str, EventOutline] = field(default_factory=dict)
    approvals: tuple[ApprovalOutline, ...] = ()

    def slot_of(self, fact_id: str) -> str:
        fact = self.facts.get(fact_id)
        return fact.slot if fact is not None else fact_id

    def versions(self, slot: str) -> list[str]:
        """The facts of one slot, in chain order."""
        return [f.id for f in self.facts.values() if f.slot == slot]

    def approval(self, action: str) -> ApprovalOutline | None:
        return next((a for a in self.approvals if a.action == action), None)

    def unfollowable(self) -> list[str]:
        """Steps the listener cannot follow ("turn 3: submit(note=composed)")."""
        out: list[str] = []
        for turn in self.turns:
            for call in turn.calls:
                if call.kind not in KNOWN_TOOL_KINDS:
                    out.append(f"turn {turn.index}: {call.describe()}: unknown tool kind")
                for arg in call.args:
                    if arg.source.kind not in FILLABLE:
                        out.append(
                            f"turn {turn.index}: {call.tool}.{arg.name}: source {arg.source}"
                        )
        return out

    def describe(self) -> str:
        """The outline as text, one line per turn (docs/agents.md shows one)."""
        lines = [f"outline of {self.item_id}"]
        for turn in self.turns:
            calls = "; ".join(c.describe() for c in turn.calls) or "-"
            end = " END" if turn.end_call else ""
            expect = turn.expect or "-"
            acts = " ".join(turn.acts)
            if turn.stated:
                acts += f" (states {','.join(turn.stated)})"
            lines.append(f"  {turn.index:>2} expect {expect}: {calls} | {acts}{end}")
        facts = ", ".join(f"{f.id}->{f.field or '?'}" for f in self.facts.values())
        lines.append(f"  facts: {facts}")
        if self.volunteered:
            lines.append(f"  volunteered: {', '.join(self.volunteered)}")
        for event in self.events.values():
            reveals = ",".join(event.reveals) or "-"
            lines.append(f"  event {event.id}: {event.kind}, reveals {reveals}")
        for approval in self.approvals:
            slots = ",".join(approval.readback) or "-"
            lines.append(f"  approval {approval.id}: {approval.action}, read back {slots}")
        return "\n".join(lines)
