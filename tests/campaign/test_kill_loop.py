"""SIGKILL at random points, again and again: after every kill the run directory holds only
complete episodes, each once, and the last resume completes the run exactly.

Trials: 3 in the normal test run; set DUPLEXBENCH_KILL_TRIALS=20 (or more) for the long run.
Kill times are drawn from a seeded generator, so a failing trial can be replayed.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import FIXTURES
from duplexbench.campaign.store import check_index

TRIALS = int(os.environ.get("DUPLEXBENCH_KILL_TRIALS", "3"))


def complete(out: Path) -> list[Path]:
    return sorted(p.parent for p in out.glob("episodes/*/*/*/r*/result.json"))


def check_folders(out: Path) -> None:
    """Every episode folder present is complete and readable; nothing half-written counts."""
    for folder in (p for p in out.glob("episodes/*/*/*/*") if p.is_dir()):
        if folder.name.endswith(".partial"):
            continue  # the next resume deletes it; never counted
        json.loads((folder / "result.json").read_text())  # complete, parseable


def test_random_sigkills_then_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "duplexbench.cli", "run", "--suite", str(FIXTURES)]
    cmd += ["--agent", "oracle", "--condition", "text", "-k", "6", "--out", str(out), "-q"]
    rng = random.Random(7)
    for trial in range(TRIALS):
        args = cmd if trial == 0 else [*cmd, "--resume"]
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(1.0, 4.0))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        check_folders(out)
    final = subprocess.run(
        [*cmd, "--resume", "--json"], check=False, capture_output=True, text=True
    )
    assert final.returncode == 0, final.stderr
    summary = json.loads(final.stdout)
    assert summary["episodes"] == 30 and summary["errors"] == 0
    assert summary["workflows"]["pass_at_1"] == 1.0
    assert len(complete(out)) == 30 and not list(out.glob("episodes/**/*.partial"))
    assert len([p for p in out.glob("episodes/*/*/*/*") if p.is_dir()]) == 30
    rows = (out / "results.jsonl").read_text().splitlines()
    assert len(rows) == len(set(rows)) == 30
    assert check_index(out) == []
