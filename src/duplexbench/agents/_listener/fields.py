"""The fields the listener writes, by tool and argument path, each with its ear
(`agents/_notes/kinds.py`), refined by what a database read returns (the type and
case of a record's current value)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from duplexbench.agents._listener.outline import Outline
from duplexbench.agents._notes.kinds import SPELLED_EARS, Ear, Target, ear_of, value_kind
from duplexbench.agents._notes.schema import FieldInfo, classify
from duplexbench.agents._protocol import ToolSpec


def _is_name(value: Any) -> bool:
    """A person's name as a record holds it: capitalised words ("Yuki Abernathy")."""
    words = str(value).split()
    return len(words) >= 2 and all(w[:1].isupper() for w in words)


def _is_interval(schema: Any) -> bool:
    """The schema of a time interval: a pair (two strings or numbers) or a string."""
    variants = schema.get("anyOf", []) if isinstance(schema, dict) else []
    return any(v.get("minItems") == 2 and v.get("maxItems") == 2 for v in variants)


class FieldBook:
    """Every field of every writing tool, and the field each caller fact fills."""

    def __init__(self, tools: tuple[ToolSpec, ...], outline: Outline) -> None:
        self.outline = outline
        self.targets: dict[tuple[str, tuple[str, ...]], Target] = {}
        for spec in tools:
            self._add_tool(spec)

    def _add_tool(self, spec: ToolSpec) -> None:
        props = spec.parameters.get("properties", {})
        fields = props.get("fields", {}).get("properties")
        if isinstance(fields, dict) and "id" not in props:
            for found in classify((spec,)).fields:
                interval = _is_interval(fields.get(found.name, {}))
                info = replace(found, kind="interval") if interval else found
                self._put(spec.name, ("fields", info.name), info)
        elif isinstance(fields, dict):
            for name in fields:  # a database write: names only, typed by a read
                self._put(spec.name, ("fields", name), FieldInfo(name, "string", ""), record=True)
        for name, schema in props.items():
            if name != "fields" and isinstance(schema, dict):
                description = str(schema.get("description", ""))
                info = FieldInfo(name, str(schema.get("type", "string")), description)
                self._put(spec.name, (name,), info)

    def _put(self, tool: str, path: tuple[str, ...], info: FieldInfo, record: bool = False) -> None:
        ear: Ear = "code" if path == ("id",) else ear_of(info)
        if ear in ("date", "phone"):
            info = replace(info, kind=ear)
        elif info.kind in ("date", "phone"):
            info = replace(info, kind="string")
        self.targets[(tool, path)] = Target(tool, path, info, ear, record=record)

    def target(self, tool: str, path: tuple[str, ...]) -> Target:
        found = self.targets.get((tool, path))
        if found is None:
            info = FieldInfo(path[-1], "string", "")
            found = Target(tool, path, info, ear_of(info))
        return found

    def of_fact(self, fact_id: str) -> Target:
        """Where the outline writes a fact first (else the field named like its slot)."""
        for turn in self.outline.turns:
            for call in turn.calls:
                for arg in call.args:
                    if arg.source.kind == "fact" and arg.source.ref == fact_id:
                        return self.target(call.tool, arg.path)
        slot = self.outline.slot_of(fact_id)
        for key, target in self.targets.items():
            if key[1][-1] == slot:
                return target
        info = FieldInfo(slot, "string", "")
        return Target("", (slot,), info, ear_of(info))

    def of_field(self, name: str) -> Target | None:
        """The writing target of an artifact or record field by its name."""
        return next((t for k, t in self.targets.items() if k[1] == ("fields", name)), None)

    def learn_record(self, record: dict[str, Any]) -> None:
        """A record read: type the untyped (database) fields of the same names by its
        values."""
        for key, target in list(self.targets.items()):
            if not target.record:
                continue
            value = record.get(key[1][-1])
            if value is None:
                continue
            info = replace(target.info, kind=value_kind(value))
            lower = isinstance(value, str) and value == value.lower()
            ear = ear_of(info) if info.kind != "string" else ear_of(target.info)
            if ear == "list" and all(_is_name(v) for v in value):
                ear = "names"  # a record's list of people
            self.targets[key] = Target(target.tool, target.path, info, ear, lower, record=True)


__all__ = ["SPELLED_EARS", "Ear", "FieldBook", "Target", "ear_of"]
