"""The artifact factory: one archetype + one plan + a seed -> a complete workflow item.

Everything comes from one synthetic world, so the artifact's gold, the
knowledge documents, the database, the tools, the caller's private facts,
the realization bank and the oracle's reference trajectory cannot
contradict each other. Each gold value records where it comes from
(`Draft.provenance`: `user:<fact>`, `knowledge:<document>`,
`database:<table>/<record>`).
"""

from __future__ import annotations

import random
from typing import Any

from duplexbench.suites.workflows.catalog import FieldTemplate, LookupTemplate
from duplexbench.suites.workflows.draft import Draft, Lookup
from duplexbench.suites.workflows.facts import CORRECTABLE, record_fact
from duplexbench.suites.workflows.plan import ItemPlan
from duplexbench.suites.workflows.world import Value, World, money_text

GRADERS = {
    "person": ("casefold_exact", "string"),
    "company": ("casefold_exact", "string"),
    "id": ("exact", "string"),
    "date": ("date", "date"),
    "phone": ("phone", "phone"),
    "email": ("casefold_exact", "string"),
    "address": ("address", "address"),
    "money": ("numeric_tolerance", "number"),
    "count": ("numeric_tolerance", "integer"),
    "percent": ("numeric_tolerance", "number"),
    "enum": ("enum", "enum"),
    "text": ("casefold_exact", "string"),
    "people": ("set_exact", "list"),
    "items": ("ordered_list", "list"),
    "hours": ("interval_overlap", "interval"),
}
KNOWLEDGE_COUNT = {"none": 0, "light": 1, "moderate": 2, "heavy": 3}


class CompositionError(ValueError):
    """The plan cannot be realized for this archetype (the candidate is rejected)."""


def field_entry(spec: FieldTemplate, gold: Any) -> dict[str, Any]:
    grader, kind = GRADERS[spec.kind]
    entry: dict[str, Any] = {"name": spec.name, "type": kind, "grader": grader, "gold": gold}
    if spec.description:
        entry["description"] = spec.description
    if spec.kind == "enum":
        entry["grader_options"] = {"values": list(spec.choices)}
    if spec.kind == "money":
        entry["grader_options"] = {"tolerance": 0.01}
    if spec.aliases:
        entry["aliases"] = list(spec.aliases)
    return entry


def _choose_specs(draft: Draft) -> list[FieldTemplate]:
    arch, rng = draft.arch, draft.rng
    n_lookups = KNOWLEDGE_COUNT[draft.plan.knowledge]
    if n_lookups > len(arch.lookups):
        raise CompositionError(f"{n_lookups} lookups asked, the archetype has {len(arch.lookups)}")
    chosen = rng.sample(list(arch.lookups), n_lookups)
    draft.lookups = [Lookup(lk, "", "") for lk in chosen]
    keys = {k for lk in chosen for k in lk.keys}
    must = [f for f in arch.fields if f.name in arch.always or f.name in keys]
    rest = [f for f in arch.fields if f not in must]
    target = rng.randrange(10, 17) - n_lookups
    picked = must + rng.sample(rest, max(0, min(len(rest), target - len(must))))
    if len(picked) + n_lookups < 10:
        raise CompositionError(f"only {len(picked) + n_lookups} graded fields (at least 10)")
    order = {f.name: i for i, f in enumerate(arch.fields)}
    return sorted(picked, key=lambda f: order[f.name])


def other_value(draft: Draft, spec: FieldTemplate, gold: Value) -> Value:
    """A value of the same kind that differs from `gold` (a caller's first, wrong version)."""
    for _ in range(50):
        value = draft.world.value(spec)
        if value.stored != gold.stored and value.spoken != gold.spoken:
            return value
    raise CompositionError(f"cannot find a second value for {spec.name}")


def _add_lookup(draft: Draft, index: int, lookup: LookupTemplate) -> None:
    """A knowledge document (a rate table) and the field looked up in it."""
    rng = draft.rng
    key_specs = [draft.specs[k] for k in lookup.keys]
    rows = [" ".join(combo) for combo in _combos([s.choices for s in key_specs])]
    table = {row: round(rng.uniform(lookup.low, lookup.high)) for row in rows}
    chosen = " ".join(str(draft.values[k].stored) for k in lookup.keys)
    gold: float | int = float(table[chosen]) if lookup.unit == "money" else table[chosen]
    unit = {"money": " dollars", "days": " days", "percent": " percent", "count": ""}[lookup.unit]
    lines = [f"{row}: {v}{unit}" for row, v in table.items()]
    doc_id = f"{lookup.name.replace('_', '-')}-table"
    text = f"{lookup.doc_title}, by {' and '.join(k.replace('_', ' ') for k in lookup.keys)}. "
    draft.knowledge.append(
        {"id": doc_id, "title": lookup.doc_title, "text": text + "; ".join(lines) + "."}
    )
    entry = {
        "name": lookup.name,
        "type": "number" if lookup.unit in ("money", "percent") else "integer",
        "description": lookup.description,
        "grader": "numeric_tolerance",
        "grader_options": {"tolerance": 0.01},
        "gold": gold,
        "evidence": doc_id,
    }
    draft.fields.append(entry)
    said = unit.removesuffix("s") if gold == 1 and unit.endswith("s") else unit
    spoken = f"{money_text(float(gold))}{said}" if lookup.unit == "money" else f"{gold}{said}"
    draft.values[lookup.name] = Value(gold, spoken)
    draft.provenance[lookup.name] = f"knowledge:{doc_id}"
    query = f"{lookup.doc_title} {chosen}"
    draft.lookups[index] = Lookup(lookup, doc_id, query)


