"""Render ahead with an empty speech bank on 1 and 2 workers (reported, never asserted).

    .venv/bin/python benchmarks/render_ahead.py [--suite workflows-mini] [--limit N]
        [--agent reference] [--condition clean] [--repeats 1] [--workers 1,2] [--episodes]

For each worker count, in this one process: a fresh empty bank (and so no
cached rehearsal), then `render_ahead` for the run `duplexbench run` would
make (every item, or the first `--limit`). Reports wall seconds, CPU seconds
of this process and its children (rehearsals and renders), the clips
rendered, and the speedup of each worker count over the first. On a busy
machine the wall times say little; the CPU seconds do.

`--episodes`: instead, run the whole campaign on one worker (episodes in
this process) with an empty bank and count the clips rendered ahead and
those rendered during the episodes (`speech.bank.renders()`, which the
render-ahead's child process does not touch), with their texts.
"""

from __future__ import annotations

import argparse
import json
import logging
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from duplexbench.campaign._ahead import render_ahead
from duplexbench.campaign._execution import ExecutionOptions
from duplexbench.campaign._runner import RunOptions, prepare_target, run_campaign
from duplexbench.speech import _bank as bank_module
from duplexbench.suites._package import resolve_suite


def _cpu() -> float:
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _options(args: argparse.Namespace, out: Path, bank: Path) -> RunOptions:
    """The benchmark's run: the suite, agent and condition asked for, into `out`."""
    return RunOptions(
        str(resolve_suite(args.suite)),
        agent=args.agent,
        condition=args.condition,
        repeats=args.repeats,
        limit=args.limit,
        out=out,
        speech_cache=bank,
    )


def measure(args: argparse.Namespace, workers: int, tmp: Path) -> dict[str, Any]:
    opts = _options(args, tmp / f"run-{workers}", tmp / f"bank-{workers}")
    target = prepare_target(opts)
    cpu, start = _cpu(), time.perf_counter()
    report = render_ahead([target], ExecutionOptions(workers=workers))
    wall = time.perf_counter() - start
    assert report is not None
    return {
        "workers": workers,
        "wall_s": round(wall, 1),
        "cpu_s": round(_cpu() - cpu, 1),
        "episodes": report.episodes,
        "clips": report.clips,
        "rendered": report.rendered,
        "failed": len(report.failures),
    }


def episodes(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    """Clips rendered ahead and inside the episodes of one inline run."""
    texts: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            texts.append(record.getMessage())

    log = logging.getLogger("duplexbench.speech._bank")
    log.setLevel(logging.DEBUG)
    log.addHandler(Collect())
    opts = _options(args, tmp / "run", tmp / "bank")
    before, start = bank_module.renders(), time.perf_counter()
    result = run_campaign(opts)
    wav = len(list((tmp / "bank").glob("*/*.wav")))
    inside = bank_module.renders() - before
    return {
        "episodes": len(result.scores),
        "clips_in_bank": wav,
        "rendered_ahead": wav - inside,
        "rendered_in_episodes": inside,
        "wall_s": round(time.perf_counter() - start, 1),
        "in_episode_texts": texts,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suite", default="workflows-mini")
    parser.add_argument("--agent", default="reference")
    parser.add_argument("--condition", default="clean")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--episodes", action="store_true")
    args = parser.parse_args()
    if args.episodes:
        with tempfile.TemporaryDirectory(prefix="duplexbench-ahead-") as folder:
            print(json.dumps(episodes(args, Path(folder)), indent=2))
        return
    with tempfile.TemporaryDirectory(prefix="duplexbench-ahead-") as folder:
        rows = [measure(args, int(w), Path(folder)) for w in args.workers.split(",")]
    first = rows[0]["wall_s"]
    for row in rows:
        row["speedup"] = round(first / row["wall_s"], 2) if row["wall_s"] else None
    print(json.dumps({"suite": args.suite, "agent": args.agent, "runs": rows}, indent=2))


if __name__ == "__main__":
    main()
