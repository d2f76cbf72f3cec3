"""What the simulated user knows an agent can ask about: the item's slots and actions.

A **slot** is one thing the agent may ask the caller for. Every user fact
gives one (the first fact of a `supersedes` chain names it; later versions
share it); every artifact field that no fact fills gives one too (a value
the caller does not hold, such as a looked-up fee: asked for it, the caller
says they do not know). A slot carries what the observer layers need: the
phrases that name it (rules), its description (semantic matcher), its value
kind (wh-word cues, value spotting) and the values the caller holds (to hear
them read back).

An **action** is a gated tool the agent must ask approval for, with the
phrases that name it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from duplexbench.items import ArtifactField, Fact, GraderSpec, WorkflowItem, action_type, is_gated

KINDS = (
    "person",
    "people",
    "company",
    "email",
    "phone",
    "address",
    "date",
    "time",
    "count",
    "money",
    "percent",
    "number",
    "enum",
    "list",
    "id",
    "yesno",
    "text",
)
"""Value kinds a slot can have (what a wh-word can ask for, what a value looks like)."""

_EXAMPLE = re.compile(r",?\s*e\.g\.\s*\S+\s*$")
_PERSON = re.compile(
    r"\b(person|contact|manager|sponsor|owner|holder|representative|rep|lead|head|"
    r"signatory|supervisor|coordinator|officer|organi[sz]er|name of the|full name|"
    r"candidate|claimant|client name|tenant|driver|technician|inspector|approver|who)\b"
)
_PEOPLE = re.compile(r"\b(people|persons|attendees|approvers|users|members|panel|references)\b")
_COMPANY = re.compile(
    r"\b(company|legal name|vendor name|supplier|firm|organi[sz]ation|business|"
    r"employer|entity|carrier|insurer|counterparty|brand)\b"
)
_MONEY = re.compile(
    r"\b(dollars?|fee|cost|price|spend|budget|amount|value|revenue|salary|rent|"
    r"deposit|limit|coverage|payment|premium|total|\$)\b"
)


def slot_words(name: str) -> str:
    """A field or fact name as words (`contact_email` -> "contact email")."""
    return name.rsplit(".", 1)[-1].replace("_", " ").replace("-", " ").strip()


def plain_description(text: str) -> str:
    """A description without its trailing example ("Tax id, e.g. TX-4821-KQ" -> "Tax id")."""
    return _EXAMPLE.sub("", text).strip()


@dataclass(frozen=True)
class Slot:
    id: str
    words: str
    names: tuple[str, ...]
    """Phrases that name the slot: its own names first (its words, its field's name),
    then the field's and the facts' aliases."""
    own_names: int
    description: str
    """What it is, in words ("" when the item says nothing: the matcher uses the words)."""
    kind: str
    choices: tuple[str, ...] = ()
    facts: tuple[Fact, ...] = ()
    """The caller's versions of this value (empty: the caller does not hold it)."""
    grader: GraderSpec | None = None

    @property
    def held(self) -> bool:
        return bool(self.facts)


@dataclass(frozen=True)
class Action:
    id: str
    names: tuple[str, ...]


_NAME_KINDS = (
    (re.compile(r"(^|_)(e?mail|email_address)$"), "email"),
    (re.compile(r"(^|_)(phone|mobile|telephone|cell)(_number)?$"), "phone"),
    (re.compile(r"(^|_)address$"), "address"),
    (re.compile(r"(^|_)(date|deadline|birthday|day)$"), "date"),
    (re.compile(r"(^|_)(window|hours|time|slot|times)$"), "time"),
    (re.compile(r"(^|_)(code|number|id|tag|reference|ref|serial|plate|identifier)$"), "id"),
    (re.compile(r"(^|_)(company|supplier|vendor|employer|carrier|insurer|firm|party)$"), "company"),
    (
        re.compile(
            r"(^|_)(name|person|contact|manager|sponsor|owner|holder|lead|counsel|"
            r"inspector|organizer|organiser|reporter|requester|host|negotiator|"
            r"claimant|candidate|technician|supervisor|attorney|advisor)$"
        ),
        "person",
    ),
    (re.compile(r"(^|_)(count|size|headcount|quantity|seats|lines|units|guests)$"), "count"),
)
"""A slot's value kind from the last words of its name, tried before the description."""


def value_kind(
    field: ArtifactField | None, name: str, description: str, value: object = None
) -> str:
    """The value kind of a slot, from the field's type, its name and description."""
    text = f"{slot_words(name)} {description}".casefold()
    declared = field.type if field is not None else _json_kind(value)
    direct = {
        "date": "date",
        "phone": "phone",
        "address": "address",
        "enum": "enum",
        "interval": "time",
        "boolean": "yesno",
    }
    if declared in direct:
        return direct[declared]
    if declared == "list":
        return "people" if _PEOPLE.search(text) or _PERSON.search(text) else "list"
    if declared in ("number", "integer"):
        if "percent" in text:
            return "percent"
        if _MONEY.search(text):
            return "money"
        return "count" if declared == "integer" else "number"
    key = name.rsplit(".", 1)[-1].casefold()
    for pattern, kind in _NAME_KINDS:
        if pattern.search(key):
            return "company" if kind == "person" and _COMPANY_NAME.search(key) else kind
    return _text_kind(text)


_COMPANY_NAME = re.compile(r"(legal|company|supplier|vendor|business|firm|entity)_name$")


def _text_kind(text: str) -> str:
    if "email" in text:
        return "email"
    if "phone" in text or "mobile" in text:
        return "phone"
    if "address" in text:
        return "address"
    if re.search(r"\b(date|deadline|birthday)\b", text):
        return "date"
    if re.search(r"\b(id|code|number|reference|identifier)\b", text):
        return "id"
    if _COMPANY.search(text):
        return "company"
    if re.search(r"\b(name|person|who|contact)\b", text):
        return "person"
    return "text"


def _json_kind(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, list):
        return "list"
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return "date"
    return "string"


def _field_of(item: WorkflowItem, ref: str | None) -> ArtifactField | None:
    if not ref:
        return None
    artifact_id, _, name = ref.partition(".")
    artifact = item.artifact(artifact_id)
    return artifact.field(name) if artifact is not None else None


def _choices(field: ArtifactField | None) -> tuple[str, ...]:
    if field is None or field.grader != "enum":
        return ()
    values = field.grader_options.get("values")
    return tuple(str(v) for v in values) if isinstance(values, list) else ()


def _fact_slot(item: WorkflowItem, slot: str, versions: list[Fact]) -> Slot:
    first = versions[0]
    field = next((f for v in versions if (f := _field_of(item, v.field)) is not None), None)
    field_name = (first.field or "").partition(".")[2]
    names = [slot_words(slot)]
    if field_name:
        names.append(slot_words(field_name))
    own = len(dict.fromkeys(names))
    for fact in versions:
        names += fact.aliases
    names += field.aliases if field is not None else []
    description = next((v.description for v in versions if v.description), "")
    if not description and field is not None:
        description = field.description
    description = plain_description(description)
    return Slot(
        id=slot,
        words=slot_words(field_name or slot),
        names=tuple(dict.fromkeys(n for n in names if n.strip())),
        own_names=own,
        description=description,
        kind=value_kind(field, field_name or slot, description, first.value),
        choices=_choices(field),
        facts=tuple(versions),
        grader=field.grader_spec() if field is not None else None,
    )


def item_slots(item: WorkflowItem) -> tuple[Slot, ...]:
    """Every slot of the item: the caller's facts (in item order), then the artifact
    fields no fact fills. A field slot is named by the field, or by `artifact.field`
    where a fact already has that name."""
    user = item.user
    roots = list(dict.fromkeys(user.slot_of(f.id) for f in user.facts))
    slots = [_fact_slot(item, root, user.versions(root)) for root in roots]
    filled = {f.field for f in user.facts if f.field}
    taken = set(roots)
    for artifact in item.artifacts:
        for field in artifact.fields:
            ref = f"{artifact.id}.{field.name}"
            if ref in filled:
                continue
            slot_id = field.name if field.name not in taken else ref
            taken.add(slot_id)
            description = plain_description(field.description)
            slots.append(
                Slot(
                    id=slot_id,
                    words=slot_words(field.name),
                    names=tuple(dict.fromkeys([slot_words(field.name), *field.aliases])),
                    own_names=1,
                    description=description,
                    kind=value_kind(field, field.name, description),
                    choices=_choices(field),
                    grader=field.grader_spec(),
                )
            )
    return tuple(slots)


def item_actions(item: WorkflowItem) -> tuple[Action, ...]:
    """The gated actions, named by tool name, action id and the approval's aliases."""
    names: dict[str, list[str]] = {}
    for tool in item.tools:
        action = action_type(tool)
        if action is not None and is_gated(tool):
            names.setdefault(action, [])
            names[action] += [slot_words(tool.name), slot_words(action)]
    for approval in item.user.approvals:
        names.setdefault(approval.action, [])
        names[approval.action] += approval.aliases
    return tuple(Action(a, tuple(dict.fromkeys(n))) for a, n in names.items())
