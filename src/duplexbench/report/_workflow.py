"""Workflow tables of the report, computed from one run's typed index rows.

The functions are the scorer's, called over `WorkflowRow`s (which satisfy
`scoring/_outcomes.py`'s `WorkflowOutcome`): `item_runs` and `reliability` for
Pass@1, Pass@k, Reliable@k and AFA with their item-bootstrap intervals
(seeded with the run's seed, so they equal summary.json's), `floor_block`,
`correction_block` and `timing_block` for floor control, correction uptake
and timing, `attribution_block` for why fields were wrong. Rows come from
`index.sqlite`, so a report never re-reads the episode folders.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from duplexbench.campaign import WorkflowRow, query
from duplexbench.report._load import RunData
from duplexbench.scoring import (
    GATES,
    RESAMPLES,
    RepairScore,
    attribution_block,
    correction_block,
    exemption,
    floor_block,
    item_runs,
    provenance_block,
    reliability,
    repair_block,
    timing_block,
)

RATES = ("pass_at_1", "pass_at_k", "reliable_at_k", "afa")
MAX_PREDICTED = 3
"""Distinct agent values shown per missed field."""


def rnd(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else round(value, 6)


def rows(run: RunData) -> list[WorkflowRow]:
    return [e for e in run.episodes if isinstance(e, WorkflowRow)]


def valid(run: RunData) -> list[WorkflowRow]:
    return [e for e in rows(run) if e.status == "ok"]


def _mean(values: Sequence[float]) -> float | None:
    return rnd(sum(values) / len(values)) if values else None


def scorecard(run: RunData) -> dict[str, Any]:
    """Pass@1, Pass@k, Reliable@k, AFA (judge-assisted and deterministic) with CIs, tools, TTR."""
    ok = valid(run)
    main = reliability(item_runs(ok), seed=run.seed)
    det = reliability(item_runs(ok, deterministic=True), seed=run.seed)
    calls = [e.tool_calls for e in ok if e.tool_calls is not None]
    oracle = [e.oracle_tool_calls for e in ok if e.oracle_tool_calls is not None]
    timing = timing_block(ok)
    ci = {k: list(v) if v else None for k, v in main.ci95.items()}
    det_afa = det.ci95.get("afa")
    ci["afa_deterministic"] = list(det_afa) if det_afa else None
    return {
        **run.ident(),
        "k": run.repeats,
        "items": main.items,
        "runs": main.runs,
        "episodes": len(run.episodes),
        "errors": len(run.episodes) - len(ok),
        **{key: rnd(getattr(main, key)) for key in RATES},
        "afa_deterministic": rnd(det.afa),
        "fields_graded": sum(e.afa_total or 0 for e in ok),
        "deterministic": {key: rnd(getattr(det, key)) for key in RATES},
        "ci95": ci,
        "tool_calls_mean": _mean(calls),
        "oracle_tool_calls_mean": _mean(oracle),
        "tool_calls_per_oracle": rnd(sum(calls) / sum(oracle)) if sum(oracle) else None,
        "tool_efficiency": _mean([e.tool_efficiency for e in ok if e.tool_efficiency is not None]),
        "median_time_to_resolution_ms": timing["median_time_to_resolution_ms"],
        "resolved_runs": timing["resolved_runs"],
        "median_termination_ms_unsuccessful": timing["median_termination_ms_unsuccessful"],
        "unsupported_values": unsupported_values(run),
        "bootstrap": {"resamples": RESAMPLES, "seed": run.seed, "unit": "item"},
    }


def unsupported_values(run: RunData) -> dict[str, Any]:
    """The unsupported-value rate as summary.json has it, from each valid episode's
    `result.json` (`provenance`); an oracle or privileged run is exempt."""
    rows = query(run.path, "SELECT item_id, result_json FROM episodes WHERE status = 'ok'")
    per_item: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for row in rows:
        prov = json.loads(row["result_json"]).get("provenance")
        if isinstance(prov, dict):
            counts = (int(prov.get("unsupported") or 0), int(prov.get("correct") or 0))
            per_item[str(row["item_id"])].append(counts)
    exempt = exemption(run.agent, run.campaign.get("privileged") is True)
    return provenance_block(per_item, run.seed, exempt, RESAMPLES)


_WRONG_FIELD_CAUSES = (
    "SELECT json_extract(f.value, '$.cause') AS cause FROM episodes AS e, "
    "json_each(CASE WHEN json_valid(e.result_json) THEN e.result_json ELSE '{}' END, "
    "'$.fields') AS f WHERE e.status = 'ok' AND json_extract(f.value, '$.score') < 1"
)
_AUDIO_EPISODES = (
    "SELECT COUNT(*) AS n FROM episodes WHERE status = 'ok' AND json_valid(result_json) "
    "AND json_type(result_json, '$.interaction') = 'object'"
)


def attribution(run: RunData) -> dict[str, Any]:
    """Why the wrong fields of the valid episodes were wrong, as summary.json's
    `workflows.attribution` (the same `attribution_block`), from each `result.json`'s
    `fields[].cause`; the block is null when a wrong field has no cause (scored before
    failure attribution was recorded). SQLite reads the JSON: no result is parsed here."""
    causes = [row["cause"] for row in query(run.path, _WRONG_FIELD_CAUSES)]
    audio = bool(query(run.path, _AUDIO_EPISODES)[0]["n"])
    return {**run.ident(), "attribution": attribution_block(causes, audio)}


def gate_block(run: RunData) -> dict[str, Any]:
    """Gate pass rates, failures per gate, and episodes failing that gate alone."""
    ok = valid(run)
    rated = {g: [e.gates[g] for e in ok if g in e.gates] for g in GATES}
    only: dict[str, int] = dict.fromkeys(GATES, 0)
    for e in ok:
        failed = [g for g, passed in e.gates.items() if not passed]
        if len(failed) == 1:
            only[failed[0]] += 1
    av_det = [e.av_deterministic for e in ok if e.av_deterministic is not None]
    return {
        **run.ident(),
        "episodes": len(ok),
        "rates": {g: rnd(sum(v) / len(v)) if v else None for g, v in rated.items()},
        "failures": {g: sum(1 for x in v if not x) for g, v in rated.items()},
        "only_failure": only,
        "successes": sum(1 for e in ok if e.ws == 1),
        "av_deterministic": rnd(sum(av_det) / len(av_det)) if av_det else None,
    }


_REPAIRS = (
    "SELECT json_extract(result_json, '$.repairs') AS repairs FROM episodes "
    "WHERE status = 'ok' AND json_valid(result_json) "
    "AND json_type(result_json, '$.repairs') = 'object'"
)


def floor_rows(run: RunData) -> dict[str, Any]:
    """Floor control, correction uptake and repairs: `floor_block`, `correction_block`
    over the index rows (fields attached) and `repair_block` over each result's
    `repairs`, as in summary.json."""
    ok = valid(run)
    repairs = [RepairScore.model_validate_json(r["repairs"]) for r in query(run.path, _REPAIRS)]
    return {
        **run.ident(),
        "floor": floor_block(ok),
        "correction_uptake": correction_block(ok),
        "repairs": repair_block(repairs),
    }


def item_rows(run: RunData) -> list[dict[str, Any]]:
    """Per item: valid runs, successes, AFA, gate failures, and every repetition's folder."""
    per_item: dict[str, list[WorkflowRow]] = defaultdict(list)
    for e in rows(run):
        per_item[e.item_id].append(e)
    out = []
    for item_id, episodes in per_item.items():
        ok = [e for e in episodes if e.status == "ok"]
        info = run.items.get(item_id, {})
        total = sum(e.afa_total or 0 for e in ok)
        out.append(
            {
                **run.ident(),
                "item_id": item_id,
                "title": info.get("title", ""),
                "archetype": info.get("taxonomy", {}).get("work_archetype"),
                "runs": len(ok),
                "successes": sum(1 for e in ok if e.ws == 1),
                "pass_at_1": rnd(sum(1 for e in ok if e.ws == 1) / len(ok)) if ok else None,
                "afa": rnd(sum(e.afa_correct or 0 for e in ok) / total) if total else None,
                "errors": len(episodes) - len(ok),
                "gate_failures": {g: sum(1 for e in ok if e.gates.get(g) is False) for g in GATES},
                "episodes": [
                    {
                        "repetition": e.repetition,
                        "status": e.status,
                        "ws": e.ws,
                        "error": e.error,
                        "path": e.path,
                    }
                    for e in episodes
                ],
            }
        )
    return out


