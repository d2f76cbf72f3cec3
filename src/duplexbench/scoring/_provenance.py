"""Value provenance: where each graded value could have come from when it was written.

For every graded value (an artifact field with a gold value; in database mode,
every record field the gold's final database changes) the scorer finds the
write that set the final value (the first write of the last unbroken run of
writes holding it) and the earliest source, before that write in the trace,
that made the value available:

- `user`: a revealed user fact (`fact.revealed`) whose value matches, or a user
  utterance whose text states it;
- `knowledge`: a knowledge document a search returned that states it;
- `database`: a record a `database_read` tool returned that holds it;
- `tool`: any other tool result that holds it (never an artifact or database
  write's echo of what the agent itself wrote);
- `instructions`: the item's title and instructions, as the agent was given them
  (the rules every item shares state no item's value: "ask for one missing piece"
  is no source of a count of 1);
- `none`: no source before the write.

Matching uses the field's grader (`values/`): a source supports the written
value when the grader matches them in either direction; a correct value is also
supported by any source of the gold value (so a paraphrase or a judge-accepted
form is not flagged), including the item's recorded `gold.provenance` source and
the field's `evidence` document (`computed:` documents and `judged:` facts
state no literal value).
Texts are read for the value's words; only when no source holds the value is
every clause searched in word windows for its canonical form under the grader. A correct value whose
provenance is `none` is an *unsupported value*: the agent wrote it before it
could have known it (a guess or a leak). See docs/metrics.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from duplexbench.items import DatabaseReadTool, GraderSpec, KnowledgeSearchTool, WorkflowItem
from duplexbench.trace import (
    DatabaseWrite,
    EpisodeStart,
    FactRevealed,
    FieldSet,
    ToolResult,
    TraceEvent,
    UserUtterance,
)
from duplexbench.values import (
    canonical_text,
    is_empty,
    loose_text,
    split_items,
    value_to_text,
    values_match,
)

SourceKind = Literal["user", "knowledge", "database", "tool", "instructions", "none"]
ECHO_KINDS = frozenset({"artifact_update", "artifact_transition", "database_write"})
"""Tool kinds whose results echo what the agent wrote: never a source."""
WORD_GRADERS = frozenset({"exact", "casefold_exact", "semantic", "enum"})
"""Graders under which a text states a value only by containing its words."""
MAX_WINDOW = 12
"""Longest run of words of a text compared with a value."""
_CHARACTERS = frozenset("0123456789bcdefghjklmnopqrstuvwxyz")
_CLAUSES = re.compile(r"[;:\n]|[.!?](?=\s|$)")


class ValueProvenance(BaseModel):
    """Where one graded value could have come from."""

    model_config = ConfigDict(extra="forbid")
    key: str = Field(description="`artifact.field`, or `table.record.field` in database mode.")
    correct: bool
    source: SourceKind
    ref: str | None = Field(
        None, description="Fact id, `utterance`, document id, `table/record` or tool name."
    )
    source_ms: int | None = Field(None, description="When the source became available.")
    write_ms: int | None = Field(None, description="When the write that set the value ran.")

    @property
    def unsupported(self) -> bool:
        return self.correct and self.source == "none"


class Provenance(BaseModel):
    """Provenance of every graded value of an episode (docs/metrics.md)."""

    model_config = ConfigDict(extra="forbid")
    correct: int = Field(0, description="Graded values that are correct.")
    unsupported: int = Field(0, description="Correct values written before any source.")
    values: list[ValueProvenance] = Field(default_factory=list)


@dataclass(frozen=True)
class _Source:
    index: int
    t_ms: int
    kind: SourceKind
    ref: str
    value: Any
    text: bool = False


@dataclass(frozen=True)
class _Graded:
    key: str
    grader: GraderSpec
    gold: Any
    final: Any
    correct: bool
    write: tuple[int, int] | None  # (trace index, t_ms) of the write that set it


# ---------------------------------------------------------------- sources


def _result_sources(item: WorkflowItem, i: int, event: ToolResult) -> Iterator[_Source]:
    tool = item.tool(event.data.name)
    result = event.data.result
    if tool is None or not event.data.ok or tool.kind in ECHO_KINDS:
        return
    if isinstance(tool, KnowledgeSearchTool):
        for hit in result.get("results", []) if isinstance(result, dict) else []:
            if isinstance(hit, dict):
                doc, text = str(hit.get("id")), str(hit.get("text", ""))
                yield _Source(i, event.t_ms, "knowledge", doc, text, text=True)
    elif isinstance(tool, DatabaseReadTool):
        record = result.get("record") if isinstance(result, dict) else None
        if isinstance(record, dict):
            ref = f"{tool.table}/{record.get('id')}"
            yield _Source(i, event.t_ms, "database", ref, record)
    elif result is not None:
        yield _Source(i, event.t_ms, "tool", tool.name, result)


def sources(item: WorkflowItem, events: Sequence[TraceEvent]) -> list[_Source]:
    """Everything the agent could learn values from, in trace order."""
    out: list[_Source] = []
    for i, event in enumerate(events):
        if isinstance(event, EpisodeStart):  # the item's own delegation, not the shared rules
            text = f"{item.title}\n{item.instructions}"
            out.append(_Source(i, event.t_ms, "instructions", "instructions", text, text=True))
        elif isinstance(event, FactRevealed):
            fact = item.user.fact(event.data.fact)
            if fact is not None:
                out.append(_Source(i, event.t_ms, "user", fact.id, fact.value))
        elif isinstance(event, UserUtterance):
            out.append(_Source(i, event.t_ms, "user", "utterance", event.data.text, text=True))
        elif isinstance(event, ToolResult):
            out.extend(_result_sources(item, i, event))
    return out


# ---------------------------------------------------------------- matching


def _match(grader: GraderSpec, source: Any, target: Any) -> bool:
    return values_match(grader, source, target) or values_match(grader, target, source)


@lru_cache(maxsize=4096)
def _loose(text: str) -> str:
    return f" {loose_text(text)} "


def _in_text(grader: GraderSpec, text: str, target: Any) -> bool:
    """Whether a text states `target` as words (other forms: `_in_windows`)."""
    hay = _loose(text)
    if isinstance(target, list | tuple) or grader.name.startswith(("set_", "ordered")):
        items = split_items(target) or []
        return bool(items) and all(_states(hay, str(i)) for i in items)
    return not is_empty(target) and _states(hay, value_to_text(target))


def _in_windows(grader: GraderSpec, text: str, target: Any) -> bool:
    """Whether a run of words within one clause of `text` is `target` in the grader's
    canonical form (a spoken or formatted form of it)."""
    if grader.name in WORD_GRADERS or grader.name.startswith(("set_", "ordered")):
        return False  # under a word grader the words are the value: no other form
    if isinstance(target, list | tuple):
        return False
    key = (grader.name, json.dumps(grader.options, sort_keys=True, default=str))
    wanted = canonical_text(grader, target)
    return bool(wanted) and any(_canonical(key, w) == wanted for w in _windows(text))


def _spelled(token: str) -> bool:
    """A token that spells one character of a code ("7", "Q"; not the words a or I)."""
    token = token.strip(".,!?").casefold()
    return len(token) == 1 and token.isalnum() and token not in ("a", "i")


def _states(hay: str, value: str) -> bool:
    """`value`'s words in the loose text `hay`, not cut out of a spelled run of
    characters ("5" is not stated by "7 7 5", nor "2" by "R 7 Q X 2 L")."""
    needle = _loose(value).strip()
    if not needle:
        return False
    words = needle.split()
    left, right = _spelled(words[0]), _spelled(words[-1])
    padded = f" {needle} "
    at = hay.find(padded)
    while at >= 0:
        start, end = at + 1, at + 1 + len(needle)
        if not (left and _one_character(hay[start - 3 : start])) and not (
            right and _one_character(hay[end : end + 3])
        ):
            return True
        at = hay.find(padded, at + 1)
    return False


def _one_character(piece: str) -> bool:
    """ " 7 " or " q ": one spelled character of a loose text, between spaces (not a, i)."""
    return len(piece) == 3 and piece[0] == piece[2] == " " and piece[1] in _CHARACTERS


@lru_cache(maxsize=256)
def _spec(key: tuple[str, str]) -> GraderSpec:
    return GraderSpec.model_validate({"name": key[0], "options": json.loads(key[1])})


@lru_cache(maxsize=65536)
def _canonical(key: tuple[str, str], window: str) -> str:
    return canonical_text(_spec(key), window)


@lru_cache(maxsize=1024)
def _windows(text: str) -> tuple[str, ...]:
    """Every run of up to MAX_WINDOW words within one clause of `text`, once each."""
    out: dict[str, None] = {}
    for clause in _CLAUSES.split(text):
        words = clause.split()
        spelled = [_spelled(w) for w in words]
        for start in range(len(words)):
            if start and spelled[start - 1] and spelled[start]:
                continue  # cut out of a spelled run of characters
            for end in range(start + 1, min(len(words), start + MAX_WINDOW) + 1):
                if end < len(words) and spelled[end - 1] and spelled[end]:
                    continue
                out[" ".join(words[start:end])] = None
    return tuple(out)


def _holds(grader: GraderSpec, value: Any, target: Any, text: bool) -> bool:
    """Whether a source value (a fact, a record, a result, a text) holds `target`."""
    if isinstance(value, str):
        if not text and _match(grader, value, target):
            return True
        return (text or len(value.split()) > 3) and _in_text(grader, value, target)
    if isinstance(value, dict):
        return any(_holds(grader, v, target, False) for v in value.values())
    if isinstance(value, list):
        return _match(grader, value, target) or any(_holds(grader, v, target, False) for v in value)
    return value is not None and _match(grader, value, target)


def _holds_deep(grader: GraderSpec, value: Any, target: Any, text: bool) -> bool:
    """The second search, for a source `_holds` already rejected: every literal and
    structured match failed, so only word windows of its texts are left to try."""
    if isinstance(value, str):
        return (text or len(value.split()) > 3) and _in_windows(grader, value, target)
    if isinstance(value, dict):
        return any(_holds_deep(grader, v, target, False) for v in value.values())
    if isinstance(value, list):
        return any(_holds_deep(grader, v, target, False) for v in value)
    return False


def _recorded(item: WorkflowItem, key: str, source: _Source) -> bool:
    """Whether `source` is the gold's recorded provenance of `key` (`gold.provenance`,
    or the field's `evidence` document)."""
    kind, _, ref = item.gold.provenance.get(key, "").partition(":")
    artifact_id, _, name = key.partition(".")
    artifact = item.artifact(artifact_id)
    spec = artifact.field(name) if artifact else None
    if spec is not None and spec.evidence == source.ref and source.kind == "knowledge":
        return True  # the document the field's value is read or derived from
    if kind == "user":
        return source.kind == "user" and source.ref == ref
    if kind == "judged":
        return source.kind == "user" and source.ref in {r.strip() for r in ref.split(",")}
    if kind in ("knowledge", "computed"):
        return source.kind == "knowledge" and source.ref == ref
    if kind == "database":
        return source.kind == "database" and source.ref == ref
    return False


