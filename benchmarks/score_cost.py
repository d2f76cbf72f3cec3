"""Scoring cost per workflow episode, to compare two trees on the same traces.

    .venv/bin/python benchmarks/score_cost.py RUN_DIR [--episodes 10000]
    PYTHONPATH=/path/to/other/tree/src .venv/bin/python benchmarks/score_cost.py RUN_DIR

Scores the run's saved traces (`score_episode`, no judge) over and over until
`--episodes` scorings are done, in one process, and prints the median
milliseconds per episode of five rounds (wall and CPU time), with which `duplexbench` it imported.
Run it against the tree before a change and after, on the same run directory.
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import time
from pathlib import Path

import duplexbench
from duplexbench.items import load_item
from duplexbench.scoring import score_episode
from duplexbench.trace import read_events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--episodes", type=int, default=10_000)
    args = parser.parse_args()
    traces = []
    for events_path in sorted(args.run_dir.glob("episodes/**/events.jsonl")):
        item_id = events_path.parent.parent.name
        item = load_item(args.run_dir / "items" / f"{item_id}.json")
        traces.append((item, read_events(events_path)))
    strict = "exempt" in inspect.signature(score_episode).parameters
    per_round = args.episodes // 5
    rounds, cpu = [], []
    for _ in range(5):
        start, start_cpu = time.perf_counter(), time.process_time()
        for n in range(per_round):
            item, events = traces[n % len(traces)]
            score_episode(item, events, None)
        rounds.append((time.perf_counter() - start) * 1000 / per_round)
        cpu.append((time.process_time() - start_cpu) * 1000 / per_round)
    print(
        f"{Path(duplexbench.__file__).parent}: {len(traces)} traces, {per_round * 5} scorings, "
        f"median {statistics.median(rounds):.2f} ms per episode, CPU "
        f"{statistics.median(cpu):.2f} ms (rounds {', '.join(f'{r:.2f}' for r in rounds)}; "
        f"provenance rule: {strict})"
    )


if __name__ == "__main__":
    main()
