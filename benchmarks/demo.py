"""The main job (`make demo` minus the install), cold and warm (reported, never asserted).

Runs the two commands of `make demo` twice in fresh processes, on an empty
speech bank and transcript cache of its own (a temporary folder; your
`~/.cache/duplexbench` is not touched), then again with both warm:

    duplexbench run --condition text,clean --out OUT --overwrite --workers 2 -q
    duplexbench report OUT --html OUT/report.html

Targets (2 cores, a quiet machine): at most 300 s cold, 150 s warm; peak
memory of the largest process (the driver or a worker; every descendant
counts, as `getrusage(RUSAGE_CHILDREN)` reports it) at most 600 MiB.
Prints JSON with each figure and its ratio to the target (below 1.0 meets it).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
TARGET_COLD_S, TARGET_WARM_S, TARGET_RSS_MIB = 300.0, 150.0, 600.0


def _child_peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main_job(out: Path, env: dict[str, str]) -> dict[str, object]:
    """Both demo commands in fresh processes: wall seconds, exit codes, peak RSS."""
    exe = str(BIN / "duplexbench")
    run = ["run", "--condition", "text,clean", "--out", str(out), "--overwrite"]
    commands = [
        [exe, *run, "--workers", "2", "-q", "--json"],
        [exe, "report", str(out), "--html", str(out / "report.html")],
    ]
    start = time.perf_counter()
    codes = []
    for command in commands:
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        codes.append(done.returncode)
        if done.returncode != 0:
            sys.stderr.write(done.stderr[-4000:])
    wall = time.perf_counter() - start
    return {"wall_s": round(wall, 1), "exit_codes": codes}


def scores(out: Path) -> dict[str, object]:
    """Pass@1 and AFA per condition, so a fast run that broke the agent shows."""
    result: dict[str, object] = {}
    for condition in ("text", "clean"):
        summary = json.loads((out / condition / "summary.json").read_text())
        work = summary["workflows"]
        result[condition] = {
            "pass_at_1": work["pass_at_1"],
            "afa": work["afa"],
            "episodes": summary["episodes"],
            "errors": summary["errors"],
            "agent_errors": summary["agent_errors"],
        }
    return result


def main() -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="duplexbench-demo-bench-") as tmp:
        root = Path(tmp)
        env = dict(os.environ)
        env["DUPLEXBENCH_SPEECH_CACHE"] = str(root / "speech")
        for beside_the_bank in ("DUPLEXBENCH_TRANSCRIPT_CACHE", "DUPLEXBENCH_EMBEDDING_CACHE"):
            env.pop(beside_the_bank, None)  # under the bank: empty too
        cold = main_job(root / "cold", env)
        cold_rss = _child_peak_mib()
        warm = main_job(root / "warm", env)
        out: dict[str, object] = {
            "python": sys.version.split()[0],
            "cores": os.cpu_count(),
            "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
            "cold": {**cold, "target_s": TARGET_COLD_S},
            "warm": {**warm, "target_s": TARGET_WARM_S},
            "peak_rss_mib_largest_process": round(_child_peak_mib(), 1),
            "peak_rss_mib_cold_pass": round(cold_rss, 1),
            "target_rss_mib": TARGET_RSS_MIB,
        }
        out["ratio_to_target"] = {
            "cold": round(float(cold["wall_s"]) / TARGET_COLD_S, 3),  # type: ignore[arg-type]
            "warm": round(float(warm["wall_s"]) / TARGET_WARM_S, 3),  # type: ignore[arg-type]
            "peak_rss": round(_child_peak_mib() / TARGET_RSS_MIB, 3),
        }
        try:
            out["scores_warm"] = scores(root / "warm")
        except (OSError, ValueError) as exc:
            out["scores_warm"] = f"unreadable: {exc}"
        return out


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))
