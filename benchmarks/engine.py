"""The episode engine's wall time: oracle on workflows-v1, ideal-floor on actions-v1.

The unified frame loop must be no slower than the loops it replaced (within
10%). This runs both jobs with the working tree and, with `--against REF`,
with a git worktree of REF (its `src` first on PYTHONPATH), alternating the
two so that both see the same machine; it prints each job's median wall time
per tree and the ratio (this tree / REF). Warm speech bank: one unmeasured
run of each job first. Prints JSON.

    .venv/bin/python benchmarks/engine.py --this HEAD --against c59a9f0 --repeats 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JOBS = {
    "oracle-workflows-v1": ["--suite", "workflows-v1", "--agent", "oracle"],
    "ideal-floor-actions-v1": ["--suite", "actions-v1", "--agent", "ideal-floor"],
}


def run_job(src: Path, job: str, out: Path) -> float:
    env = dict(os.environ, PYTHONPATH=str(src))
    cmd = [sys.executable, "-c", "from duplexbench.cli import main; main()", "run", *JOBS[job]]
    cmd += ["-k", "1", "--workers", "1", "--quiet", "--json", "--out", str(out), "--overwrite"]
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def worktree(ref: str, folder: Path) -> Path:
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "-f", "--detach", str(folder), ref],
        check=True,
        capture_output=True,
    )
    return folder / "src"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", help="git ref to compare with (default: this tree only)")
    parser.add_argument(
        "--this",
        help="measure this git ref (in its own worktree) instead of the working tree, "
        "so that editing the tree meanwhile does not change what is measured",
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", default=",".join(JOBS))
    args = parser.parse_args()
    jobs = args.jobs.split(",")
    with tempfile.TemporaryDirectory(prefix="engine-bench-") as tmp:
        trees = {"this": ROOT / "src"}
        if args.this:
            trees["this"] = worktree(args.this, Path(tmp) / "this")
        if args.against:
            trees[args.against] = worktree(args.against, Path(tmp) / "ref")
        times: dict[str, dict[str, list[float]]] = {j: {t: [] for t in trees} for j in jobs}
        try:
            for job in jobs:
                for src in trees.values():  # warm the bank and bytecode, unmeasured
                    run_job(src, job, Path(tmp) / "out")
                for _ in range(args.repeats):
                    for name, src in trees.items():
                        times[job][name].append(run_job(src, job, Path(tmp) / "out"))
        finally:
            for folder in ("this", "ref"):
                if (Path(tmp) / folder).exists():
                    remove = ["git", "-C", str(ROOT), "worktree", "remove", "--force"]
                    subprocess.run([*remove, str(Path(tmp) / folder)], check=False)
    report: dict[str, object] = {}
    for job in jobs:
        medians = {name: round(statistics.median(ts), 2) for name, ts in times[job].items()}
        entry: dict[str, object] = {"median_wall_s": medians, "runs": times[job]}
        if args.against:
            entry["ratio_this_to_ref"] = round(medians["this"] / medians[args.against], 3)
            entry["target_ratio_at_most"] = 1.10
        report[job] = entry
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
