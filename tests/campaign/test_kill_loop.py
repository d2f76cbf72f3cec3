"""SIGKILL again and again, each time while the run is going: after every kill the run
directory holds only complete episodes, each once, and the last resume completes the run
exactly.

Each trial kills the run after the N-th result of the trial is written (N from a seeded
generator, so a failing trial can be replayed), observed through the file system: once
the next episode is in flight, or, every fifth trial (the 3rd, the 8th, ...), right after
the result, where the kill may fall between an episode's folder and its index row. In
flight means started and without a result yet: the episode's work folder exists (the
job's `duplexbench-episode-*` temp folder, in a TMPDIR of the trial's own) or its
`.partial` folder does (being saved). The process is stopped (SIGSTOP) while the state is
checked, so the state seen is the state it is killed in.

Trials: 3 in the normal test run; set DUPLEXBENCH_KILL_TRIALS=20 (or more) for the long
run, which also asserts that at least 3 kills in 4 interrupted an episode in flight.
"""

from __future__ import annotations

import json
import math
import os
import random
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

from duplexbench.campaign._store import check_index
from support.fixtures import FIXTURES
from support.waiting import stop_when

TRIALS = int(os.environ.get("DUPLEXBENCH_KILL_TRIALS", "3"))
ITEMS = 5  # in tests/fixtures
REPEATS = max(6, (3 * TRIALS + 9) // 5)  # 30 episodes up to 7 trials; room for 3 per trial
EPISODES = ITEMS * REPEATS
RIGHT_AFTER = 5
"""Every RIGHT_AFTER-th trial kills as soon as its N-th result is there (in flight or not)."""


def complete(out: Path) -> list[Path]:
    return sorted(p.parent for p in out.glob("episodes/*/*/*/r*/result.json"))


def in_flight(out: Path, work: Path) -> bool:
    """An episode has started and has no result yet: its work folder or `.partial` exists."""
    running = any(p.name.startswith("duplexbench-episode-") for p in work.iterdir())
    return running or any(out.glob("episodes/*/*/*/*.partial"))


def reached(out: Path, work: Path, results: int, mid_episode: bool) -> bool:
    """The moment to kill: `results` results written and, for a mid-episode kill, the next
    episode in flight."""
    return len(complete(out)) >= results and (not mid_episode or in_flight(out, work))


def check_folders(out: Path) -> None:
    """Every episode folder present is complete and readable; nothing half-written counts."""
    for folder in (p for p in out.glob("episodes/*/*/*/*") if p.is_dir()):
        if folder.name.endswith(".partial"):
            continue  # the next resume deletes it; never counted
        json.loads((folder / "result.json").read_text())  # complete, parseable


def test_random_sigkills_then_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "duplexbench.cli", "run", "--suite", str(FIXTURES)]
    cmd += ["--agent", "oracle", "--condition", "text", "-k", str(REPEATS)]
    cmd += ["--out", str(out), "-q"]
    rng = random.Random(7)
    started = time.monotonic()
    killed_running = interrupted = aimed = 0
    for trial in range(TRIALS):
        before = len(complete(out))
        # each later trial needs a result of its own and an episode left to be in flight
        n = rng.randint(1, max(1, min(3, (EPISODES - before - 1) // (TRIALS - trial))))
        mid_episode = trial % RIGHT_AFTER != 2
        work = tmp_path / "tmp" / f"trial-{trial}"
        work.mkdir(parents=True)
        args = cmd if trial == 0 else [*cmd, "--resume"]
        env = {**os.environ, "TMPDIR": str(work)}  # the episodes' work folders: observable
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)

        then = ", then an episode in flight" if mid_episode else ""
        what = f"trial {trial}: result {n} of the trial{then}"
        try:
            stop_when(proc, partial(reached, out, work, before + n, mid_episode), 120, what)
            assert proc.poll() is None  # stopped, not ended: the kill hits a running process
            killed_running += 1
            os.kill(proc.pid, signal.SIGKILL)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        assert proc.returncode == -signal.SIGKILL
        assert len(complete(out)) >= before + n
        hit = in_flight(out, work)  # what the kill left behind: the state it was killed in
        assert hit or not mid_episode, f"trial {trial}: no episode in flight at the kill"
        interrupted += hit
        aimed += mid_episode
        check_folders(out)
    elapsed = time.monotonic() - started
    print(
        f"\nkill loop: {TRIALS} SIGKILLs, {killed_running} of a running process,"
        f" {interrupted} with an episode in flight ({aimed} aimed mid-episode,"
        f" {TRIALS - aimed} right after a result); {EPISODES} episodes; {elapsed:.1f} s"
    )
    assert killed_running == TRIALS
    if "DUPLEXBENCH_KILL_TRIALS" in os.environ:
        assert interrupted >= math.ceil(0.75 * TRIALS), f"{interrupted} of {TRIALS} in flight"
    final = subprocess.run(
        [*cmd, "--resume", "--json"], check=False, capture_output=True, text=True
    )
    assert final.returncode == 0, final.stderr
    summary = json.loads(final.stdout)
    assert summary["episodes"] == EPISODES and summary["errors"] == 0
    assert summary["workflows"]["pass_at_1"] == 1.0
    assert len(complete(out)) == EPISODES and not list(out.glob("episodes/**/*.partial"))
    assert len([p for p in out.glob("episodes/*/*/*/*") if p.is_dir()]) == EPISODES
    rows = (out / "results.jsonl").read_text().splitlines()
    assert len(rows) == len(set(rows)) == EPISODES
    assert check_index(out) == []