def field_misses(run: RunData) -> list[dict[str, Any]]:
    """Per item and field: how often the agent's value was wrong, gold vs agent values."""
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}
    paths = {(e.item_id, e.repetition): e.path for e in rows(run)}
    for f in (f for e in rows(run) for f in e.fields):
        key = (f.item_id, f.artifact, f.field)
        g = groups.get(key)
        if g is None:
            g = groups[key] = {
                **run.ident(),
                "item_id": f.item_id,
                "title": run.items.get(f.item_id, {}).get("title", ""),
                "artifact": f.artifact,
                "field": f.field,
                "grader": f.grader,
                "gold": _value(f.gold),
                "predicted": [],
                "runs": 0,
                "misses": 0,
                "missing": 0,
                "stale": 0,
                "judged": 0,
                "episodes": [],
            }
        g["runs"] += 1
        if f.score >= 1.0:
            continue
        g["misses"] += 1
        g["missing"] += f.missing
        g["stale"] += f.stale
        g["judged"] += f.judged is not None
        predicted = _value(f.predicted)
        if predicted not in g["predicted"] and len(g["predicted"]) < MAX_PREDICTED:
            g["predicted"].append(predicted)
        path = paths.get((f.item_id, f.repetition))
        g["episodes"].append({"repetition": f.repetition, "path": path})
    return [g for g in groups.values() if g["misses"]]


def _value(text: Any) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text


def frontier(cards: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Reliable@k against median time to resolution; Pareto points per (suite, condition).

    A point is on the Pareto set when no other run of the same suite and condition
    is at least as reliable and at least as fast, and strictly better in one.
    A run that resolved nothing has no time and is compared as infinitely slow.
    """
    points = []
    for card in cards:
        if card["reliable_at_k"] is None:
            continue
        ttr = card["median_time_to_resolution_ms"]
        points.append((card, ttr if ttr is not None else math.inf))
    out = []
    for card, ttr in points:
        rivals = [
            (c, t)
            for c, t in points
            if c["suite"] == card["suite"] and c["condition"] == card["condition"] and c is not card
        ]
        r = card["reliable_at_k"]
        dominated = any(
            c["reliable_at_k"] >= r and t <= ttr and (c["reliable_at_k"] > r or t < ttr)
            for c, t in rivals
        )
        out.append(
            {
                "run": card["run"],
                "suite": card["suite"],
                "agent": card["agent"],
                "condition": card["condition"],
                "reliable_at_k": r,
                "median_time_to_resolution_ms": card["median_time_to_resolution_ms"],
                "pareto": not dominated,
            }
        )
    return out
