"""A human run beside a simulated run of the same items and agent (docs/human-caller.md).

A human run (`user: human` in campaign.json, made by `duplexbench call`) is never
pooled with a simulated one: it is set beside each simulated workflow run of the
same suite and agent, over the items both ran. Per item: the person's call (WS,
AFA) and the simulated run's (pass rate over its repetitions, mean AFA), and
whether the two verdicts agree, the simulated verdict being "passed in at least
half of its repetitions". Then the agreement rate with its 95% interval (a
percentile bootstrap over items, seeded as the run is) and the items where the
verdicts differ: the ones to listen to. Episodes with a harness error (a dropped
call, say) are left out on both sides, as in every rate.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from duplexbench.campaign import WorkflowRow
from duplexbench.report import _workflow as wf
from duplexbench.report._load import RunData
from duplexbench.scoring import RESAMPLES

SIMULATED_PASS = 0.5
"""A simulated item passes when at least this share of its repetitions did."""


def is_human(run: RunData) -> bool:
    return run.campaign.get("user") == "human"


def human_vs_simulated(runs: list[RunData]) -> list[dict[str, Any]]:
    """One block per (human run, simulated run of the same suite and agent)."""
    workflow = [r for r in runs if r.family == "workflow"]
    humans = [r for r in workflow if is_human(r)]
    out = []
    for human in humans:
        for simulated in workflow:
            if is_human(simulated) or (simulated.suite, simulated.agent) != (
                human.suite,
                human.agent,
            ):
                continue
            out.append(_pair(human, simulated))
    return out


def _by_item(run: RunData) -> dict[str, list[WorkflowRow]]:
    rows: dict[str, list[WorkflowRow]] = defaultdict(list)
    for row in wf.valid(run):
        if row.ws is not None:
            rows[row.item_id].append(row)
    return rows


def _afa(rows: list[WorkflowRow]) -> float | None:
    shares = [
        r.afa_correct / r.afa_total for r in rows if r.afa_correct is not None and r.afa_total
    ]
    return wf.rnd(sum(shares) / len(shares)) if shares else None


def _pair(human: RunData, simulated: RunData) -> dict[str, Any]:
    people, models = _by_item(human), _by_item(simulated)
    items = []
    for item_id in sorted(set(people) & set(models)):
        rate = sum(bool(r.ws) for r in models[item_id]) / len(models[item_id])
        human_pass = any(bool(r.ws) for r in people[item_id])
        items.append(
            {
                "item_id": item_id,
                "human_ws": int(human_pass),
                "simulated_ws": wf.rnd(rate),
                "simulated_repetitions": len(models[item_id]),
                "human_afa": _afa(people[item_id]),
                "simulated_afa": _afa(models[item_id]),
                "agree": human_pass == (rate >= SIMULATED_PASS),
            }
        )
    agree = [bool(i["agree"]) for i in items]
    return {
        "suite": human.suite,
        "agent": human.agent,
        "human": human.label,
        "simulated": simulated.label,
        "items": items,
        "n": len(items),
        "agreement": wf.rnd(sum(agree) / len(agree)) if agree else None,
        "agreement_ci95": _interval(agree, simulated.seed),
        "differ": [i["item_id"] for i in items if not i["agree"]],
        "only_human": sorted(set(people) - set(models)),
    }


def _interval(agree: list[bool], seed: int) -> list[float] | None:
    """95% percentile bootstrap interval of the agreement rate over items."""
    if len(agree) < 2:
        return None
    values = np.array(agree, dtype=float)
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, len(values), (RESAMPLES, len(values)))].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return [round(float(lo), 6), round(float(hi), 6)]
