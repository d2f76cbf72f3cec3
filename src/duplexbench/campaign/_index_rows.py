"""Typed rows of a run's index (`index.sqlite`), as the report reads them.

`WorkflowRow` and `ActionRow` validate an `episodes` row (the headline columns,
not the result text) and present it the way scoring reads a score: they
satisfy `scoring/_outcomes.py`'s `WorkflowOutcome` and `ActionOutcome`, so the
report computes its scorecards with the summary's own functions over them.
`episode_rows(run_dir, family)` reads them; SQLite's NULL (a key the result
did not have) becomes the field's default in the query itself (`COALESCE`):
None where the score allows none, else the score's own default (0, "",
False). Columns: `store_rows.py`; docs/report.md, "The results store".
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from duplexbench.campaign._store import StoreError, query
from duplexbench.scoring import GATES, Afa, FloorScore, deterministic_verdict, field_correct


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ATTACHED: ClassVar[frozenset[str]] = frozenset()
    """Fields that are not columns (attached by the reader)."""
    FALLBACK: ClassVar[dict[str, str]] = {}
    """Column -> the column read in its place where it is NULL."""

    @classmethod
    def columns(cls) -> tuple[str, ...]:
        """The index columns this row reads."""
        return tuple(f.alias or n for n, f in cls.model_fields.items() if n not in cls.ATTACHED)

    @classmethod
    def select_list(cls) -> str:
        """The SELECT list: each column, NULL replaced by the field's default when
        the field does not allow None."""
        out = []
        for name, f in cls.model_fields.items():
            column = f.alias or name
            if name in cls.ATTACHED:
                continue
            if column in cls.FALLBACK:
                out.append(f"COALESCE({column}, {cls.FALLBACK[column]}) AS {column}")
            elif f.is_required() or f.default is None:
                out.append(column)
            else:
                out.append(f"COALESCE({column}, {_literal(f.default)}) AS {column}")
        return ", ".join(out)


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int | float):
        return repr(value)
    return "'" + str(value).replace("'", "''") + "'"


class FieldRow(_Row):
    """One graded field of a workflow episode (`fields` table)."""

    agent: str
    condition: str
    item_id: str
    repetition: int
    position: int
    artifact: str = ""
    field: str = ""
    grader: str = ""
    gold: str | None = Field(None, description="JSON text.")
    predicted: str | None = Field(None, description="JSON text.")
    score: float = 0.0
    deterministic_score: float = 0.0
    judged: bool | None = None
    stale: bool = False
    missing: bool = False
    required: bool = True
    correction_linked: bool = False

    @property
    def correct(self) -> bool:
        return field_correct(self.score)


class EpisodeRow(_Row):
    """The columns every episode has."""

    agent: str
    condition: str
    item_id: str
    repetition: int
    suite: str | None = None
    family: Literal["workflow", "action"] = "workflow"
    status: str = Field("", description="`ok` or `error`; empty when the result had none.")
    error: str | None = None
    path: str


class WorkflowRow(EpisodeRow):
    end_reason: str = ""
    ws: int | None = None
    ws_deterministic: int | None = None
    gate_ts: bool | None = None
    gate_pv: bool | None = None
    gate_ac: bool | None = None
    gate_av: bool | None = None
    av_deterministic: bool | None = None
    afa_correct: int | None = None
    afa_correct_deterministic: int | None = None
    afa_total: int | None = None
    tool_calls: int | None = None
    oracle_tool_calls: int | None = None
    tool_efficiency: float | None = None
    blocked_actions: int | None = None
    time_to_resolution_ms: int | None = None
    termination_ms: int | None = None
    barge_ins: int | None = None
    yields: int | None = None
    ended_naturally: int | None = None
    stop_latencies_ms: str | None = Field(None, description="JSON list.")
    overlaps: int | None = None
    unintended_overlaps: int | None = None
    agent_turns: int | None = None
    fields: tuple[FieldRow, ...] = ()
    """The episode's graded fields (attached from the `fields` table)."""

    ATTACHED: ClassVar[frozenset[str]] = frozenset({"fields"})
    FALLBACK: ClassVar[dict[str, str]] = {
        "ws_deterministic": "ws",
        "afa_correct_deterministic": "afa_correct",
    }
    """A result written before the deterministic tier has only the judge-assisted
    numbers; they stand for both (as the report has always read such runs)."""

    @property
    def gates(self) -> dict[str, bool]:
        values = (self.gate_ts, self.gate_pv, self.gate_ac, self.gate_av)
        return {g: v for g, v in zip(GATES, values, strict=True) if v is not None}

    @property
    def afa(self) -> Afa | None:
        if self.afa_total is None:
            return None
        return Afa(
            correct=self.afa_correct or 0,
            correct_deterministic=self.afa_correct_deterministic or 0,
            total=self.afa_total,
        )

    @property
    def floor(self) -> FloorScore | None:
        """None for an episode without audio (no floor was measured)."""
        if self.agent_turns is None:
            return None
        return FloorScore(
            barge_ins=self.barge_ins or 0,
            yields=self.yields or 0,
            ended_naturally=self.ended_naturally or 0,
            stop_latencies_ms=json.loads(self.stop_latencies_ms or "[]"),
            overlaps=self.overlaps or 0,
            unintended_overlaps=self.unintended_overlaps or 0,
            agent_turns=self.agent_turns,
        )