def _supports(item: WorkflowItem, graded: _Graded, source: _Source) -> bool:
    if graded.correct and _recorded(item, graded.key, source):
        return True
    return any(_holds(graded.grader, source.value, t, source.text) for t in _targets(graded))


def _supports_deep(graded: _Graded, source: _Source) -> bool:
    """The second search, once `_supports` failed for every source."""
    return any(_holds_deep(graded.grader, source.value, t, source.text) for t in _targets(graded))


def _targets(graded: _Graded) -> list[Any]:
    return [graded.final, graded.gold] if graded.correct else [graded.final]


# ---------------------------------------------------------------- graded values


def _setting_write(
    writes: Sequence[tuple[int, int, Any]], final: Any, grader: GraderSpec
) -> tuple[int, int] | None:
    """The first write of the last unbroken run of writes that hold the final value."""
    if is_empty(final):
        return None
    start: tuple[int, int] | None = None
    for index, t_ms, new in writes:
        holds = new == final or values_match(grader, new, final)
        start = (start or (index, t_ms)) if holds else None
    return start


def _artifact_values(
    item: WorkflowItem, events: Sequence[TraceEvent], final: Mapping[str, Mapping[str, Any]]
) -> list[_Graded]:
    writes: dict[str, list[tuple[int, int, Any]]] = {}
    for i, event in enumerate(events):
        if isinstance(event, FieldSet):
            key = f"{event.data.artifact}.{event.data.field}"
            writes.setdefault(key, []).append((i, event.t_ms, event.data.new))
    out = []
    for artifact in item.artifacts:
        for spec in artifact.fields:
            if not spec.graded:
                continue
            key, grader = f"{artifact.id}.{spec.name}", spec.grader_spec()
            value = final.get(artifact.id, {}).get(spec.name)
            correct = values_match(grader, value, spec.gold)
            write = _setting_write(writes.get(key, []), value, grader)
            out.append(_Graded(key, grader, spec.gold, value, correct, write))
    return out


