"""Workflow tables of the report, computed from one run's index rows.

The formulas are the scorer's: `scoring/reliability.py` for Pass@1, Pass@k,
Reliable@k and AFA with their item-bootstrap intervals (seeded with the
run's seed, so they equal summary.json's), `scoring/floor.py` for floor
control, correction uptake and timing. Rows come from `index.sqlite`, so a
report never re-reads the episode folders.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from duplexbench.campaign.store import query
from duplexbench.report.load import RunData
from duplexbench.scoring.episode import GATES, EpisodeScore
from duplexbench.scoring.floor import FloorScore, floor_block, timing_block
from duplexbench.scoring.reliability import RESAMPLES, ItemRuns, reliability
from duplexbench.scoring.unsupported import exemption, provenance_block
from duplexbench.scoring.usage import Usage

_NO_USAGE = Usage()
RATES = ("pass_at_1", "pass_at_k", "reliable_at_k", "afa")
MAX_PREDICTED = 3
"""Distinct agent values shown per missed field."""


def rnd(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else round(value, 6)


def valid(run: RunData) -> list[dict[str, Any]]:
    return [e for e in run.episodes if e["status"] == "ok"]


def _det(row: dict[str, Any], key: str, fallback: str) -> Any:
    value = row[key]
    return row[fallback] if value is None else value


def _item_runs(rows: Iterable[dict[str, Any]], deterministic: bool) -> dict[str, ItemRuns]:
    per_item: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        per_item[row["item_id"]].append(row)
    out = {}
    for item_id, runs in per_item.items():
        ws = [_det(r, "ws_deterministic", "ws") if deterministic else r["ws"] for r in runs]
        key = "afa_correct_deterministic" if deterministic else "afa_correct"
        correct = sum((_det(r, key, "afa_correct") or 0) for r in runs)
        total = sum((r["afa_total"] or 0) for r in runs)
        out[item_id] = ItemRuns([int(w or 0) for w in ws], correct, total)
    return out


def light_scores(run: RunData) -> list[EpisodeScore]:
    """Episode scores rebuilt from index rows, for `floor_block` and `timing_block`
    (without their fields: `correction_uptake` reads the field rows)."""
    scores = []
    for e in run.episodes:
        floor = None
        if e["agent_turns"] is not None:
            floor = FloorScore.model_construct(
                barge_ins=e["barge_ins"] or 0,
                yields=e["yields"] or 0,
                stop_latencies_ms=json.loads(e["stop_latencies_ms"] or "[]"),
                overlaps=e["overlaps"] or 0,
                unintended_overlaps=e["unintended_overlaps"] or 0,
                agent_turns=e["agent_turns"] or 0,
            )
        gates: dict[str, bool] = {
            g: bool(e[f"gate_{g.lower()}"]) for g in GATES if e[f"gate_{g.lower()}"] is not None
        }
        scores.append(
            EpisodeScore.model_construct(
                item_id=e["item_id"],
                repetition=e["repetition"],
                status=e["status"],
                error=e["error"],
                end_reason=e["end_reason"] or "",
                ws=e["ws"],
                ws_deterministic=e["ws_deterministic"],
                gates=gates,
                av_deterministic=None,
                afa=None,
                fields=[],
                checks=[],
                tool_calls=e["tool_calls"] or 0,
                oracle_tool_calls=e["oracle_tool_calls"] or 0,
                tool_efficiency=e["tool_efficiency"],
                blocked_actions=[],
                termination_ms=e["termination_ms"] or 0,
                time_to_resolution_ms=e["time_to_resolution_ms"],
                floor=floor,
                usage=_NO_USAGE,
                interaction=None,
            )
        )
    return scores


def _mean(values: Sequence[float]) -> float | None:
    return rnd(sum(values) / len(values)) if values else None


def scorecard(run: RunData, light: Sequence[EpisodeScore]) -> dict[str, Any]:
    """Pass@1, Pass@k, Reliable@k, AFA (judge-assisted and deterministic) with CIs, tools, TTR."""
    ok = valid(run)
    main = reliability(_item_runs(ok, False), seed=run.seed)
    det = reliability(_item_runs(ok, True), seed=run.seed)
    calls = [e["tool_calls"] for e in ok if e["tool_calls"] is not None]
    oracle = [e["oracle_tool_calls"] for e in ok if e["oracle_tool_calls"] is not None]
    timing = timing_block(light)
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
        "fields_graded": sum(e["afa_total"] or 0 for e in ok),
        "deterministic": {key: rnd(getattr(det, key)) for key in RATES},
        "ci95": ci,
        "tool_calls_mean": _mean(calls),
        "oracle_tool_calls_mean": _mean(oracle),
        "tool_calls_per_oracle": rnd(sum(calls) / sum(oracle)) if sum(oracle) else None,
        "tool_efficiency": _mean(
            [e["tool_efficiency"] for e in ok if e["tool_efficiency"] is not None]
        ),
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


def gate_block(run: RunData) -> dict[str, Any]:
    """Gate pass rates, failures per gate, and episodes failing that gate alone."""
    ok = valid(run)
    cols = {g: f"gate_{g.lower()}" for g in GATES}
    rated = {g: [e[c] for e in ok if e[c] is not None] for g, c in cols.items()}
    only = dict.fromkeys(GATES, 0)
    for e in ok:
        failed = [g for g, c in cols.items() if e[c] == 0]
        if len(failed) == 1:
            only[failed[0]] += 1
    av_det = [e["av_deterministic"] for e in ok if e["av_deterministic"] is not None]
    return {
        **run.ident(),
        "episodes": len(ok),
        "rates": {g: rnd(sum(v) / len(v)) if v else None for g, v in rated.items()},
        "failures": {g: sum(1 for x in v if x == 0) for g, v in rated.items()},
        "only_failure": only,
        "successes": sum(1 for e in ok if e["ws"] == 1),
        "av_deterministic": rnd(sum(av_det) / len(av_det)) if av_det else None,
    }


def floor_rows(run: RunData, light: Sequence[EpisodeScore]) -> dict[str, Any]:
    return {
        **run.ident(),
        "floor": floor_block(light),
        "correction_uptake": correction_uptake(run),
    }


def correction_uptake(run: RunData) -> dict[str, Any]:
    """`scoring/floor.py`'s `correction_block` over the index's field rows.

    AFA on fields whose user fact was corrected during the episode against the
    other fields (gap in points), and the share of Artifact Validity failures
    in which a corrected field is wrong.
    """
    ok = {(e["item_id"], e["repetition"]) for e in valid(run)}
    tally = {True: [0, 0], False: [0, 0]}  # correction-linked -> [correct, total]
    linked_wrong: set[tuple[str, int]] = set()
    for f in run.fields:
        key = (f["item_id"], f["repetition"])
        if key not in ok:
            continue
        is_linked, correct = bool(f["correction_linked"]), (f["score"] or 0.0) == 1.0
        tally[is_linked][0] += correct
        tally[is_linked][1] += 1
        if is_linked and not correct:
            linked_wrong.add(key)
    av_failed = [(e["item_id"], e["repetition"]) for e in valid(run) if e["gate_av"] == 0]
    linked = [k for k in av_failed if k in linked_wrong]
    afa_c = tally[True][0] / tally[True][1] if tally[True][1] else None
    afa_o = tally[False][0] / tally[False][1] if tally[False][1] else None
    gap = None if afa_c is None or afa_o is None else round(100 * (afa_o - afa_c), 2)
    return {
        "afa_corrected_fields": rnd(afa_c),
        "corrected_fields": tally[True][1],
        "afa_other_fields": rnd(afa_o),
        "other_fields": tally[False][1],
        "gap_points": gap,
        "av_failures": len(av_failed),
        "av_failures_correction_linked": len(linked),
        "correction_linked_share": rnd(len(linked) / len(av_failed)) if av_failed else None,
    }


def item_rows(run: RunData) -> list[dict[str, Any]]:
    """Per item: valid runs, successes, AFA, gate failures, and every repetition's folder."""
    per_item: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in run.episodes:
        per_item[e["item_id"]].append(e)
    rows = []
    for item_id, episodes in per_item.items():
        ok = [e for e in episodes if e["status"] == "ok"]
        info = run.items.get(item_id, {})
        total = sum(e["afa_total"] or 0 for e in ok)
        rows.append(
            {
                **run.ident(),
                "item_id": item_id,
                "title": info.get("title", ""),
                "archetype": info.get("taxonomy", {}).get("work_archetype"),
                "runs": len(ok),
                "successes": sum(1 for e in ok if e["ws"] == 1),
                "pass_at_1": rnd(sum(1 for e in ok if e["ws"] == 1) / len(ok)) if ok else None,
                "afa": rnd(sum(e["afa_correct"] or 0 for e in ok) / total) if total else None,
                "errors": len(episodes) - len(ok),
                "gate_failures": {
                    g: sum(1 for e in ok if e[f"gate_{g.lower()}"] == 0) for g in GATES
                },
                "episodes": [
                    {
                        "repetition": e["repetition"],
                        "status": e["status"],
                        "ws": e["ws"],
                        "error": e["error"],
                        "path": e["path"],
                    }
                    for e in episodes
                ],
            }
        )
    return rows


