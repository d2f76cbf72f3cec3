"""Look-ups of a played stretch of the outline: database reads with the id the
listener heard (a read that finds nothing is tried with the next best reading of the
id, else the id is listened to again), and knowledge searches with its own query,
whose results it reads the outline's document out of (`tables.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from duplexbench.agents._listener.fields import FieldBook
from duplexbench.agents._listener.outline import CallStep, Outline, OutlineTurn
from duplexbench.agents._listener.steps import Filler
from duplexbench.agents._notes import tables
from duplexbench.agents._notes.ears import Ears
from duplexbench.agents._protocol import AgentToolCall, ToolResultMessage, ToolSpec


@dataclass(frozen=True)
class Looked:
    """What the results of a look-up call for: reads to try again with another id,
    and whether an id is to be listened to again."""

    retries: list[AgentToolCall] = field(default_factory=list)
    doubted: bool = False


class Lookups:
    def __init__(
        self,
        outline: Outline,
        filler: Filler,
        ears: Ears,
        book: FieldBook,
        tools: tuple[ToolSpec, ...],
    ) -> None:
        self.outline, self.filler, self.ears, self.book = outline, filler, ears, book
        self.reading: dict[str, tuple[str, CallStep]] = {}
        """Read call id -> the fact its id came from, and the outline's step."""
        self.searching: dict[str, str] = {}
        """Search call id -> the document looked for."""
        self.tables = {
            t.name: str(t.parameters["properties"]["id"].get("description", "")).removesuffix(
                " record id"
            )
            for t in tools
            if set(t.parameters.get("properties", {})) == {"id"}
        }
        self.search = next(
            (c.tool for t in outline.turns for c in t.calls if c.kind == "knowledge_search"), None
        )

    def calls(self, turns: list[OutlineTurn]) -> list[AgentToolCall]:
        """The reads and searches the turns need, before their writes."""
        calls: list[AgentToolCall] = []
        docs: list[str] = []
        for turn in turns:
            for step in turn.calls:
                if step.kind == "database_read":
                    call = self.filler.fill(step)
                    if call is not None:
                        fact = next(
                            (a.source.ref for a in step.args if a.source.kind == "fact"), ""
                        )
                        self.reading[str(call.call_id)] = (fact, step)
                        calls.append(call)
                docs += [
                    a.source.ref
                    for a in step.args
                    if a.source.kind in ("search", "knowledge") and a.source.ref
                ]
        heard = [str(v) for f in self.ears.ears if isinstance(v := self.ears.value(f), str)]
        for doc in dict.fromkeys(docs) if self.search is not None else ():
            words = tables.query(doc, self.filler.targets_of(doc)[0], heard)
            call = AgentToolCall(str(self.search), {"query": words}, self.filler.call_id())
            self.searching[str(call.call_id)] = doc
            calls.append(call)
        return calls

    def take(self, results: tuple[ToolResultMessage, ...]) -> Looked:
        """Read the results: records, knowledge values, and reads that found nothing."""
        retries: list[AgentToolCall] = []
        doubted = False
        for result in results:
            output = result.output
            if result.call_id in self.reading:
                fact, step = self.reading.pop(result.call_id)
                self._record(result.name, output)
                ear = self.ears.ears.get(fact)
                if output.get("ok") and ear is not None:
                    ear.checked = True  # a record has that id: it was heard right
                if not output.get("ok"):
                    retry = self._read_again(fact, step)
                    retries += [retry] if retry is not None else []
                    ear = self.ears.ears.get(fact)
                    doubted = doubted or (retry is None and ear is not None and not ear.settled)
            elif result.call_id in self.searching:
                self._searched(self.searching.pop(result.call_id), output)
        return Looked(retries, doubted)

    def _read_again(self, fact: str, step: CallStep) -> AgentToolCall | None:
        """A read that found no record: the same read with the next best reading of its
        id, if there is one."""
        if fact not in self.ears.ears or self.ears.doubt(fact) is None:
            return None
        call = self.filler.fill(step)
        if call is not None:
            self.reading[str(call.call_id)] = (fact, step)
        return call

    def _record(self, tool: str, output: dict[str, object]) -> None:
        result = output.get("result")
        record = result.get("record") if isinstance(result, dict) else None
        if output.get("ok") and isinstance(record, dict):
            self.filler.records[self.tables.get(tool, tool)] = record
            self.book.learn_record(record)

    def _searched(self, doc: str, output: dict[str, object]) -> None:
        result = output.get("result")
        hits = result.get("results", []) if isinstance(result, dict) else []
        found = tables.document(hits if isinstance(hits, list) else [], doc)
        if found is None:
            return
        known = self.filler.known()
        context = [str(v) for f in self.ears.ears if (v := self.filler.fact_value(f)) is not None]
        for target in self.filler.targets_of(doc):
            value = tables.table_value(str(found.get("text", "")), known, target, context)
            if value is not None:
                self.filler.knowledge[(doc, target.path[-1])] = value
