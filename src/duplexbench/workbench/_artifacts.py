"""Versioned work artifacts: field writes and lifecycle transitions.

Lifecycle: empty -> draft (first write) -> ready (explicit, needs every
required field) -> committed (through an action tool only). Writing to a
ready artifact moves it back to draft; a committed artifact is frozen.
Each field write records which user fact version its value matches, so a
value superseded by a later correction can be found (stale-fact detection).
"""

from __future__ import annotations

import copy
from typing import Any, Protocol

from duplexbench.items import WorkflowItem
from duplexbench.trace import FieldSetData, LifecycleData, Recorder
from duplexbench.values import is_empty, values_match
from duplexbench.workbench._errors import ToolFailure
from duplexbench.workbench._state import WorkbenchState


class EffectSink(Protocol):
    """What artifact operations need of the workbench that owns them.

    The episode's state (read), its recorder (each write and transition is
    emitted as an event) and `emit_effect`, which applies an emitted event to
    the state. `Workbench` is one; naming it here would make a cycle.
    """

    state: WorkbenchState
    recorder: Recorder

    def emit_effect(self, event: Any) -> None: ...


class ArtifactOps:
    """Field writes and lifecycle transitions of one item's artifacts."""

    def __init__(self, item: WorkflowItem, bench: EffectSink) -> None:
        self.item = item
        self.bench = bench

    def _state(self, artifact_id: str) -> Any:
        return self.bench.state.artifacts[artifact_id]

    def _lifecycle(self, call_id: str, artifact_id: str, new: str, t_ms: int) -> None:
        old = self._state(artifact_id).lifecycle
        if old != new:
            data = LifecycleData(artifact=artifact_id, old=old, new=new, call_id=call_id)
            self.bench.emit_effect(self.bench.recorder.emit(t_ms, data))

    def fact_version(self, artifact_id: str, field: str, value: Any) -> str | None:
        """The latest user fact version linked to this field whose value matches."""
        artifact = self.item.artifact(artifact_id)
        spec = artifact.field(field) if artifact else None
        if spec is None:
            return None
        grader = spec.grader_spec()
        ref = f"{artifact_id}.{field}"
        match = None
        for fact in self.item.user.facts:
            if fact.field == ref and values_match(grader, value, fact.value):
                match = fact.id
        return match

    def update(self, call_id: str, artifact_id: str, fields: dict[str, Any], t_ms: int) -> Any:
        state = self._state(artifact_id)
        if state.lifecycle == "committed":
            raise ToolFailure("lifecycle", f"{artifact_id} is committed and can no longer change")
        for name in sorted(fields):
            data = FieldSetData(
                artifact=artifact_id,
                field=name,
                old=copy.deepcopy(state.fields.get(name)),
                new=copy.deepcopy(fields[name]),
                fact_version=self.fact_version(artifact_id, name, fields[name]),
                call_id=call_id,
            )
            self.bench.emit_effect(self.bench.recorder.emit(t_ms, data))
        if state.lifecycle in ("empty", "ready"):
            self._lifecycle(call_id, artifact_id, "draft", t_ms)
        return {
            "artifact": artifact_id,
            "lifecycle": state.lifecycle,
            "updated": sorted(fields),
            "fields": copy.deepcopy(state.fields),
        }

    def missing_required(self, artifact_id: str) -> list[str]:
        artifact = self.item.artifact(artifact_id)
        values = self._state(artifact_id).fields
        return [
            f.name
            for f in (artifact.fields if artifact else [])
            if f.required and is_empty(values.get(f.name))
        ]

    def transition(self, call_id: str, artifact_id: str, to_state: str, t_ms: int) -> Any:
        state = self._state(artifact_id)
        if state.lifecycle == "committed":
            raise ToolFailure("lifecycle", f"{artifact_id} is committed and can no longer change")
        if state.lifecycle == "empty":
            raise ToolFailure("lifecycle", f"{artifact_id} is empty; write its fields first")
        if to_state == "ready":
            missing = self.missing_required(artifact_id)
            if missing:
                raise ToolFailure(
                    "missing_fields", f"{artifact_id} cannot be ready; missing: {missing}"
                )
        self._lifecycle(call_id, artifact_id, to_state, t_ms)
        return {"artifact": artifact_id, "lifecycle": state.lifecycle}

    def check_committable(self, artifact_id: str) -> None:
        lifecycle = self._state(artifact_id).lifecycle
        if lifecycle != "ready":
            raise ToolFailure(
                "lifecycle", f"{artifact_id} is {lifecycle}; only a ready artifact can be committed"
            )

    def commit(self, call_id: str, artifact_id: str, t_ms: int) -> None:
        self._lifecycle(call_id, artifact_id, "committed", t_ms)