def field_misses(run: RunData) -> list[dict[str, Any]]:
    """Per item and field: how often the agent's value was wrong, gold vs agent values."""
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}
    paths = {(e["item_id"], e["repetition"]): e["path"] for e in run.episodes}
    for f in run.fields:
        key = (f["item_id"], f["artifact"] or "", f["field"] or "")
        g = groups.get(key)
        if g is None:
            g = groups[key] = {
                **run.ident(),
                "item_id": f["item_id"],
                "title": run.items.get(f["item_id"], {}).get("title", ""),
                "artifact": f["artifact"],
                "field": f["field"],
                "grader": f["grader"],
                "gold": _value(f["gold"]),
                "predicted": [],
                "runs": 0,
                "misses": 0,
                "missing": 0,
                "stale": 0,
                "judged": 0,
                "episodes": [],
            }
        g["runs"] += 1
        if (f["score"] or 0.0) >= 1.0:
            continue
        g["misses"] += 1
        g["missing"] += bool(f["missing"])
        g["stale"] += bool(f["stale"])
        g["judged"] += f["judged"] is not None
        predicted = _value(f["predicted"])
        if predicted not in g["predicted"] and len(g["predicted"]) < MAX_PREDICTED:
            g["predicted"].append(predicted)
        path = paths.get((f["item_id"], f["repetition"]))
        g["episodes"].append({"repetition": f["repetition"], "path": path})
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