def _db_grader(gold: Any) -> GraderSpec:
    if isinstance(gold, bool):
        return GraderSpec(name="exact")
    if isinstance(gold, int | float):
        return GraderSpec(name="numeric_tolerance")
    return GraderSpec(name="ordered_list" if isinstance(gold, list) else "casefold_exact")


def _database_values(
    item: WorkflowItem, events: Sequence[TraceEvent], final: Mapping[str, Mapping[str, Any]]
) -> list[_Graded]:
    """Database mode: every field the gold's final database changes."""
    out = []
    for table, records in (item.gold.final_database or {}).items():
        start = {str(r.get("id")): r for r in item.database.get(table, [])}
        for record in records:
            rid = str(record.get("id"))
            for name, gold in record.items():
                if name == "id" or start.get(rid, {}).get(name) == gold:
                    continue
                value = final.get(table, {}).get(rid, {}).get(name)
                writes = [
                    (i, e.t_ms, e.data.new.get(name))
                    for i, e in enumerate(events)
                    if isinstance(e, DatabaseWrite)
                    and (e.data.table, e.data.record) == (table, rid)
                    and e.data.new.get(name) != e.data.old.get(name)
                ]
                grader = _db_grader(gold)
                write = _setting_write(writes, value, grader)
                key = f"{table}.{rid}.{name}"
                out.append(_Graded(key, grader, gold, value, value == gold, write))
    return out


