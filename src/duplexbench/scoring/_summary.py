"""The summary JSON of one (suite, agent, condition) run (docs/metrics.md)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from duplexbench.scoring._attribution import attribution_block
from duplexbench.scoring._episode import GATES, EpisodeScore
from duplexbench.scoring._errors import errors_block
from duplexbench.scoring._floor_control import correction_block, floor_block, timing_block
from duplexbench.scoring._interaction.record import pooled_panel
from duplexbench.scoring._outcomes import item_runs
from duplexbench.scoring._reliability import RESAMPLES, reliability
from duplexbench.scoring._repairs import repair_block
from duplexbench.scoring._replay_check import is_tampered
from duplexbench.scoring._unsupported import provenance_block
from duplexbench.scoring._usage import Price, usage_block


def _rate(values: Sequence[bool]) -> float | None:
    return round(sum(values) / len(values), 6) if values else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def workflow_block(
    scores: Sequence[EpisodeScore], repeats: int, seed: int, exempt: str | None = None
) -> dict[str, Any]:
    """Workflow metrics over valid episodes, judge-assisted and deterministic-only;
    `exempt` names why the run has no unsupported-value rate (provenance.py)."""
    ok = [s for s in scores if s.status == "ok"]
    main = reliability(item_runs(ok), seed=seed)
    det = reliability(item_runs(ok, deterministic=True), seed=seed)
    efficiencies = [s.tool_efficiency for s in ok if s.tool_efficiency is not None]
    return {
        "k": repeats,
        "items": main.items,
        "runs": main.runs,
        "pass_at_1": _round(main.pass_at_1),
        "pass_at_k": _round(main.pass_at_k),
        "reliable_at_k": _round(main.reliable_at_k),
        "afa": _round(main.afa),
        "afa_deterministic": _round(det.afa),
        "fields_graded": sum(s.afa.total for s in ok if s.afa),
        "unsupported_values": unsupported_block(ok, seed, exempt),
        "attribution": run_attribution(ok),
        "gates": {g: _rate([s.gates[g] for s in ok]) for g in GATES},
        "k_of_n": {str(k): v for k, v in main.k_of_n.items()},
        "tool_efficiency": _round(sum(efficiencies) / len(efficiencies)) if efficiencies else None,
        "deterministic": {
            "pass_at_1": _round(det.pass_at_1),
            "pass_at_k": _round(det.pass_at_k),
            "reliable_at_k": _round(det.reliable_at_k),
            "afa": _round(det.afa),
            "AV": _rate([bool(s.av_deterministic) for s in ok]),
        },
        "ci95": {k: list(v) if v else None for k, v in main.ci95.items()},
        "correction_uptake": correction_block(scores),
        "timing": timing_block(scores),
        "bootstrap": {"resamples": RESAMPLES, "seed": seed, "unit": "item"},
    }


def run_attribution(scores: Sequence[EpisodeScore]) -> dict[str, Any] | None:
    """Why the wrong fields of the valid episodes were wrong (attribution.py); `misheard`
    only when the run is on the audio channel (its episodes have a speech timeline)."""
    ok = [s for s in scores if s.status == "ok"]
    causes = [f.cause for s in ok for f in s.fields if not f.correct]
    return attribution_block(causes, audio=any(s.interaction is not None for s in ok))


def unsupported_block(
    scores: Sequence[EpisodeScore], seed: int, exempt: str | None
) -> dict[str, Any]:
    """Unsupported correct values / correct values over the episodes with provenance."""
    per_item: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for s in scores:
        if s.provenance is not None:
            per_item[s.item_id].append((s.provenance.unsupported, s.provenance.correct))
    return provenance_block(per_item, seed, exempt, RESAMPLES)


def build_summary(
    scores: Sequence[EpisodeScore],
    *,
    suite: str,
    agent: str,
    condition: str,
    repeats: int,
    seed: int,
    judge: dict[str, Any] | None,
    price: Price | None = None,
    provenance_exempt: str | None = None,
) -> dict[str, Any]:
    return {
        "suite": suite,
        "agent": agent,
        "condition": condition,
        "episodes": len(scores),
        **errors_block(scores),  # agent errors scored as failures, harness errors left out
        "tampered": sum(is_tampered(s.agent_error or s.error) for s in scores),
        "judge": judge,
        "workflows": workflow_block(scores, repeats, seed, provenance_exempt),
        "floor": floor_block(scores),
        "repairs": repair_block([s.repairs for s in scores if s.status == "ok" and s.repairs]),
        "interaction": pooled_panel([s.interaction for s in scores if s.status == "ok"]),
        "usage": usage_block([s.usage for s in scores], price),
    }
