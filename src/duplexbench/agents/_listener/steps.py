"""Tool calls filled from the outline's sources, never from a reference value.

`fact:` is the value the listener heard for that fact's slot (its latest version
heard), `record:` a column of the record its read returned, `knowledge:` the value it
read in that document's table, `literal` the outline's constant; a `search:` step is
the listener's own query (`tables.query`). An argument without a value yet (a fact
never heard, a record never read) is left out; a write left with no field is not
made.
"""

from __future__ import annotations

from typing import Any

from duplexbench.agents._listener.fields import FieldBook, Target
from duplexbench.agents._listener.outline import ArgStep, CallStep, Outline
from duplexbench.agents._listener.words import words_of
from duplexbench.agents._notes.ears import Ears
from duplexbench.agents._notes.tables import Known
from duplexbench.agents._protocol import AgentToolCall

_MISSING = object()


class Filler:
    """The values the listener has: heard facts, records read, knowledge looked up."""

    def __init__(self, outline: Outline, book: FieldBook, ears: Ears) -> None:
        self.outline, self.book, self.ears = outline, book, ears
        self.records: dict[str, dict[str, Any]] = {}
        self.knowledge: dict[tuple[str, str], Any] = {}
        self.written: dict[tuple[str, tuple[str, ...]], tuple[str, Any]] = {}
        """(tool, path) -> (the fact written there, the value written; None: not yet, the
        fact was not heard when its turn was played)."""
        self._calls = 0

    # ------------------------------------------------------------ values

    def fact_value(self, fact: str) -> Any:
        """The value heard for the fact's slot: its latest version heard."""
        heard = [
            f for f in self.outline.versions(self.outline.slot_of(fact)) if f in self.ears.ears
        ]
        if fact in self.ears.ears and (not heard or heard[-1] == fact):
            return self.ears.value(fact)
        return self.ears.value(heard[-1]) if heard else None

    def slot_value(self, slot: str) -> Any:
        versions = self.outline.versions(slot) or [slot]
        return self.fact_value(versions[0])

    def known(self) -> Known:
        """A field's words -> the value the listener has for it (heard, else on record)."""

        def lookup(words: str) -> Any:
            name = "_".join(words.casefold().split())
            value = self.slot_value(name) if name in self._slots() else None
            if value is None:
                for record in self.records.values():
                    if name in record:
                        return record[name]
            return value

        return lookup

    def _slots(self) -> set[str]:
        return {f.slot for f in self.outline.facts.values()}

    def value(self, call: CallStep, arg: ArgStep) -> Any:
        source = arg.source
        if source.kind == "fact":
            found = self.fact_value(source.ref)
            return _MISSING if found is None else found
        if source.kind == "record":
            table, _, column = source.ref.partition(".")
            return self.records.get(table, {}).get(column, _MISSING)
        if source.kind == "knowledge":
            return self.knowledge.get((source.ref, arg.path[-1]), _MISSING)
        if source.kind == "literal":
            return source.literal
        return _MISSING

    # ------------------------------------------------------------ calls

    def call_id(self) -> str:
        self._calls += 1
        return f"listener-{self._calls}"

    def fill(self, call: CallStep) -> AgentToolCall | None:
        """The call with every argument it has a value for; None if a required part is
        missing (a write without fields, a read without its id)."""
        arguments: dict[str, Any] = {}
        for arg in call.args:
            value = self.value(call, arg)
            if value is _MISSING:
                if arg.source.kind == "fact" and call.kind == "artifact_update":
                    self.written.setdefault((call.tool, arg.path), (arg.source.ref, None))
                continue
            _put(arguments, arg.path, self._shaped(call, arg, value))
            if arg.source.kind == "fact" and call.kind == "artifact_update":
                self.written[(call.tool, arg.path)] = (arg.source.ref, value)
        if any(a.path[0] == "fields" for a in call.args) and not arguments.get("fields"):
            return None
        if any(a.path == ("id",) for a in call.args) and "id" not in arguments:
            return None
        return AgentToolCall(call.tool, arguments, self.call_id())

    def _shaped(self, call: CallStep, arg: ArgStep, value: Any) -> Any:
        target = self.book.target(call.tool, arg.path)
        if isinstance(value, str) and target.lower:
            return value.lower()
        return value

    def rewrites(self) -> list[AgentToolCall]:
        """Writes of fields whose heard value changed since it was written (a repair
        settled it, the caller corrected it) or came after its turn was played."""
        out: list[AgentToolCall] = []
        for (tool, path), (fact, value) in list(self.written.items()):
            now = self.fact_value(fact)
            if now is None or now == value:
                continue
            self.written[(tool, path)] = (fact, now)
            arguments: dict[str, Any] = {}
            _put(arguments, path, now)
            out.append(AgentToolCall(tool, arguments, self.call_id()))
        return out

    def write_fact(self, fact: str) -> list[AgentToolCall]:
        """A write of a fact's slot through the artifact field it was written to."""
        slot = self.outline.slot_of(fact)
        out: list[AgentToolCall] = []
        for (tool, path), (written, _) in list(self.written.items()):
            if self.outline.slot_of(written) == slot:
                value = self.fact_value(fact)
                self.written[(tool, path)] = (fact, value)
                arguments: dict[str, Any] = {}
                _put(arguments, path, value)
                out.append(AgentToolCall(tool, arguments, self.call_id()))
        return out

    def targets_of(self, doc: str) -> list[Target]:
        """The fields a knowledge document's values go to (the first names the query)."""
        out: dict[tuple[str, tuple[str, ...]], Target] = {}
        for turn in self.outline.turns:
            for call in turn.calls:
                for arg in call.args:
                    if arg.source.kind == "knowledge" and arg.source.ref == doc:
                        out.setdefault((call.tool, arg.path), self.book.target(call.tool, arg.path))
        return list(out.values()) or [self.book.target("", (words_of(doc),))]


def _put(arguments: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    here = arguments
    for key in path[:-1]:
        here = here.setdefault(key, {})
    here[path[-1]] = value
