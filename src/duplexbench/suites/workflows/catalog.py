"""What an archetype is made of: field templates, knowledge lookups, the action.

Archetype catalogs are data: the composer (`compose.py`) turns one archetype,
a taxonomy plan and a seed into a complete, solvable workflow item.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ValueKind = Literal[
    "person",  # a person's full name
    "company",
    "id",  # alphanumeric identifier from `pattern` (L = letter, D = digit, other kept)
    "date",
    "phone",
    "email",
    "address",
    "money",  # dollars, `low`..`high`
    "count",  # integer, `low`..`high`
    "percent",
    "enum",  # one of `choices`
    "text",  # one of `pool`
    "people",  # 2-4 person names (set)
    "items",  # 2-4 of `pool`, ordered
    "hours",  # a time interval "HH:MM-HH:MM" on a working day
]


@dataclass(frozen=True)
class FieldTemplate:
    name: str
    kind: ValueKind
    description: str = ""
    choices: tuple[str, ...] = ()
    pool: tuple[str, ...] = ()
    pattern: str = "LL-DDDD"
    low: float = 1
    high: float = 100
    aliases: tuple[str, ...] = ()
    correctable: bool = True
    """Whether a mid-conversation correction may target this field."""


@dataclass(frozen=True)
class LookupTemplate:
    """A field whose value must be looked up in a knowledge document.

    The document is a table keyed by the values of `keys` (enum fields of the
    same artifact); the gold is the cell for the chosen options.
    """

    name: str
    description: str
    keys: tuple[str, ...]
    doc_title: str
    unit: Literal["money", "count", "percent", "days"] = "money"
    low: float = 20
    high: float = 900


@dataclass(frozen=True)
class ActionTemplate:
    tool: str  # e.g. submit_claim
    verb: str  # "submit the claim"
    past: str  # "submitted the claim"
    description: str
    aliases: tuple[str, ...] = ()
    """Other ways the agent may name the action when asking for approval."""


@dataclass(frozen=True)
class Archetype:
    key: str  # a WorkArchetype label
    artifact_type: str  # a WorkArtifact label
    noun: str  # "vendor onboarding form"
    tool_noun: str  # "onboarding" -> update_onboarding, mark_onboarding_ready
    task: str  # what the caller calls about: "registering a new vendor"
    titles: tuple[str, ...]  # "{org}" is filled in
    instructions: str  # the agent's role and job ("{org}" and "{noun}" are filled in)
    goal: str  # the caller's goal
    roles: tuple[str, ...]  # EconomicRole labels
    fields: tuple[FieldTemplate, ...]
    lookups: tuple[LookupTemplate, ...]
    action: ActionTemplate
    always: tuple[str, ...] = field(default_factory=tuple)
    """Fields every item of the archetype has (the rest are sampled)."""
    database_table: str = ""
    """Database mode (grounded customer service): the gold is this table's final
    state; the action is a `database_write` on the caller's record."""
    record_words: str = "reference number"
    """How the caller's existing record is named ("account number")."""
