"""Building an item's outline (`outline.py`): the reference with its values replaced by
their sources.

Each argument value of each reference tool call gets a source, tried in order:

1. the item's gold provenance for that field (`user:<fact>` -> `fact:` the version
   whose value it is; `knowledge:<doc>`; `database:<table>/<record>` -> `record:`
   the column holding it; `computed:` / `judged:` -> `literal`);
2. a caller fact whose value it equals (the fact filling that field first), else the
   fact that fills that artifact field (the caller's value in another form);
3. a column of a record the reference read before it (in an earlier turn, or
   earlier in the same turn), the column of the same name first;
4. a knowledge search's query -> `search:<doc>`, the document whose title it names;
5. otherwise `literal` (kept), unless it is text holding a caller value (`composed`,
   not kept).

The acts of each turn are what the harness's act observer reads in its words
(`acts`: the observer's `acts`, passed in: this package may not import the user
side), without `OTHER`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from duplexbench.agents._listener.outline import (
    ApprovalOutline,
    ArgStep,
    CallStep,
    EventOutline,
    FactOutline,
    Outline,
    OutlineTurn,
    Source,
)
from duplexbench.items import (
    ArtifactUpdateTool,
    DatabaseWriteTool,
    Fact,
    WorkflowItem,
)


class ToolCallSpec(Protocol):
    """A reference tool call (`items`' ToolCallSpec, which its face does not export)."""

    @property
    def name(self) -> str: ...

    @property
    def arguments(self) -> dict[str, Any]: ...


ActReader = Callable[[str], list[str]]
_WORD = re.compile(r"[a-z0-9]+")
_MIN_HELD = 3
"""A text holds a caller value only when the value has this many characters or more."""


def same_value(a: Any, b: Any) -> bool:
    """Equal as values: numbers by value, text case-insensitively, lists element-wise."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return float(a) == float(b)
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().casefold() == b.strip().casefold()
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def build_outline(item: WorkflowItem, acts: ActReader) -> Outline:
    """The outline of `item` (module docstring)."""
    builder = _Builder(item)
    turns = []
    for i, turn in enumerate(item.reference.turns):
        read = tuple(a for a in acts(turn.say) if a != "OTHER") if turn.say.strip() else ()
        stated = builder.stated(turn.say) if "READBACK" in read else ()
        calls = builder.calls(turn.tool_calls, turn.expect)
        turns.append(OutlineTurn(i, turn.expect, calls, read, turn.end_call, stated))
    user = item.user
    facts = {
        f.id: FactOutline(f.id, user.slot_of(f.id), f.field or _first_use(turns, f.id))
        for f in user.facts
    }
    events = {e.id: EventOutline(e.id, e.kind, tuple(e.reveals), e.revokes) for e in user.events}
    approvals = tuple(
        ApprovalOutline(a.id, a.action, tuple(a.aliases), tuple(a.readback)) for a in user.approvals
    )
    volunteered = tuple(f.id for f in user.facts if f.reveal == "volunteer")
    return Outline(item.id, tuple(turns), facts, volunteered, events, approvals)


def _first_use(turns: Sequence[OutlineTurn], fact_id: str) -> str | None:
    for turn in turns:
        for call in turn.calls:
            for arg in call.args:
                if arg.source.kind == "fact" and arg.source.ref == fact_id:
                    return f"{call.tool}.{arg.name}"
    return None


class _Builder:
    def __init__(self, item: WorkflowItem) -> None:
        self.item = item
        self.kinds = {t.name: t.kind for t in item.tools}
        self.reads: list[tuple[str, dict[str, Any]]] = []
        self.facts: list[Fact] = list(item.user.facts)
        self.expect: str | None = None

    def calls(self, specs: Sequence[ToolCallSpec], expect: str | None) -> tuple[CallStep, ...]:
        self.expect = expect
        out = []
        for spec in specs:
            kind = self.kinds.get(spec.name, "unknown")
            args = tuple(self._args(spec, kind))
            out.append(CallStep(spec.name, kind, args))
            if kind == "database_read":
                self._remember_read(spec)
        return tuple(out)

    def _remember_read(self, spec: ToolCallSpec) -> None:
        tool = self.item.tool(spec.name)
        table = getattr(tool, "table", "")
        for record in self.item.database.get(table, []):
            if str(record.get("id")) == str(spec.arguments.get("id")):
                self.reads.append((table, record))

    def _args(self, spec: ToolCallSpec, kind: str) -> list[ArgStep]:
        out: list[ArgStep] = []
        for name, value in spec.arguments.items():
            if name == "fields" and isinstance(value, dict):
                for key, inner in value.items():
                    source = self._source(spec, key, inner)
                    out.append(ArgStep(("fields", key), source))
            elif kind == "knowledge_search" and name == "query":
                out.append(ArgStep((name,), Source("search", self._document(str(value)))))
            else:
                out.append(ArgStep((name,), self._source(spec, name, value)))
        return out

    # ------------------------------------------------------------ sources

    def _source(self, spec: ToolCallSpec, name: str, value: Any) -> Source:
        provenance = self._provenance(spec, name)
        if provenance:
            found = self._from_provenance(provenance, name, value)
            if found is not None:
                return found
        fact = self._fact(name, value) or self._filling(spec, name)
        if fact is not None:
            return Source("fact", fact)
        column = self._column(name, value)
        if column is not None:
            return Source("record", column)
        if isinstance(value, str) and self._holds_caller_value(value):
            return Source("composed")
        return Source("literal", literal=value)

    def _provenance(self, spec: ToolCallSpec, name: str) -> str | None:
        tool = self.item.tool(spec.name)
        provenance = self.item.gold.provenance
        if isinstance(tool, ArtifactUpdateTool):
            return provenance.get(f"{tool.artifact}.{name}")
        if isinstance(tool, DatabaseWriteTool):
            return provenance.get(f"{tool.table}.{spec.arguments.get('id')}.{name}")
        return None

    def _from_provenance(self, provenance: str, name: str, value: Any) -> Source | None:
        kind, _, ref = provenance.partition(":")
        if kind == "user":
            slot = self.item.user.slot_of(ref)
            versions = [f for f in self.item.user.versions(slot) if same_value(f.value, value)]
            return Source("fact", versions[-1].id) if versions else None
        if kind == "knowledge":
            return Source("knowledge", ref)
        if kind == "database":
            table = ref.partition("/")[0]
            column = self._column(name, value, table)
            return Source("record", column) if column is not None else None
        if kind in ("computed", "judged"):
            return Source("literal", literal=value)
        return None

    def _fact(self, name: str, value: Any) -> str | None:
        equal = [f for f in self.facts if same_value(f.value, value)]
        if not equal:
            return None
        named = [
            f
            for f in equal
            if (f.field or "").endswith(f".{name}") or self.item.user.slot_of(f.id) == name
        ]
        return (named or equal)[-1 if named else 0].id

    def _filling(self, spec: ToolCallSpec, name: str) -> str | None:
        """The fact that fills this artifact field (the value is the caller's, written in
        another form: "42 Birch St Apt 5" for "42 Birch Street, Apartment 5"): the version
        the turn's plan names, else the first."""
        tool = self.item.tool(spec.name)
        if not isinstance(tool, ArtifactUpdateTool):
            return None
        filling = [f.id for f in self.facts if f.field == f"{tool.artifact}.{name}"]
        if not filling:
            return None
        _, _, named = (self.expect or "").partition(":")
        event = next((e for e in self.item.user.events if e.id == named), None)
        revealed = list(event.reveals) if event is not None else [named]
        return next((f for f in filling if f in revealed), filling[0])

    def _column(self, name: str, value: Any, table: str | None = None) -> str | None:
        found: list[str] = []
        for read_table, record in self.reads:
            if table is not None and read_table != table:
                continue
            for column, held in record.items():
                if column != "id" and same_value(held, value):
                    found.append(f"{read_table}.{column}")
                    if column == name:
                        return found[-1]
        return found[0] if found else None

    def _held(self, text: str) -> list[Fact]:
        """The facts whose value (or spoken form) the text holds, as whole words."""
        said = f" {' '.join(_WORD.findall(text.casefold()))} "
        out = []
        for fact in self.facts:
            forms = [fact.value, fact.say]
            if isinstance(fact.value, list):
                forms.append(" and ".join(str(v) for v in fact.value))
            for form in forms:
                if isinstance(form, str | int | float) and len(str(form)) >= _MIN_HELD:
                    words = " ".join(_WORD.findall(str(form).casefold()))
                    if words and f" {words} " in said:
                        out.append(fact)
                        break
        return out

    def _holds_caller_value(self, text: str) -> bool:
        return bool(self._held(text))

    def stated(self, say: str) -> tuple[str, ...]:
        """The slots whose values a read-back states (ids only)."""
        slots = [self.item.user.slot_of(f.id) for f in self._held(say)]
        return tuple(dict.fromkeys(slots))

    def _document(self, query: str) -> str:
        """The knowledge document a reference query looks for: the one whose title
        shares the most of its words with the query (ties: the first)."""
        said = set(_WORD.findall(query.casefold()))
        best, score = "", 0.0
        for doc in self.item.knowledge:
            title = set(_WORD.findall(doc.title.casefold()))
            text = set(_WORD.findall(doc.text.casefold()))
            share = len(title & said) / max(1, len(title)) + len(text & said) / 1000
            if share > score:
                best, score = doc.id, share
        return best
