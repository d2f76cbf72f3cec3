"""The tables of `RUN_DIR/index.sqlite` and the rows one `result.json` becomes.

Rows are built from the JSON form of a score (a parsed `result.json`, or
`EpisodeScore` / `ActionScore` dumped), so a result written by an older
duplexbench with fewer keys still indexes: a missing key is a NULL column.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any

SCHEMA_VERSION = "2"
"""2: `ended_naturally` added (an index of version 1 is rebuilt when opened)."""

KEY = ("agent", "condition", "item_id", "repetition")

# (column, SQL type); the order is the table's and the CSV export's.
EPISODE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("agent", "TEXT NOT NULL"),
    ("condition", "TEXT NOT NULL"),
    ("item_id", "TEXT NOT NULL"),
    ("repetition", "INTEGER NOT NULL"),
    ("suite", "TEXT"),
    ("family", "TEXT"),
    ("status", "TEXT"),
    ("error", "TEXT"),
    ("end_reason", "TEXT"),
    ("ws", "INTEGER"),
    ("ws_deterministic", "INTEGER"),
    ("gate_ts", "INTEGER"),
    ("gate_pv", "INTEGER"),
    ("gate_ac", "INTEGER"),
    ("gate_av", "INTEGER"),
    ("av_deterministic", "INTEGER"),
    ("afa_correct", "INTEGER"),
    ("afa_correct_deterministic", "INTEGER"),
    ("afa_total", "INTEGER"),
    ("tool_calls", "INTEGER"),
    ("oracle_tool_calls", "INTEGER"),
    ("tool_efficiency", "REAL"),
    ("blocked_actions", "INTEGER"),
    ("time_to_resolution_ms", "INTEGER"),
    ("termination_ms", "INTEGER"),
    ("barge_ins", "INTEGER"),
    ("yields", "INTEGER"),
    ("ended_naturally", "INTEGER"),
    ("stop_latencies_ms", "TEXT"),
    ("overlaps", "INTEGER"),
    ("unintended_overlaps", "INTEGER"),
    ("agent_turns", "INTEGER"),
    ("action", "TEXT"),
    ("scenario", "TEXT"),
    ("action_condition", "TEXT"),
    ("immediate", "INTEGER"),
    ("immediate_reason", "TEXT"),
    ("follow_through", "INTEGER"),
    ("follow_through_reason", "TEXT"),
    ("follow_through_source", "TEXT"),
    ("heuristic_follow_through", "INTEGER"),
    ("judge_follow_through", "INTEGER"),
    ("timing_ms", "INTEGER"),
    ("cue_forced", "INTEGER"),
    ("transcribed", "INTEGER"),
    ("fdb", "TEXT"),
    ("path", "TEXT NOT NULL"),
    ("result_mtime_ns", "INTEGER"),
    ("result_size", "INTEGER"),
    ("result_json", "TEXT NOT NULL"),
)
FIELD_COLUMNS: tuple[tuple[str, str], ...] = (
    ("agent", "TEXT NOT NULL"),
    ("condition", "TEXT NOT NULL"),
    ("item_id", "TEXT NOT NULL"),
    ("repetition", "INTEGER NOT NULL"),
    ("position", "INTEGER NOT NULL"),
    ("artifact", "TEXT"),
    ("field", "TEXT"),
    ("grader", "TEXT"),
    ("gold", "TEXT"),
    ("predicted", "TEXT"),
    ("score", "REAL"),
    ("deterministic_score", "REAL"),
    ("judged", "INTEGER"),
    ("stale", "INTEGER"),
    ("missing", "INTEGER"),
    ("required", "INTEGER"),
    ("correction_linked", "INTEGER"),
)
RUN_COLUMNS: tuple[tuple[str, str], ...] = (
    ("agent", "TEXT NOT NULL"),
    ("condition", "TEXT NOT NULL"),
    ("suite", "TEXT"),
    ("family", "TEXT"),
    ("suite_version", "TEXT"),
    ("repeats", "INTEGER"),
    ("seed", "INTEGER"),
    ("duplexbench_version", "TEXT"),
    ("judge_model", "TEXT"),
    ("campaign_json", "TEXT NOT NULL"),
)
EXPORT_COLUMNS = tuple(
    c for c, _ in EPISODE_COLUMNS if c not in ("result_json", "result_mtime_ns", "result_size")
)


def _table(name: str, columns: tuple[tuple[str, str], ...], key: tuple[str, ...]) -> str:
    cols = ", ".join(f"{c} {t}" for c, t in columns)
    return f"CREATE TABLE IF NOT EXISTS {name} ({cols}, PRIMARY KEY ({', '.join(key)}))"


DDL: tuple[str, ...] = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)",
    _table("runs", RUN_COLUMNS, ("agent", "condition")),
    _table("episodes", EPISODE_COLUMNS, KEY),
    _table("fields", FIELD_COLUMNS, (*KEY, "position")),
    "CREATE INDEX IF NOT EXISTS episodes_path ON episodes (path)",
)
TABLES = ("meta", "runs", "episodes", "fields")


def insert_sql(table: str, columns: tuple[tuple[str, str], ...]) -> str:
    names = [c for c, _ in columns]
    marks = ", ".join("?" for _ in names)
    return f"INSERT OR REPLACE INTO {table} ({', '.join(names)}) VALUES ({marks})"


def _flag(value: Any) -> int | None:
    return None if value is None else int(bool(value))


_SQLITE_INT = (-(2**63), 2**63 - 1)


def _int(value: Any) -> int | None:
    """An SQLite INTEGER, or None (not a number, NaN/inf, or out of SQLite's range)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, int | float):
        number = int(value)
        return number if _SQLITE_INT[0] <= number <= _SQLITE_INT[1] else None
    return None


def _num(value: Any) -> float | None:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        return float(value)
    except OverflowError:  # an integer too large for a double
        return None


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


_ENCODE = json.JSONEncoder(ensure_ascii=False, sort_keys=True).encode


def _json(value: Any) -> str | None:
    return None if value is None else _ENCODE(value)


def _dict(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def workflow_columns(data: Mapping[str, Any]) -> dict[str, Any]:
    gates = _dict(data.get("gates"))
    afa = _dict(data.get("afa"))
    floor = _dict(data.get("floor"))
    blocked = data.get("blocked_actions")
    return {
        "end_reason": _text(data.get("end_reason")),
        "ws": _int(data.get("ws")),
        "ws_deterministic": _int(data.get("ws_deterministic")),
        **{f"gate_{g.lower()}": _flag(gates.get(g)) for g in ("TS", "PV", "AC", "AV")},
        "av_deterministic": _flag(data.get("av_deterministic")),
        "afa_correct": _int(afa.get("correct")),
        "afa_correct_deterministic": _int(afa.get("correct_deterministic")),
        "afa_total": _int(afa.get("total")),
        "tool_calls": _int(data.get("tool_calls")),
        "oracle_tool_calls": _int(data.get("oracle_tool_calls")),
        "tool_efficiency": _num(data.get("tool_efficiency")),
        "blocked_actions": len(blocked) if isinstance(blocked, list) else None,
        "time_to_resolution_ms": _int(data.get("time_to_resolution_ms")),
        "termination_ms": _int(data.get("termination_ms")),
        "barge_ins": _int(floor.get("barge_ins")) if floor else None,
        "yields": _int(floor.get("yields")) if floor else None,
        "ended_naturally": _int(floor.get("ended_naturally")) if floor else None,
        "stop_latencies_ms": _json(floor.get("stop_latencies_ms")) if floor else None,
        "overlaps": _int(floor.get("overlaps")) if floor else None,
        "unintended_overlaps": _int(floor.get("unintended_overlaps")) if floor else None,
        "agent_turns": _int(floor.get("agent_turns")) if floor else None,
    }


def action_columns(data: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "action": _text(data.get("action")),
        "scenario": _text(data.get("scenario")),
        "action_condition": _text(data.get("condition")),
        "immediate": _flag(data.get("immediate")),
        "immediate_reason": _text(data.get("immediate_reason")),
        "follow_through": _flag(data.get("follow_through")),
        "follow_through_reason": _text(data.get("follow_through_reason")),
        "follow_through_source": _text(data.get("follow_through_source")),
        "heuristic_follow_through": _flag(data.get("heuristic_follow_through")),
        "judge_follow_through": _flag(data.get("judge_follow_through")),
        "timing_ms": _int(data.get("timing_ms")),
        "cue_forced": _flag(data.get("cue_forced")),
        "transcribed": _flag(data.get("transcribed")),
        "fdb": _json(data.get("fdb")),
    }


_COLUMNS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "workflow": workflow_columns,
    "action": action_columns,
}
"""The family-specific columns of an episode row, by item family."""


def episode_row(
    run: Mapping[str, Any],
    path: str,
    data: Mapping[str, Any],
    text: str,
    stat: tuple[int, int] | None,
) -> dict[str, Any]:
    """Every column of one episode; `run` gives agent, condition, suite and family."""
    family = str(run.get("family") or "workflow")
    row: dict[str, Any] = dict.fromkeys(c for c, _ in EPISODE_COLUMNS)
    row.update(
        agent=str(run["agent"]),
        condition=str(run["condition"]),
        item_id=str(data.get("item_id", "")),
        repetition=_int(data.get("repetition")) or 0,
        suite=_text(run.get("suite")),
        family=family,
        status=_text(data.get("status")),
        error=_text(data.get("error")),
        path=path,
        result_mtime_ns=None if stat is None else stat[0],
        result_size=None if stat is None else stat[1],
        result_json=text,
    )
    row.update(_COLUMNS.get(family, workflow_columns)(data))
    return row


def field_rows(key: tuple[str, str, str, int], data: Mapping[str, Any]) -> list[tuple[Any, ...]]:
    """One row per graded field of a workflow result, in FIELD_COLUMNS order."""
    fields = data.get("fields")
    rows: list[tuple[Any, ...]] = []
    for position, f in enumerate(fields if isinstance(fields, list) else []):
        if not isinstance(f, Mapping):
            continue
        rows.append(
            (
                *key,
                position,
                _text(f.get("artifact")),
                _text(f.get("field")),
                _text(f.get("grader")),
                _json(f.get("gold")),
                _json(f.get("predicted")),
                _num(f.get("score")),
                _num(f.get("deterministic_score")),
                _flag(f.get("judged")),
                _flag(f.get("stale")),
                _flag(f.get("missing")),
                _flag(f.get("required")),
                _flag(f.get("correction_linked")),
            )
        )
    return rows


def run_row(campaign: Mapping[str, Any], text: str) -> tuple[Any, ...]:
    judge = _dict(campaign.get("judge"))
    return (
        str(campaign["agent"]),
        str(campaign["condition"]),
        _text(campaign.get("suite")),
        str(campaign.get("family") or "workflow"),
        _text(campaign.get("suite_version")),
        _int(campaign.get("repeats")),
        _int(campaign.get("seed")),
        _text(campaign.get("duplexbench_version")),
        _text(judge.get("model")),
        text,
    )
