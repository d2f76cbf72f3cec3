"""1 -> 2 local workers: the speedup of the reference agent and of the oracle (reported).

Targets (2 cores): at least 1.7x for the reference agent, at least 1.5x for
the oracle on 300 episodes.

    .venv/bin/python benchmarks/workers.py [--reference-repeats 1] [--oracle-repeats 25]

Both settings of each agent run back to back in this process, on the
built-in `workflows-mini` suite in the `clean` condition, each into a fresh
temporary run directory:

1. `reference` (12 items x `--reference-repeats`): the transcript cache is
   off (`DUPLEXBENCH_TRANSCRIPT_CACHE=off`, inherited by the workers) so
   whisper really runs.
2. `oracle` (12 items x `--oracle-repeats`, 300 episodes by default).

Before timing an agent, its whole run is played once, untimed (the speech
bank, the rehearsal and embedding caches are then warm for every setting;
`bank_clips_added` says whether a timed setting still had to render).
speedup = wall(1 worker) / wall(2 workers), where wall is the whole run as
`duplexbench run` does it (suite loading, render ahead, the pool's start,
the episodes, the summary); `episodes_speedup` is the same for the episodes
alone (the engine). ratio_to_target = speedup / target (>= 1 meets it).
`cpu_s` is each setting's CPU time (this process and its workers): work
that 2 workers add (each loads its own models and caches) shows there even
on a busy machine. The load average before and after each agent is printed:
other work on the machine slows the settings unevenly. Prints JSON.

One worker gets every core's thread for whisper (`cores / workers`), two get
one each, so the reference agent's 1-worker run already uses both cores while
whisper decodes; `speedup_at_1_asr_thread_per_worker` (a third run: one
worker, whisper on one thread) is the pool's own scaling, without that.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from duplexbench.campaign._ahead import render_ahead
from duplexbench.campaign._execution import ExecutionOptions, execute
from duplexbench.campaign._lock import run_lock
from duplexbench.campaign._runner import RunOptions, finish_target, prepare_target, start_target
from duplexbench.speech._bank import default_root
from duplexbench.speech._threads import cores
from duplexbench.suites._package import resolve_suite

SUITE = "workflows-mini"
TARGETS = {"reference": 1.7, "oracle": 1.5}


def bank_clips() -> int:
    root = default_root()
    return sum(1 for _ in root.glob("*/*.wav")) if root.is_dir() else 0


def options(folder: Path, agent: str, repeats: int, workers: int) -> RunOptions:
    return RunOptions(
        str(resolve_suite(SUITE)),
        agent=agent,
        condition="clean",
        repeats=repeats,
        out=folder,
        execution=ExecutionOptions(workers=workers),
    )


def warm_up(folder: Path, agent: str, repeats: int) -> None:
    """The whole run once, untimed: every clip rendered ahead or inside an episode
    (lines after a mishearing), the rehearsals and the embedding cache, so no timed
    setting fills a cache for the next."""
    opts = options(folder, agent, repeats, 2)
    target = prepare_target(opts)
    with run_lock(target.run_dir):
        start_target(target, opts)
        render_ahead([target], opts.execution)
        execute([target], opts.execution)
        finish_target(target)


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (pool workers)."""
    own, children = (
        resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def one_run(folder: Path, agent: str, repeats: int, workers: int) -> dict[str, Any]:
    """One run as `run_campaign` makes it, with its episodes timed apart."""
    opts = options(folder, agent, repeats, workers)
    clips = bank_clips()
    cpu = cpu_seconds()
    start = time.perf_counter()
    target = prepare_target(opts)
    with run_lock(target.run_dir):
        start_target(target, opts)
        render_ahead([target], opts.execution)
        episodes_start = time.perf_counter()
        execute([target], opts.execution)
        episodes = time.perf_counter() - episodes_start
        result = finish_target(target)
    return {
        "wall_s": round(time.perf_counter() - start, 2),
        "episodes_s": round(episodes, 2),
        "cpu_s": round(cpu_seconds() - cpu, 1),
        "episodes": len(result.scores),
        "errors": result.summary.get("errors"),
        "bank_clips_added": bank_clips() - clips,
    }


def one_thread_run(folder: Path, agent: str, repeats: int) -> dict[str, Any]:
    """One worker whose whisper runs on one thread (`DUPLEXBENCH_ASR_THREADS=1`)."""
    os.environ["DUPLEXBENCH_ASR_THREADS"] = "1"
    try:
        return one_run(folder, agent, repeats, 1)
    finally:
        del os.environ["DUPLEXBENCH_ASR_THREADS"]


def speedup(folder: Path, agent: str, repeats: int) -> dict[str, Any]:
    warm_up(folder / f"{agent}-warm-up", agent, repeats)
    load_before = os.getloadavg()[0]
    runs = {w: one_run(folder / f"{agent}-{w}", agent, repeats, w) for w in (1, 2)}
    ratio = runs[1]["wall_s"] / runs[2]["wall_s"]
    extra: dict[str, Any] = {}
    if agent == "reference":  # the pool alone: the same threads per worker in both
        single = one_thread_run(folder / f"{agent}-1-thread", agent, repeats)
        extra = {
            "wall_1_worker_1_asr_thread_s": single["wall_s"],
            "cpu_1_worker_1_asr_thread_s": single["cpu_s"],
            "bank_clips_added_1_asr_thread": single["bank_clips_added"],
            "speedup_at_1_asr_thread_per_worker": round(single["wall_s"] / runs[2]["wall_s"], 2),
        }
    return {
        "episodes": runs[1]["episodes"],
        "wall_1_worker_s": runs[1]["wall_s"],
        "wall_2_workers_s": runs[2]["wall_s"],
        "speedup": round(ratio, 2),
        "target": TARGETS[agent],
        "ratio_to_target": round(ratio / TARGETS[agent], 3),
        "episodes_s": [runs[1]["episodes_s"], runs[2]["episodes_s"]],
        "episodes_speedup": round(runs[1]["episodes_s"] / runs[2]["episodes_s"], 2),
        "cpu_s": [runs[1]["cpu_s"], runs[2]["cpu_s"]],
        "errors": [runs[1]["errors"], runs[2]["errors"]],
        "bank_clips_added": [runs[1]["bank_clips_added"], runs[2]["bank_clips_added"]],
        "load_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        **extra,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reference-repeats", type=int, default=1)
    parser.add_argument("--oracle-repeats", type=int, default=25)
    parser.add_argument("--only", choices=sorted(TARGETS))
    args = parser.parse_args()
    os.environ["DUPLEXBENCH_TRANSCRIPT_CACHE"] = "off"
    repeats = {"reference": args.reference_repeats, "oracle": args.oracle_repeats}
    report: dict[str, Any] = {"cores": cores()}
    with tempfile.TemporaryDirectory() as tmp:
        for agent in TARGETS:
            if args.only in (None, agent):
                report[agent] = speedup(Path(tmp), agent, repeats[agent])
                print(f"# {agent}: {report[agent]['speedup']}x", flush=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
