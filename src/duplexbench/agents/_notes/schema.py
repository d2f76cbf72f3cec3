"""What the reference agent can learn from the tools it is given (and nothing else).

It reads artifact fields (names, JSON types, descriptions, "One of: ..."
enum hints) from update tools, and classifies the other tools by their
argument schemas and descriptions: knowledge search, record lookup,
transition to ready, and consequential actions (commits).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from duplexbench.agents._protocol import ToolSpec

_ONE_OF = re.compile(r"One of: (.+?)\.?$")


@dataclass(frozen=True)
class FieldInfo:
    name: str
    kind: str  # string, number, integer, boolean, list, interval, enum, date, phone
    description: str
    choices: tuple[str, ...] = ()

    @property
    def words(self) -> str:
        return self.name.replace("_", " ")


@dataclass
class ToolMap:
    update: ToolSpec | None = None
    fields: list[FieldInfo] = field(default_factory=list)
    ready: ToolSpec | None = None
    commit: ToolSpec | None = None
    search: ToolSpec | None = None
    lookup: list[ToolSpec] = field(default_factory=list)
    approval_request: ToolSpec | None = None
    record_update: ToolSpec | None = None
    """A tool that changes a database record (`id` and `fields`: "update_account")."""


def _kind(name: str, schema: dict[str, Any], description: str) -> str:
    if "One of:" in description:
        return "enum"
    types = schema.get("type")
    if "anyOf" in schema:
        variants = [v.get("type") for v in schema["anyOf"]]
        pair = any(v.get("minItems") == 2 == v.get("maxItems") for v in schema["anyOf"])
        named = "time" in name or "slot" in name or "interval" in name
        if "array" in variants and (pair or named):
            return "interval"  # a start and an end: "callback_window", "office_hours"
        return "list" if "array" in variants else "string"
    if isinstance(types, list):
        types = next((t for t in types if t != "string"), "string")
    lowered = f"{name} {description}".lower()
    if types == "string":
        if "date" in name or re.search(r"\bdate\b", lowered):
            return "date"
        if "phone" in lowered:
            return "phone"
    return str(types or "string")


def fields_of(spec: ToolSpec) -> list[FieldInfo]:
    """The fields a writing tool's `fields` argument takes."""
    return _fields(spec)


def _fields(spec: ToolSpec) -> list[FieldInfo]:
    props = spec.parameters.get("properties", {}).get("fields", {}).get("properties", {})
    out = []
    for name, schema in props.items():
        description = str(schema.get("description", ""))
        match = _ONE_OF.search(description)
        choices = tuple(c.strip() for c in match.group(1).split(", ")) if match else ()
        out.append(FieldInfo(name, _kind(name, schema, description), description, choices))
    return out


def classify(tools: tuple[ToolSpec, ...]) -> ToolMap:
    """Sort the tools into the roles the dialogue manager knows."""
    out = ToolMap()
    for spec in tools:
        props = spec.parameters.get("properties", {})
        text = f"{spec.name} {spec.description}".lower()
        if "query" in props:
            out.search = out.search or spec
        elif set(props) == {"fields"} and out.update is None:
            out.update, out.fields = spec, _fields(spec)
        elif set(props) == {"id", "fields"}:
            out.record_update = out.record_update or spec
        elif set(props) == {"action", "summary"} or "approval" in spec.name:
            out.approval_request = spec
        elif "id" in props and "fields" not in props:
            out.lookup.append(spec)
        elif not props and "ready" in text:
            out.ready = spec
        elif not props and out.commit is None:
            out.commit = spec
    return out
