"""Private suites: does every seed work, how long does it take, and do the scores hold?

For each of ``--seeds`` consecutive seeds from ``--start``, `generate_workflows`
makes a full-size suite (12 archetypes x 10) and validates it as `suite
validate` does (the oracle passes every item; noop, silent and shortcut fail
every item); the seconds, the rejected candidates and the overlap with the
packaged suites are printed as JSON. Target (the private-suites issue): every
seed works, and generating plus validating 120 items takes at most 90 s on 2
cores.

With ``--runs N``, the reference agent then plays the first N suites in text
(``duplexbench run --suite DIR --agent reference --condition text -k 1
--workers 2 --json``): seed invariance holds when its Pass@1 and AFA on each
suite lie within the 95% item-bootstrap interval of workflows-v2's
(docs/suites.md, "Private suites").

    .venv/bin/python benchmarks/private_suites.py --start 100 --seeds 20 --runs 5
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from duplexbench.suites import PrivateSuiteError, generate_workflows

TARGET_S = 90.0
BIN = Path(sys.executable).parent


def one_seed(seed: int, root: Path) -> dict[str, Any]:
    start = time.perf_counter()
    try:
        made = generate_workflows(seed, root / f"seed{seed}")
    except PrivateSuiteError as exc:
        return {"seed": seed, "ok": False, "error": str(exc)}
    assert made.report is not None and made.manifest.generator is not None
    return {
        "seed": seed,
        "ok": made.report.ok,
        "items": made.items,
        "seconds": round(time.perf_counter() - start, 1),
        "rejected": sum(made.manifest.generator.rejected.values()),
        "oracle_passes": made.report.passed["oracle passes"],
        "noop_fails": made.report.passed["noop fails"],
        "overlap": made.overlap.to_json(),
        "path": str(made.path),
    }


def reference_text(suite: str, out: Path) -> dict[str, Any]:
    args = ["run", "--suite", suite, "--agent", "reference", "--condition", "text", "-k", "1"]
    args += ["--workers", "2", "--json", "--out", str(out)]
    command = [str(BIN / "duplexbench"), *args]
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    if done.returncode:
        return {"suite": suite, "error": done.stderr[-500:]}
    summary = json.loads(done.stdout)["workflows"]
    return {
        "suite": suite,
        "pass_at_1": summary["pass_at_1"],
        "pass_at_1_ci95": summary["ci95"]["pass_at_1"],
        "afa": summary["afa"],
        "afa_ci95": summary["ci95"]["afa"],
    }


def main(start: int, seeds: int, runs: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="duplexbench-private-") as tmp:
        root = Path(tmp)
        rows = [one_seed(seed, root) for seed in range(start, start + seeds)]
        made = [r for r in rows if r["ok"]]
        out: dict[str, Any] = {
            "seeds": [start, start + seeds - 1],
            "failed": [r["seed"] for r in rows if not r["ok"]],
            "max_seconds": max((r["seconds"] for r in made), default=None),
            "target_seconds": TARGET_S,
            "rows": rows,
        }
        if runs:
            baseline = reference_text("workflows-v2", root / "run-v2")
            lo, hi = baseline.get("pass_at_1_ci95", [0, 0])
            alo, ahi = baseline.get("afa_ci95", [0, 0])
            scored = [reference_text(r["path"], root / f"run-{r['seed']}") for r in made[:runs]]
            for row in scored:
                row["within"] = (
                    lo <= row.get("pass_at_1", -1) <= hi and alo <= row.get("afa", -1) <= ahi
                )
            out["reference_text"] = {"workflows-v2": baseline, "private": scored}
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", type=int, default=100)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--runs", type=int, default=0, help="reference text runs on N suites")
    a = parser.parse_args()
    print(json.dumps(main(a.start, a.seeds, a.runs), indent=1))
