"""Performance benchmarks of the Workbench issue (reported, never asserted).

Targets: scoring one episode of a 14-field workflow under 5 ms median (no
judge); one text-channel oracle episode under 20 ms median. Prints JSON with
the medians and their ratio to the target (below 1.0 meets it).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from duplexbench.agents._builtin import OracleAgent
from duplexbench.items._load import item_checksum, load_item
from duplexbench.orchestrator._text_loop import EpisodeSetup, TextEpisode
from duplexbench.scoring._episode import score_episode
from duplexbench.trace._io import read_events, write_events

ROOT = Path(__file__).resolve().parents[1]


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    fn()  # warm up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(repeats: int = 200) -> dict[str, object]:
    item = load_item(ROOT / "tests" / "fixtures" / "benefits-enrollment.yaml")
    setup = EpisodeSetup(item, item_checksum(item), "bench", "oracle")

    def episode() -> object:
        return TextEpisode(setup, OracleAgent(), privileged=True).run()

    record = TextEpisode(setup, OracleAgent(), privileged=True).run()
    trace = ROOT / "runs" / "bench-events.jsonl"
    write_events(trace, record.events)
    events = read_events(trace)
    fields = sum(1 for a in item.artifacts for f in a.fields if f.graded)
    score_ms = median_ms(lambda: score_episode(item, events), repeats)
    read_ms = median_ms(lambda: read_events(trace), repeats)
    episode_ms = median_ms(episode, repeats)
    return {
        "python": sys.version.split()[0],
        "repeats": repeats,
        "score_episode": {
            "fields": fields,
            "events": len(events),
            "median_ms": round(score_ms, 3),
            "target_ms": 5.0,
            "ratio_to_target": round(score_ms / 5.0, 3),
        },
        "read_trace": {"median_ms": round(read_ms, 3)},
        "text_episode_oracle": {
            "median_ms": round(episode_ms, 3),
            "target_ms": 20.0,
            "ratio_to_target": round(episode_ms / 20.0, 3),
            "media_seconds_per_wall_second": round(record.events[-1].t_ms / episode_ms, 1),
        },
    }


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))
