"""Act observer benchmark (reported, never asserted).

Target: at most 20 ms per sentence on one core with the default (semantic)
observer, the model loaded once per process. Reads every sentence of the
held-out observer corpus once, in one item of its archetype, with a fresh
sentence cache (every sentence is new to the observer, as in a call), and
prints JSON: model load time, mean / median / 95th-percentile ms per sentence,
the mean's ratio to the target, the same for the repair requests ("sorry, could
you spell that?") and for the rest of the corpus apart, and the rules layer
alone for comparison. Run with `taskset -c 0` to hold it to one core.
"""

from __future__ import annotations

import json
import statistics
import time

from duplexbench.items._suite import load_suite
from duplexbench.items._workflow import WorkflowItem
from duplexbench.suites._observer_corpus import ContextIndex, load_corpus
from duplexbench.suites._package import DATA
from duplexbench.users._observer import ActObserver, ObserverConfig
from duplexbench.users._observer.cues import sentences
from duplexbench.users._observer.embedder import shared_embedder

TARGET_MS = 20.0


def per_sentence(config: ObserverConfig) -> list[tuple[float, bool]]:
    """Milliseconds per sentence, each with whether its entry is a repair request."""
    items = [i for i in load_suite(DATA / "workflows-v2").items if isinstance(i, WorkflowItem)]
    index = ContextIndex(items, per_entry=1)
    observers: dict[str, ActObserver] = {}
    times: list[tuple[float, bool]] = []
    for entry in load_corpus(["test"]):
        for ctx in index.contexts(entry):
            observer = observers.get(ctx.item.id)
            if observer is None:
                observer = observers.setdefault(ctx.item.id, ActObserver(ctx.item, config))
            before: list[str] = []
            for sentence in sentences(ctx.text):
                start = time.perf_counter()
                observer.sentence_acts(sentence, before)
                times.append(((time.perf_counter() - start) * 1000, entry.repair))
                before.append(sentence)
    return times


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "sentences": len(times),
        "mean_ms": round(statistics.fmean(times), 2),
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
    }


def main() -> None:
    start = time.perf_counter()
    shared_embedder()
    load_ms = round((time.perf_counter() - start) * 1000, 1)
    timed = per_sentence(ObserverConfig())
    semantic = summary([ms for ms, _ in timed])
    rules = summary([ms for ms, _ in per_sentence(ObserverConfig(kind="rules"))])
    report = {
        "target_ms_per_sentence": TARGET_MS,
        "model_load_ms": load_ms,
        "semantic": semantic | {"ratio_to_target": round(semantic["mean_ms"] / TARGET_MS, 3)},
        "semantic_repair_requests": summary([ms for ms, repair in timed if repair]),
        "semantic_other": summary([ms for ms, repair in timed if not repair]),
        "rules": rules,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
