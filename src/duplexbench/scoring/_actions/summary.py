"""The actions block of the summary JSON (docs/actions.md, Scoring).

Per action (and per condition, and per scenario × action):

- `immediate` I = immediate successes / applicable trials, micro-averaged
  over the action's conditions (pooled trials); `n` = applicable trials,
  `n_na` = trials where the rule did not apply (e.g. Stop with the agent
  silent at cue onset), left out of I.
- `subsequent` S = follow-throughs / immediate successes with a
  deterministic verdict (the rule for Stop, the offline heuristic for the
  rest); `n_s` = that denominator; `follow_through_failure` = 1 − S.
- `subsequent_judge`, `n_s_judge`, `follow_through_failure_judge`: the same
  over immediate successes with a judge verdict, present only when some
  judge verdict exists; never mixed with the deterministic S.
- Timing diagnostics (ms, median / q1 / q3 / n over immediate successes):
  yield latency (stop), recovery latency (recover), interruption timing
  difference (interrupt).

Episodes with status "error" (harness errors) are counted (`errors`) and
left out; an episode the agent ended with an error is a trial whose
immediate execution failed (`agent_error`; docs/metrics.md, "Errors").
Rates are fractions in [0, 1] rounded to 6 places.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from duplexbench.items import ACTIONS, CONDITION_IDS
from duplexbench.scoring._actions.fdb import TOR_BETTER
from duplexbench.scoring._outcomes import ActionOutcome

TIMING: dict[str, str] = {
    "stop": "yield_latency_ms",
    "recover": "recovery_latency_ms",
    "interrupt": "interruption_timing_difference_ms",
}


def _rate(hits: int, n: int) -> float | None:
    return round(hits / n, 6) if n else None


def _quartiles(values: Sequence[float]) -> dict[str, Any]:
    if not values:
        return {"median": None, "q1": None, "q3": None, "n": 0}
    q1, median, q3 = np.percentile(np.asarray(values, dtype=float), [25, 50, 75])
    return {
        "median": round(float(median), 6),
        "q1": round(float(q1), 6),
        "q3": round(float(q3), 6),
        "n": len(values),
    }


def rates(scores: Iterable[ActionOutcome]) -> dict[str, Any]:
    """I and S (deterministic, and judge when present) over valid episodes."""
    ok = [s for s in scores if s.status == "ok"]
    applicable = [s for s in ok if s.immediate is not None]
    successes = [s for s in applicable if s.immediate]
    det = [v for v in (s.deterministic_follow_through for s in successes) if v is not None]
    out: dict[str, Any] = {
        "immediate": _rate(len(successes), len(applicable)),
        "n": len(applicable),
        "n_na": len(ok) - len(applicable),
        "subsequent": _rate(sum(det), len(det)),
        "n_s": len(det),
    }
    s = out["subsequent"]
    out["follow_through_failure"] = None if s is None else round(1 - s, 6)
    judged = [s.judge_follow_through for s in successes if s.judge_follow_through is not None]
    if judged:
        sj = _rate(sum(judged), len(judged))
        assert sj is not None
        out["subsequent_judge"] = sj
        out["n_s_judge"] = len(judged)
        out["follow_through_failure_judge"] = round(1 - sj, 6)
    return out


def _numbers(group: Sequence[ActionOutcome], key: str) -> list[float]:
    values = (s.fdb.get(key) for s in group)
    return [float(v) for v in values if isinstance(v, int | float) and not isinstance(v, bool)]


def _fdb_block(ok: Sequence[ActionOutcome]) -> dict[str, Any]:
    tasks: dict[str, list[ActionOutcome]] = defaultdict(list)
    for s in ok:
        task = s.fdb.get("task")
        if isinstance(task, str):
            tasks[task].append(s)
    out: dict[str, Any] = {}
    for task in sorted(tasks):
        group = tasks[task]
        tor = [float(s.fdb["tor"] or 0) for s in group]
        block: dict[str, Any] = {
            "n": len(group),
            "tor": _rate(int(sum(tor)), len(tor)),
            "tor_better": TOR_BETTER.get(task),
        }
        latencies = _numbers(group, "latency_ms")
        if task in ("smooth_turn_taking", "user_interruption"):
            mean = round(sum(latencies) / len(latencies), 6) if latencies else None
            block["latency_ms"] = {**_quartiles(latencies), "mean": mean}
        freqs = _numbers(group, "backchannel_per_s")
        if task == "backchannel":
            block["backchannel_per_s"] = round(sum(freqs) / len(freqs), 6) if freqs else None
        out[task] = block
    return out


def action_block(scores: Sequence[ActionOutcome]) -> dict[str, Any]:
    """The JSON-ready actions block of a run's summary."""
    ok = [s for s in scores if s.status == "ok"]
    actions: dict[str, Any] = {}
    for action in ACTIONS:
        mine = [s for s in scores if s.action == action]
        if not mine:
            continue
        block = rates(mine)
        block["errors"] = sum(s.status == "error" for s in mine)
        if action in TIMING:
            timings = [
                float(s.timing_ms)
                for s in mine
                if s.status == "ok" and s.immediate and s.timing_ms is not None
            ]
            block[TIMING[action]] = _quartiles(timings)
        actions[action] = block
    conditions = {
        c: {**rates(group), "errors": sum(s.status == "error" for s in group)}
        for c in CONDITION_IDS
        if (group := [s for s in scores if s.action_condition == c])
    }
    scenarios: dict[str, dict[str, Any]] = defaultdict(dict)
    for scenario in sorted({s.scenario for s in ok}):
        for action in ACTIONS:
            group = [s for s in ok if s.scenario == scenario and s.action == action]
            if group:
                r = rates(group)
                keep = ("immediate", "n", "subsequent", "n_s", "subsequent_judge", "n_s_judge")
                scenarios[scenario][action] = {k: r[k] for k in keep if k in r}
    return {
        "episodes": len(scores),
        "errors": len(scores) - len(ok),
        "per_action": actions,
        "per_condition": conditions,
        "by_scenario": dict(scenarios),
        "cues_forced": sum(s.cue_forced for s in ok),
        "asr_transcribed": sum(s.transcribed for s in ok),
        "fdb_v1": _fdb_block(ok),
    }
