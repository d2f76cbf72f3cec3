"""The audio-solvability audit of a suite, timed (reported, never asserted).

    duplexbench suite validate SUITE --audio --workers 2 --json --out OUT --overwrite

runs the privileged `listener` on every item in clean audio (docs/suites.md). Target:
workflows-v2 in at most 30 minutes on 2 cores with a warm speech bank (run it once
first, or run `duplexbench suite build workflows-v2`). Prints JSON with the wall time,
its ratio to the target (below 1.0 meets it) and the audit's own counts.

    python benchmarks/audio_audit.py [--suite workflows-v2] [--condition clean]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
TARGET_S = 30 * 60.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", default="workflows-v2")
    parser.add_argument("--condition", default="clean")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            str(BIN / "duplexbench"), "suite", "validate", args.suite, "--audio",
            "--condition", args.condition, "--workers", str(args.workers), "--json",
            "--out", str(Path(tmp) / "audit"), "--overwrite",
        ]  # fmt: skip
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
    try:
        audit = json.loads(done.stdout)
    except json.JSONDecodeError:
        sys.stderr.write(done.stderr[-4000:])
        audit = None
    solved = audit.get("solved") if isinstance(audit, dict) else None
    items = audit.get("items") if isinstance(audit, dict) else None
    report = {
        "benchmark": "audio_audit",
        "suite": args.suite,
        "condition": args.condition,
        "workers": args.workers,
        "exit_code": done.returncode,
        "wall_s": round(wall, 1),
        "target_s": TARGET_S,
        "ratio": round(wall / TARGET_S, 3),
        "solved": solved,
        "items": items,
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