class ActionRow(EpisodeRow):
    action: str = ""
    scenario: str = ""
    action_condition: str = ""
    immediate: bool | None = None
    immediate_reason: str = ""
    follow_through: bool | None = None
    follow_through_reason: str = ""
    follow_through_source: str | None = None
    heuristic_follow_through: bool | None = None
    judge_follow_through: bool | None = None
    timing_ms: int | None = None
    cue_forced: bool = False
    transcribed: bool = False
    fdb_json: str | None = Field(None, alias="fdb", description="JSON object.")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @property
    def deterministic_follow_through(self) -> bool | None:
        return deterministic_verdict(
            self.follow_through_source, self.follow_through, self.heuristic_follow_through
        )

    @property
    def fdb(self) -> dict[str, float | int | str | None]:
        value = json.loads(self.fdb_json or "{}")
        return value if isinstance(value, dict) else {}


ROW_TYPES: dict[str, type[EpisodeRow]] = {"workflow": WorkflowRow, "action": ActionRow}
"""The typed row of each item family."""

_FIELDS = TypeAdapter(list[FieldRow])


def _fields(run_dir: Path) -> dict[tuple[str, int], tuple[FieldRow, ...]]:
    sql = f"SELECT {FieldRow.select_list()} FROM fields ORDER BY item_id, repetition, position"
    grouped: dict[tuple[str, int], list[FieldRow]] = defaultdict(list)
    for f in _FIELDS.validate_python(query(run_dir, sql)):
        grouped[(f.item_id, f.repetition)].append(f)
    return {key: tuple(rows) for key, rows in grouped.items()}


def episode_rows(run_dir: Path, family: str) -> list[EpisodeRow]:
    """The run's episodes as typed rows in (item, repetition) order; a workflow
    row carries its graded fields. Raises StoreError on a row this version
    cannot read."""
    model = ROW_TYPES.get(family, WorkflowRow)
    sql = f"SELECT {model.select_list()} FROM episodes ORDER BY item_id, repetition"
    try:
        rows = query(run_dir, sql)
        if model is WorkflowRow:
            fields = _fields(run_dir)
            for row in rows:
                row["fields"] = fields.get((row["item_id"], row["repetition"]), ())
        return [model.model_validate(row) for row in rows]
    except ValidationError as exc:
        raise StoreError(f"{run_dir}: an index row this version cannot read: {exc}") from None
