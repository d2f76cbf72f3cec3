"""Static and trace audits of an item: leakage, gold provenance, corrections,
approvals, knowledge. Each check returns (path, message) per problem.

- leakage: a fact the caller keeps private (asked for, or revealed by an
  event) must not appear in anything the agent sees before it is revealed:
  instructions, title, tool and field descriptions, knowledge documents,
  other plans' realizations; and in the oracle's run (the flow graph played
  out) nothing the agent says or writes may carry it before its reveal.
- provenance: every graded gold value comes from a source that holds it
  (`gold.provenance`, else any fact, document or record); `judged:<facts>`
  marks an assessment the agent makes from those facts (e.g. "covered").
- corrections: every fact a correction or revocation reveals supersedes an
  earlier version of the same slot with a different value.
- approvals: every approval-gated action has an approval the user can give.
- knowledge: a field whose gold is evidenced by a document agrees with it
  (states it), unless its provenance says it is `computed:<document>` (derived
  by a rule the document gives).
- gradable: every gold value is one its grader can pass; under
  `numeric_tolerance` it holds one single number ("about 5 or 6" does not).
  (An empty gold is refused earlier, by the item checks.)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from duplexbench.items import (
    ArtifactField,
    Fact,
    FieldEquals,
    GraderSpec,
    WorkflowItem,
    action_type,
    is_gated,
    plan_facts,
)
from duplexbench.trace import AgentUtterance, FactRevealed, ToolCall, TraceEvent
from duplexbench.users import plain_value
from duplexbench.values import parse_number, values_match

Problems = list[tuple[str, str]]
MIN_DISTINCT = 5
"""Values shorter than this (normalized) are too common to count as a leak."""


def norm(value: object) -> str:
    return re.sub(r"[^a-z0-9]", "", plain_value(value).casefold())


def _distinct(fact: Fact) -> list[str]:
    """Normalized forms of a fact distinctive enough to detect a leak: not numbers and
    not single words (an option like "premium" is not a secret; names, identifiers,
    emails, phone numbers and dates are)."""
    if isinstance(fact.value, (int, float)) and not isinstance(fact.value, bool):
        return []
    if isinstance(fact.value, str) and fact.value.isalpha():
        return []
    forms = {norm(fact.value), norm(fact.spoken)}
    return sorted(f for f in forms if len(f) >= MIN_DISTINCT and not f.isdigit())


def _private(item: WorkflowItem) -> list[Fact]:
    return [f for f in item.user.facts if f.reveal != "volunteer"]


def _visible_texts(item: WorkflowItem) -> list[tuple[str, str]]:
    texts = [("instructions", item.instructions), ("title", item.title)]
    texts += [(f"tools[{i}].description", t.description) for i, t in enumerate(item.tools)]
    texts += [(f"knowledge[{i}].text", d.text) for i, d in enumerate(item.knowledge)]
    for a_i, artifact in enumerate(item.artifacts):
        for f_i, fld in enumerate(artifact.fields):
            texts.append((f"artifacts[{a_i}].fields[{f_i}].description", fld.description))
    return texts


def _shared_values(item: WorkflowItem) -> set[str]:
    """Values the agent may legitimately see: volunteered facts, enum options, records."""
    shared = {norm(f.value) for f in item.user.facts if f.reveal == "volunteer"}
    for artifact in item.artifacts:
        for fld in artifact.fields:
            values = fld.grader_options.get("values")
            if isinstance(values, list):
                shared.update(norm(v) for v in values)
    for records in item.database.values():
        for record in records:
            shared.update(norm(v) for v in record.values())
    return shared


def _unshared(fact: Fact, shared: set[str]) -> list[str]:
    return [f for f in _distinct(fact) if not any(f in s for s in shared)]


def leakage_problems(item: WorkflowItem) -> Problems:
    problems: Problems = []
    shared = _shared_values(item)
    for fact in _private(item):
        forms = _unshared(fact, shared)
        for path, text in _visible_texts(item):
            if any(f in norm(text) for f in forms):
                problems.append((path, f"reveals the private fact {fact.id!r} to the agent"))
    for plan_id, variants in item.user.realizations.items():
        carried = set(plan_facts(item.user, plan_id) or [])
        for fact in _private(item):
            forms = _unshared(fact, shared)
            if fact.id in carried or not forms:
                continue
            if any(f in norm(v) for v in variants for f in forms):
                problems.append(
                    (f"user.realizations.{plan_id}", f"says the fact {fact.id!r} it does not carry")
                )
    return problems


def trace_leakage_problems(item: WorkflowItem, events: list[TraceEvent]) -> Problems:
    """In a run (the oracle's), the agent never says or writes a private value before
    the user revealed it."""
    shared = _shared_values(item)
    pending = {f.id: _unshared(f, shared) for f in _private(item)}
    problems: Problems = []
    for event in events:
        if isinstance(event, FactRevealed):
            fact = item.user.fact(event.data.fact)
            known = {norm(fact.value), norm(fact.spoken)} if fact else set()
            for fact_id, forms in list(pending.items()):  # what this reveal told, too
                if fact_id == event.data.fact or any(f in k for f in forms for k in known):
                    pending.pop(fact_id)
            continue
        if isinstance(event, AgentUtterance):
            said = norm(event.data.text)
        elif isinstance(event, ToolCall):
            said = norm(event.data.arguments)
        else:
            continue
        for fact_id, forms in list(pending.items()):
            if any(f in said for f in forms):
                problems.append(
                    ("reference", f"the agent uses {fact_id!r} before the user revealed it")
                )
                pending.pop(fact_id)
    return problems


def _graded(item: WorkflowItem) -> list[tuple[str, ArtifactField]]:
    return [(f"{a.id}.{fld.name}", fld) for a in item.artifacts for fld in a.fields if fld.graded]


def _database_golds(item: WorkflowItem) -> list[tuple[str, Any]]:
    """(table.record.field, value) of final-database values that differ from the start."""
    out: list[tuple[str, Any]] = []
    for table, records in (item.gold.final_database or {}).items():
        start = {str(r.get("id")): r for r in item.database.get(table, [])}
        for record in records:
            before = start.get(str(record.get("id")), {})
            for key, value in record.items():
                if key != "id" and before.get(key) != value:
                    out.append((f"{table}.{record.get('id')}.{key}", value))
    return out


def _source_holds(
    item: WorkflowItem, source: str, gold: object, match: Callable[[object], bool]
) -> bool:
    kind, _, ref = source.partition(":")
    if kind == "judged":  # an assessment from what the user said (e.g. "covered")
        return all(item.user.fact(f.strip()) is not None for f in ref.split(","))
    if kind == "user":
        fact = item.user.fact(ref)
        return fact is not None and match(fact.value)
    if kind in ("knowledge", "computed"):
        doc = next((d for d in item.knowledge if d.id == ref), None)
        return doc is not None and (kind == "computed" or norm(gold) in norm(doc.text))
    if kind == "database":
        table, _, record_id = ref.partition("/")
        record = next(
            (r for r in item.database.get(table, []) if str(r.get("id")) == record_id), None
        )
        return record is not None and any(match(v) for v in record.values())
    return False


def _any_source(item: WorkflowItem, gold: object, match: Callable[[object], bool]) -> bool:
    if any(match(f.value) for f in item.user.facts):
        return True
    if any(norm(gold) and norm(gold) in norm(d.text) for d in item.knowledge):
        return True
    return any(match(v) for rs in item.database.values() for r in rs for v in r.values())


def _graded_match(spec: GraderSpec, gold: object, value: object) -> bool:
    return values_match(spec, value, gold)


def _same_text(gold: object, value: object) -> bool:
    return norm(value) == norm(gold)


def provenance_problems(item: WorkflowItem) -> tuple[Problems, dict[str, int]]:
    """Problems, and how many gold values were traced to each kind of source."""
    problems: Problems = []
    kinds: dict[str, int] = {}
    golds: list[tuple[str, object, Callable[[object], bool]]] = []
    for key, fld in _graded(item):
        spec = fld.grader_spec()
        golds.append((key, fld.gold, partial(_graded_match, spec, fld.gold)))
    for key, value in _database_golds(item):
        golds.append((key, value, partial(_same_text, value)))
    for key, gold, match in golds:
        source = item.gold.provenance.get(key)
        if source is not None:
            if not _source_holds(item, source, gold, match):
                problems.append(
                    ("gold.provenance", f"{key}: its source {source!r} does not hold {gold!r}")
                )
                continue
            kind = source.partition(":")[0]
        elif _any_source(item, gold, match):
            kind = "unrecorded"
        else:
            problems.append(("gold", f"{key}: the gold value {gold!r} is absent from every source"))
            continue
        kinds[kind] = kinds.get(kind, 0) + 1
    return problems, kinds


def correction_problems(item: WorkflowItem) -> tuple[Problems, int]:
    problems: Problems = []
    checked = 0
    for event in item.user.events:
        if event.kind not in ("correction", "revocation"):
            continue
        for fact_id in event.reveals:
            checked += 1
            fact = item.user.fact(fact_id)
            earlier = item.user.fact(fact.supersedes) if fact and fact.supersedes else None
            path = f"user.events.{event.id}"
            if fact is None or earlier is None:
                problems.append((path, f"{fact_id!r} supersedes no earlier fact version"))
            elif norm(earlier.value) == norm(fact.value):
                problems.append((path, f"{fact_id!r} repeats the value it supersedes"))
    return problems, checked


def approval_problems(item: WorkflowItem) -> tuple[Problems, int]:
    problems: Problems = []
    events = {e.id for e in item.user.events}
    gated = [t for t in item.tools if is_gated(t)]
    for tool in gated:
        action = action_type(tool) or tool.name
        specs = [a for a in item.user.approvals if a.action == action]
        if not specs:
            problems.append((f"tools.{tool.name}", f"gated action {action!r} has no approval"))
        elif not any(set(a.after) <= events for a in specs):
            problems.append((f"tools.{tool.name}", f"no approval of {action!r} is reachable"))
    return problems, len(gated)


def knowledge_problems(item: WorkflowItem) -> tuple[Problems, int]:
    problems: Problems = []
    docs = {d.id: d for d in item.knowledge}
    checked = 0
    for key, fld in _graded(item):
        if fld.evidence is None or item.gold.provenance.get(key, "").startswith("computed:"):
            continue
        checked += 1
        doc = docs.get(fld.evidence)
        if doc is None or norm(fld.gold) not in norm(doc.text):
            problems.append(
                (key, f"knowledge document {fld.evidence!r} does not state {fld.gold!r}")
            )
    return problems, checked


def trace_reveal_problems(item: WorkflowItem, events: list[TraceEvent]) -> Problems:
    """Every reveal in a run followed its rule: a `when_asked` fact after the agent
    asked for its slot, an `on_event` fact by an event that reveals it."""
    problems: Problems = []
    revealers = {e.id: set(e.reveals) for e in item.user.events}
    for event in events:
        if not isinstance(event, FactRevealed):
            continue
        fact, rule, because = event.data.fact, event.data.rule, event.data.because
        if because == "repeat" or rule == "volunteer":
            continue
        if rule == "when_asked":
            ok = because.startswith("ASK:") or because == "readback"
        else:
            ok = fact in revealers.get(because, set())
        if not ok:
            problems.append(("user", f"{fact!r} ({rule}) was revealed by {because!r}"))
    return problems


def gradable_problems(item: WorkflowItem) -> tuple[Problems, int]:
    """Gold values their grader cannot pass: under `numeric_tolerance`, a gold (a field's,
    or a `field_equals` predicate's) without one single number; and how many were checked."""
    problems: Problems = []
    golds: list[tuple[str, ArtifactField, object]] = []
    for i, artifact in enumerate(item.artifacts):
        for j, fld in enumerate(artifact.fields):
            if fld.graded:
                golds.append((f"artifacts[{i}].fields[{j}].gold", fld, fld.gold))
    for group, preds in (("terminal", item.gold.terminal), ("critical", item.gold.critical)):
        for k, pred in enumerate(preds):
            if not isinstance(pred, FieldEquals):
                continue
            owner = item.artifact(pred.artifact)
            target = owner.field(pred.field) if owner is not None else None
            if target is not None:
                golds.append((f"gold.{group}[{k}].value", target, pred.value))
    for path, fld, gold in golds:
        if fld.grader == "numeric_tolerance" and parse_number(gold) is None:
            problems.append(
                (path, f"{gold!r} is not one single number; numeric_tolerance cannot grade it")
            )
    return problems, len(golds)
