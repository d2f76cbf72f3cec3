"""Campaign runner overhead and worker scaling (reported, never asserted).

Targets (issue 8): the runner's own cost under 50 ms per episode; near-linear
speedup from 1 to 2 local workers on CPU-bound agents.

    .venv/bin/python benchmarks/campaign.py

1. Overhead: the `noop` agent on the text channel (episodes cost almost
   nothing) over tests/fixtures x 20 repetitions, inline backend: wall time
   minus the time spent inside the episode jobs, per episode (placing files,
   scoring from the trace, the index and the summary).
2. Scaling: the `oracle` on the audio channel (CPU-bound: the frame loop, VAD,
   speech-bank reads) over tests/fixtures x 4 repetitions with 1 and with 2
   local workers; speedup = wall(1) / wall(2) (2.0 is linear). An untimed run
   comes first, so neither timed one fills the speech bank, the rehearsal
   cache or the observer's embedding cache for the other.
Prints JSON.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from duplexbench.campaign._execution import ExecutionOptions, execute
from duplexbench.campaign._lock import run_lock
from duplexbench.campaign._runner import (
    RunOptions,
    finish_target,
    prepare_target,
    run_campaign,
    start_target,
)

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"
TARGET_OVERHEAD_MS = 50.0


def overhead(folder: Path) -> dict[str, float]:
    opts = RunOptions(str(FIXTURES), agent="noop", condition="text", repeats=20, out=folder)
    start = time.perf_counter()
    target = prepare_target(opts)
    with run_lock(folder):
        start_target(target, opts)
        progress = execute([target], opts.execution)
        result = finish_target(target)
    wall = time.perf_counter() - start
    n = len(result.scores)
    per_ms = (wall - progress.job_seconds) / n * 1000
    return {
        "episodes": n,
        "wall_s": round(wall, 3),
        "in_jobs_s": round(progress.job_seconds, 3),
        "overhead_ms_per_episode": round(per_ms, 2),
        "target_ms": TARGET_OVERHEAD_MS,
        "ratio_to_target": round(per_ms / TARGET_OVERHEAD_MS, 3),
    }


def scaling(folder: Path) -> dict[str, float]:
    walls = {}
    for workers in (0, 1, 2):  # 0: an untimed run (2 workers) that warms every cache
        ex = ExecutionOptions(workers=workers or 2)
        opts = RunOptions(
            str(FIXTURES), agent="oracle", repeats=4, out=folder / str(workers), execution=ex
        )
        start = time.perf_counter()
        run_campaign(opts)
        walls[workers] = time.perf_counter() - start
    return {
        "episodes": 20,
        "wall_1_worker_s": round(walls[1], 2),
        "wall_2_workers_s": round(walls[2], 2),
        "speedup": round(walls[1] / walls[2], 2),
    }


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        report = {"overhead": overhead(Path(tmp) / "o"), "scaling": scaling(Path(tmp) / "s")}
    print(json.dumps(report, indent=2))
