"""CLI start-up: `duplexbench --help` and `duplexbench run --limit 1` (reported, never asserted).

Targets (the "main job in minutes" issue): `duplexbench --help` at most 0.3 s, and
`duplexbench run --limit 1` at most 1 s of start-up before the first episode starts,
with warm caches (the default suite, agent and condition: workflows-mini, reference,
clean).

Start-up is the wall time from spawning the process to the first call of
`EpisodeRunner.run`, i.e. the episode itself: the child is a small probe that
replaces that method with one that prints the elapsed time and exits, so no episode
runs. Before it lie the interpreter start, the imports, loading the one item,
checking the agent, voices and observer, and writing the run directory; creating
the agent and loading its models (whisper, piper) belong to the episode.

Warm caches: Python's bytecode caches (the children run without
PYTHONDONTWRITEBYTECODE) and the speech bank; one unmeasured run of each command
comes first. Prints JSON: the median of `--repeats` runs of each, the child's CPU
time at the first episode (less sensitive to a busy machine than the wall time),
and each as a ratio to its target (below 1.0 meets it).

    taskset -c 0 .venv/bin/python benchmarks/startup.py [--repeats 7]
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

HELP_TARGET_S = 0.3
RUN_TARGET_S = 1.0

PROBE = """
import os, sys, time
import duplexbench.campaign._episode_runner as episode_runner

def first_episode(self, setup):
    elapsed = time.time() - float(os.environ["STARTUP_T0"])
    print(f"STARTUP {elapsed:.4f} {time.process_time():.4f}", file=sys.stderr, flush=True)
    os._exit(0)

episode_runner.EpisodeRunner.run = first_episode
from duplexbench.cli import main
sys.argv = ["duplexbench", *sys.argv[1:]]
main()
"""


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # warm bytecode caches, as users have them
    return env


def time_help(env: dict[str, str]) -> float:
    command = [sys.executable, "-c", "from duplexbench.cli import main; main()", "--help"]
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def time_run(env: dict[str, str], out: Path) -> tuple[float, float]:
    """(wall seconds, child CPU seconds) from spawning to the first episode."""
    args = ["run", "--limit", "1", "-k", "1", "--workers", "1", "-q"]
    args += ["--out", str(out), "--overwrite"]
    env = {**env, "STARTUP_T0": repr(time.time())}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], check=False, env=env, capture_output=True, text=True
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("STARTUP ")]
    if not lines:
        raise SystemExit(f"no episode started (exit {done.returncode}):\n{done.stderr[-3000:]}")
    _, wall, cpu = lines[-1].split()
    return float(wall), float(cpu)


def main(repeats: int = 7) -> dict[str, object]:
    env = child_env()
    with tempfile.TemporaryDirectory(prefix="duplexbench-startup-") as tmp:
        out = Path(tmp) / "run"
        time_help(env)
        time_run(env, out)  # warm-up: bytecode, speech bank
        helps, walls, cpus = [], [], []
        for _ in range(repeats):
            helps.append(time_help(env))
            wall, cpu = time_run(env, out)
            walls.append(wall)
            cpus.append(cpu)
    help_s, run_s = statistics.median(helps), statistics.median(walls)
    return {
        "python": sys.version.split()[0],
        "repeats": repeats,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "help_s": round(help_s, 3),
        "help_target_s": HELP_TARGET_S,
        "help_ratio_to_target": round(help_s / HELP_TARGET_S, 3),
        "run_limit_1_startup_s": round(run_s, 3),
        "run_limit_1_startup_min_s": round(min(walls), 3),
        "run_limit_1_startup_cpu_s": round(statistics.median(cpus), 3),
        "run_target_s": RUN_TARGET_S,
        "run_ratio_to_target": round(run_s / RUN_TARGET_S, 3),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    print(json.dumps(main(parser.parse_args().repeats), indent=2))