def _combos(choices: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = [()]
    for options in choices:
        out = [(*prefix, c) for prefix in out for c in options]
    return out


def _assign_roles(draft: Draft, specs: list[FieldTemplate]) -> None:
    """Who provides each value: the caller (volunteered or asked), a record on file."""
    plan, rng = draft.plan, draft.rng
    names = [s.name for s in specs]
    record_path = (
        draft.database_mode
        or plan.delegation in ("revise", "follow_through")
        or (plan.tools in ("moderate", "heavy"))
    )
    if record_path:
        draft.record_id = draft.world.value(FieldTemplate("record", "id", pattern="LLDDDD"))
        keys = {k for lk in draft.lookups for k in lk.template.keys}
        spare = [n for n in names if n not in draft.arch.always and n not in keys]
        count = len(names) - rng.randrange(4, 8) if draft.database_mode else rng.randrange(2, 5)
        draft.on_file = sorted(rng.sample(spare, min(len(spare), count)), key=names.index)
    for name in draft.on_file:
        draft.provenance[name] = (
            f"database:{draft.table}/{draft.record_id.stored if draft.record_id else ''}"
        )
    if plan.delegation == "revise" and draft.on_file and not draft.database_mode:
        draft.changed = rng.choice(draft.on_file)
        draft.on_file.remove(draft.changed)
        draft.provenance[draft.changed] = f"user:{draft.changed}"
    rest = [n for n in names if n not in draft.on_file and n != draft.changed]
    n_volunteer = {"verbose": 2, "expert": 2, "cooperative": 1}.get(plan.behavior, 0)
    draft.volunteered = rest[:n_volunteer] if len(rest) > n_volunteer + 4 else []
    draft.asked = [n for n in rest if n not in draft.volunteered]
    for name in [*draft.volunteered, *draft.asked]:
        draft.provenance[name] = f"user:{name}"
    _assign_events(draft)


def _assign_events(draft: Draft) -> None:
    plan, rng = draft.plan, draft.rng
    keys = {k for lk in draft.lookups for k in lk.template.keys}
    correctable = [n for n in draft.asked if draft.specs[n].kind in CORRECTABLE]
    correctable = [n for n in correctable if draft.specs[n].correctable]
    if "mid_speech_correction" in plan.phenomena:
        count = 2 if plan.behavior == "correction_prone" else 1
        draft.corrected = rng.sample(correctable, min(count, len(correctable)))
        if not draft.corrected:
            raise CompositionError("no correctable field for a mid-speech correction")
    if "revocation" in plan.phenomena:
        options = [n for n in correctable if n not in draft.corrected and n not in keys]
        if not options:
            raise CompositionError("no field left for the revocation to change")
        draft.revised = rng.choice(options)
    for name in [*draft.corrected, *([draft.revised] if draft.revised else [])]:
        draft.first[name] = other_value(draft, draft.specs[name], draft.values[name])
        draft.provenance[name] = f"user:{name}_v2"
    free = [n for n in draft.asked if n not in draft.corrected]
    rng.shuffle(free)
    for kind in ("barge_in", "clarification", "side_speech", "long_pause"):
        if kind in plan.phenomena:
            if not free:
                raise CompositionError(f"no asked field left to anchor {kind}")
            draft.anchors[kind] = free.pop()
    for kind in ("backchannel", "cancellation"):
        if kind in plan.phenomena:
            draft.anchors[kind] = ""


def compose(plan: ItemPlan) -> Draft:
    """Decide every value and role for one plan (raises `CompositionError`)."""
    rng = random.Random(plan.seed)
    draft = Draft(plan, rng, World(rng, plan.pools))
    draft.org = draft.world.organization(plan.industry)
    specs = _choose_specs(draft)
    for spec in specs:
        draft.specs[spec.name] = spec
        value = draft.world.value(spec)
        draft.values[spec.name] = value
        draft.fields.append(field_entry(spec, value.stored))
    for i, lookup in enumerate(list(draft.lookups)):
        _add_lookup(draft, i, lookup.template)
    _assign_roles(draft, specs)
    return draft


__all__ = ["CompositionError", "compose", "field_entry", "other_value", "record_fact"]