def _provenance(item: WorkflowItem, graded: _Graded, found: list[_Source]) -> ValueProvenance:
    """The earliest source before the setting write: literal and structured matches
    first; only when none holds the value are texts searched for other forms."""
    base = ValueProvenance(key=graded.key, correct=graded.correct, source="none")
    if graded.write is None:
        return base
    index, write_ms = graded.write
    before = [s for s in found if s.index < index]
    source = next((s for s in before if _supports(item, graded, s)), None)
    if source is None:  # only now search texts for other forms of the value
        source = next((s for s in before if _supports_deep(graded, s)), None)
    if source is not None:
        return base.model_copy(
            update={
                "source": source.kind,
                "ref": source.ref,
                "source_ms": source.t_ms,
                "write_ms": write_ms,
            }
        )
    return base.model_copy(update={"write_ms": write_ms})


def episode_provenance(
    item: WorkflowItem,
    events: Sequence[TraceEvent],
    artifacts: Mapping[str, Mapping[str, Any]],
    database: Mapping[str, Mapping[str, Any]],
    correct: Mapping[str, bool] | None = None,
) -> Provenance:
    """Provenance of every graded value, from the trace and the final state.

    `artifacts` maps artifact id to its final fields and `database` table to its final
    records by id; `correct` overrides correctness by `artifact.field` (the scorer's
    verdicts, judge included).
    """
    found = sources(item, events)
    graded = _artifact_values(item, events, artifacts) + _database_values(item, events, database)
    verdicts = correct or {}
    values = [
        _provenance(item, replace(g, correct=verdicts.get(g.key, g.correct)), found) for g in graded
    ]
    return Provenance(
        correct=sum(v.correct for v in values),
        unsupported=sum(v.unsupported for v in values),
        values=values,
    )
