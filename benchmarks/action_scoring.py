"""Rule-based scoring of an action run from its traces (reported, never asserted).

Target (issue 6): scoring all 600+ action instances from traces in under 10 s.

    python benchmarks/action_scoring.py [RUN_DIR]

RUN_DIR defaults to `runs/actions-v1-silent`; make it with
`duplexbench run --suite actions-v1 --agent silent -k 1 --out runs/actions-v1-silent`.
Prints JSON: episodes, wall seconds (offline scoring, no judge, nothing
written), episodes per second and the ratio to the target (below 1.0 meets it).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from duplexbench.campaign._rescore import rescore_run

TARGET_S = 10.0


def main(run_dir: Path) -> dict[str, object]:
    start = time.perf_counter()
    result = rescore_run(run_dir, write=False)
    wall = time.perf_counter() - start
    n = len(result.scores)
    return {
        "run_dir": str(run_dir),
        "episodes": n,
        "errors": sum(s.status == "error" for s in result.scores),
        "wall_s": round(wall, 3),
        "episodes_per_s": round(n / wall, 1) if wall else None,
        "target_s": TARGET_S,
        "ratio_to_target": round(wall / TARGET_S, 3),
    }


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("runs/actions-v1-silent")
    print(json.dumps(main(folder), indent=2))
