"""The per-run unsupported-value rate (docs/metrics.md, "Unsupported values").

Unsupported correct values / correct values over a run's valid episodes
(`provenance.py` finds them), with the item bootstrap interval AFA has; a run
whose agent reads the gold (the oracle, a privileged agent) is exempt.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np


def exemption(agent: str, privileged: bool | None) -> str | None:
    """Why a run is exempt from the unsupported-value rate: `oracle` (it plays the
    reference, which reads the gold), `privileged` (registered as seeing hidden item
    state), else None."""
    name = re.split(r"[:?]", agent.strip(), maxsplit=1)[0]
    if name == "oracle":
        return "oracle"
    return "privileged" if privileged else None


def provenance_block(
    per_item: dict[str, list[tuple[int, int]]],
    seed: int,
    exempt: str | None = None,
    resamples: int = 10_000,
) -> dict[str, Any]:
    """The run's unsupported-value rate (unsupported / correct values) with an item
    bootstrap interval (as AFA's); an exempt run reports its counts but no rate.

    `per_item` maps item id to (unsupported, correct) per valid episode.
    """
    names = sorted(per_item)
    bad = np.array([sum(u for u, _ in per_item[n]) for n in names], dtype=np.int64)
    good = np.array([sum(c for _, c in per_item[n]) for n in names], dtype=np.int64)
    block: dict[str, Any] = {
        "rate": None,
        "ci95": None,
        "unsupported": int(bad.sum()),
        "correct": int(good.sum()),
        "exempt": exempt,
        "label": f"exempt ({exempt})" if exempt else None,
    }
    if exempt or not names or good.sum() == 0:
        return block
    block["rate"] = round(float(bad.sum() / good.sum()), 6)
    idx = np.random.default_rng(seed).integers(0, len(names), size=(resamples, len(names)))
    with np.errstate(invalid="ignore", divide="ignore"):
        boot = bad[idx].sum(axis=-1) / good[idx].sum(axis=-1)
    finite = boot[np.isfinite(boot)]
    if finite.size:
        lo, hi = np.percentile(finite, [2.5, 97.5])
        block["ci95"] = [round(float(lo), 6), round(float(hi), 6)]
    return block
