"""The item under construction: one synthetic world, the roles its values play."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from duplexbench.suites.workflows.catalog import Archetype, FieldTemplate, LookupTemplate
from duplexbench.suites.workflows.plan import ItemPlan
from duplexbench.suites.workflows.world import Value, World


@dataclass(frozen=True)
class Lookup:
    template: LookupTemplate
    doc_id: str
    query: str


@dataclass
class Draft:
    """Everything the composer decided; plain data, read by the builders."""

    plan: ItemPlan
    rng: random.Random
    world: World
    org: str = ""
    specs: dict[str, FieldTemplate] = field(default_factory=dict)
    values: dict[str, Value] = field(default_factory=dict)
    """Gold value of every graded field (stored and spoken)."""
    first: dict[str, Value] = field(default_factory=dict)
    """The value the caller says first, for corrected and revised fields."""
    provenance: dict[str, str] = field(default_factory=dict)
    fields: list[dict[str, Any]] = field(default_factory=list)
    lookups: list[Lookup] = field(default_factory=list)
    knowledge: list[dict[str, Any]] = field(default_factory=list)
    volunteered: list[str] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)
    on_file: list[str] = field(default_factory=list)
    changed: str | None = None
    """Revise pattern: the on-file field the caller changes (volunteered)."""
    record_id: Value | None = None
    record: dict[str, Any] = field(default_factory=dict)
    """The database record holding on-file values (and, in database mode, the target)."""
    corrected: list[str] = field(default_factory=list)
    revised: str | None = None
    anchors: dict[str, str] = field(default_factory=dict)
    """Event kind -> the asked field whose answer anchors it."""

    @property
    def arch(self) -> Archetype:
        return self.plan.archetype

    @property
    def database_mode(self) -> bool:
        return bool(self.arch.database_table)

    @property
    def gated(self) -> bool:
        return self.plan.autonomy == "approval_gated_commit"

    @property
    def commits(self) -> bool:
        return self.plan.autonomy in (
            "approval_gated_commit",
            "autonomous_commit",
            "reversible_write",
        )

    @property
    def table(self) -> str:
        return self.arch.database_table or f"{self.arch.tool_noun}_records"

    @property
    def record_words(self) -> str:
        return self.arch.record_words

    def graded(self) -> list[str]:
        return [*self.specs, *(lk.template.name for lk in self.lookups)]

    def written_in_database(self) -> list[str]:
        """Database mode: the record's fields the agent changes (all but those on file)."""
        return [n for n in self.graded() if n not in self.on_file]

    def spoken(self, name: str) -> str:
        return self.values[name].spoken
