"""The results store and the report on 10,000 episodes (reported, never asserted).

Target: `duplexbench report` over a 10,000-episode run directory (index
built from the folders, analysis, HTML) in under 30 s.

    python benchmarks/report.py [--items 400] [--repeats 25] [--keep DIR]

Builds a synthetic run directory (the workflows-mini items cloned into
`--items` items with random taxonomies; per episode a realistic result.json:
every graded field with gold and agent value, checks, floor, a speech
timeline; a summary.json), then times, cold: `rebuild_index`, `analyze` and
`render_html`; and `analyze` again with the index in place. Prints JSON with
the wall times and the ratio of the cold total to the target (below 1.0 meets it).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from duplexbench.campaign._rundir import write_summary
from duplexbench.campaign._spec import CampaignSpec, episode_dir
from duplexbench.campaign._store import index_path, rebuild_index
from duplexbench.campaign._trust import add_trust
from duplexbench.items._load import item_checksum
from duplexbench.items._suite import load_suite
from duplexbench.items._taxonomy import TAXONOMY_DIMENSIONS
from duplexbench.items._workflow import WorkflowItem
from duplexbench.report._analysis import analyze
from duplexbench.report._html import render_html
from duplexbench.scoring._episode import GATES, EpisodeScore
from duplexbench.scoring._summary import build_summary
from duplexbench.suites._package import resolve_suite
from duplexbench.suites._stats import labels

TARGET_S = 30.0


def _items(count: int, rng: random.Random) -> list[WorkflowItem]:
    base = load_suite(resolve_suite("workflows-mini")).items
    out = []
    for i in range(count):
        data = base[i % len(base)].model_dump(mode="json")
        data["id"] = f"syn-{i:04d}"
        data["title"] = f"{data['title']} (variant {i})"
        for dim in TAXONOMY_DIMENSIONS:
            choices = labels(dim)
            if isinstance(data["taxonomy"][dim], list):
                data["taxonomy"][dim] = rng.sample(choices, rng.randint(0, 2))
            else:
                data["taxonomy"][dim] = rng.choice(choices)
        out.append(WorkflowItem.model_validate(data))
    return out


def _fields(item: WorkflowItem, skill: float, rng: random.Random) -> list[dict[str, Any]]:
    fields = []
    for artifact in item.artifacts:
        for spec in artifact.fields:
            if not spec.graded:
                continue
            right = rng.random() < skill
            missing = not right and rng.random() < 0.3
            predicted = spec.gold if right else (None if missing else f"wrong {spec.name}")
            fields.append(
                {
                    "artifact": artifact.id,
                    "field": spec.name,
                    "grader": spec.grader,
                    "gold": spec.gold,
                    "predicted": predicted,
                    "score": 1.0 if right else 0.0,
                    "deterministic_score": 1.0 if right else 0.0,
                    "missing": missing,
                    "correction_linked": rng.random() < 0.1,
                }
            )
    return fields


def _timeline(rng: random.Random) -> dict[str, Any]:
    t, segments = 0, []
    for _ in range(10):
        user = rng.randint(1500, 6000)
        segments.append(["user", t, t + user, "turn"])
        t += user + rng.randint(300, 1500)
        agent = rng.randint(1000, 8000)
        segments.append(["agent", t, t + agent, "turn"])
        t += agent + rng.randint(300, 1500)
    return {"end_ms": t + 500, "segments": segments}


def _score(item: WorkflowItem, rep: int, skill: float, rng: random.Random) -> EpisodeScore:
    if rng.random() < 0.01:
        return EpisodeScore(item_id=item.id, repetition=rep, status="error", error="agent crashed")
    fields = _fields(item, skill, rng)
    gates = {g: rng.random() < skill + 0.2 for g in GATES}
    gates["AV"] = all(f["score"] == 1.0 for f in fields)
    ws = int(all(gates.values()))
    oracle = item.reference.tool_call_count
    calls = max(0, oracle + rng.randint(-2, 4))
    return EpisodeScore.model_validate(
        {
            "item_id": item.id,
            "repetition": rep,
            "status": "ok",
            "end_reason": "agent_ended",
            "ws": ws,
            "ws_deterministic": ws,
            "gates": gates,
            "av_deterministic": gates["AV"],
            "afa": {
                "correct": sum(f["score"] == 1.0 for f in fields),
                "correct_deterministic": sum(f["score"] == 1.0 for f in fields),
                "total": len(fields),
            },
            "fields": fields,
            "checks": [{"gate": g, "name": f"{g} check", "passed": ok} for g, ok in gates.items()],
            "tool_calls": calls,
            "oracle_tool_calls": oracle,
            "tool_efficiency": calls / oracle if oracle else None,
            "termination_ms": rng.randint(30_000, 120_000),
            "time_to_resolution_ms": rng.randint(20_000, 90_000) if ws else None,
            "floor": {
                "barge_ins": 1,
                "yields": int(rng.random() < 0.8),
                "stop_latencies_ms": [rng.randint(100, 900)],
                "overlaps": 1,
                "unintended_overlaps": int(rng.random() < 0.2),
                "agent_turns": 10,
            },
            "interaction": _timeline(rng),
        }
    )


def build(root: Path, n_items: int, repeats: int, seed: int = 0) -> Path:
    rng = random.Random(seed)
    items = _items(n_items, rng)
    spec = CampaignSpec(
        duplexbench_version="bench",
        suite="synthetic",
        suite_version="1",
        suite_path="synthetic",
        agent="bench-agent",
        condition="clean",
        repeats=repeats,
        seed=seed,
        items=[i.id for i in items],
        item_checksums={i.id: item_checksum(i) for i in items},
    )
    (root / "items").mkdir(parents=True)
    (root / "campaign.json").write_text(spec.model_dump_json(indent=2))
    scores = []
    for item in items:
        (root / "items" / f"{item.id}.json").write_text(item.model_dump_json())
        skill = rng.uniform(0.3, 1.0)
        for rep in range(repeats):
            folder = root / episode_dir(spec, item.id, rep)
            folder.mkdir(parents=True)
            score = _score(item, rep, skill, rng)
            (folder / "result.json").write_text(score.model_dump_json(indent=2) + "\n")
            scores.append(score)
    summary = build_summary(
        scores, suite="synthetic", agent="bench-agent", condition="clean",
        repeats=repeats, seed=seed, judge=None,
    )  # fmt: skip
    write_summary(root, add_trust(summary, spec, scores))
    return root


def timed(fn: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    value = fn()
    return value, round(time.perf_counter() - start, 3)


def main(n_items: int, repeats: int, keep: Path | None) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="duplexbench-report-bench-"))
    run_dir = keep or tmp / "run"
    try:
        _, build_s = timed(lambda: build(run_dir, n_items, repeats))
        indexed, rebuild_s = timed(lambda: rebuild_index(run_dir))
        index_path(run_dir).unlink()  # the report's own cold path builds it again
        for suffix in ("-wal", "-shm"):
            Path(f"{index_path(run_dir)}{suffix}").unlink(missing_ok=True)
        report, cold_s = timed(lambda: analyze([run_dir]))
        page, html_s = timed(lambda: render_html(report, run_dir))
        _, warm_s = timed(lambda: analyze([run_dir]))
        total = cold_s + html_s
        return {
            "episodes": indexed,
            "items": n_items,
            "build_synthetic_s": build_s,
            "rebuild_index_s": rebuild_s,
            "analyze_cold_s (index built from folders)": cold_s,
            "render_html_s": html_s,
            "analyze_warm_s (index in place)": warm_s,
            "report_total_s": round(total, 3),
            "html_mb": round(len(page.encode()) / 1e6, 2),
            "problems": len(report["problems"]),
            "target_s": TARGET_S,
            "ratio_to_target": round(total / TARGET_S, 3),
        }
    finally:
        if keep is None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=25)
    parser.add_argument("--keep", type=Path, help="Build the run directory here and keep it.")
    args = parser.parse_args()
    print(json.dumps(main(args.items, args.repeats, args.keep), indent=2))
    sys.exit(0)
