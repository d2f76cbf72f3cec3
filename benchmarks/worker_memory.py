"""Memory of an episode worker: growth over episodes, and every process of a cold run (reported).

Target (the "main job in minutes" issue): at most 600 MiB per reference worker,
cold or warm. Two measurements, printed as JSON:

1. ``episodes`` (default): the reference agent plays the first ``--items``
   items of workflows-mini one after another in this process, as a pool
   worker does (whisper on one thread, the transcript cache off, the speech
   bank as it is: run it once before to warm it). RSS after each episode and
   the peak. ``--no-collect`` skips the full garbage collection the worker
   runs after each episode (`campaign/_jobs.py`, `free_episode`), to show
   what it saves.
2. ``--run``: a cold ``duplexbench run --condition clean -k 1 --workers 2``
   on an empty speech bank of its own (a temporary folder); every process of
   the run is sampled from ``/proc`` every 0.2 s, and each one's peak RSS is
   printed with its role guessed from its life span (the driver; render-ahead
   processes end before the last episode; episode workers and the render
   service live to the end) and the models it loaded (the render service
   holds piper and no whisper). ``--conditions text,clean --repeats 3`` runs
   what the demo runs.

    taskset -c 0 .venv/bin/python benchmarks/worker_memory.py [--items 12] [--no-collect]
    .venv/bin/python benchmarks/worker_memory.py --run
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TARGET_MIB = 600
MODEL_MARKS = {"whisper": "ctranslate2", "piper": "espeakbridge", "onnxruntime": "onnxruntime"}
"""A model's mark in a process's memory map (whisper runs on ctranslate2; piper
phonemizes with its espeakbridge module; piper and the embedding model on onnxruntime)."""


def rss_mib(pid: int | str = "self") -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    except OSError:
        return None
    return None


def episodes(items: int, collect: bool) -> dict[str, Any]:
    os.environ["DUPLEXBENCH_TRANSCRIPT_CACHE"] = "off"
    from duplexbench.agents._cascade import CascadeAgent  # noqa: PLC0415 - after the env
    from duplexbench.agents._reference import ReferenceDialogue  # noqa: PLC0415
    from duplexbench.items._load import item_checksum  # noqa: PLC0415
    from duplexbench.items._suite import load_suite  # noqa: PLC0415
    from duplexbench.orchestrator._audio_loop import AudioChannelConfig, AudioEpisode  # noqa: PLC0415
    from duplexbench.orchestrator._episode import EpisodeSetup  # noqa: PLC0415
    from duplexbench.speech._bank import SpeechBank  # noqa: PLC0415
    from duplexbench.suites._package import resolve_suite  # noqa: PLC0415

    bank, after = SpeechBank(), []
    for item in load_suite(resolve_suite("workflows-mini")).items[:items]:
        setup = EpisodeSetup(item, item_checksum(item), "bench", "reference", "clean")
        agent = CascadeAgent(ReferenceDialogue())
        AudioEpisode(setup, agent, bank, config=AudioChannelConfig()).run()
        if collect:
            gc.collect()
        after.append(rss_mib())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return {
        "collect_after_each_episode": collect,
        "rss_mib_after_each_episode": after,
        "peak_rss_mib": peak,
        "target_mib": TARGET_MIB,
        "ratio_to_target": round(peak / TARGET_MIB, 3),
    }


def descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(status.parent.name))
    out, todo = set(), [root]
    while todo:
        pid = todo.pop()
        out.add(pid)
        todo += children.get(pid, [])
    return out


def holds(pid: int) -> list[str]:
    """Which models a process has loaded, from its memory map."""
    try:
        maps = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return []
    return [name for name, mark in MODEL_MARKS.items() if mark in maps]


def run(conditions: str = "clean", repeats: int = 1) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="duplexbench-memory-") as tmp:
        env = {**os.environ, "DUPLEXBENCH_SPEECH_CACHE": str(Path(tmp) / "speech")}
        exe = str(Path(sys.executable).parent / "duplexbench")
        args = ["run", "--condition", conditions, "-k", str(repeats), "--workers", "2", "-q"]
        args += ["--out", str(Path(tmp) / "run")]
        start = time.perf_counter()
        child = subprocess.Popen([exe, *args], env=env, stdout=subprocess.DEVNULL)
        peak: dict[int, int] = {}
        seen: dict[int, tuple[float, float]] = {}
        models: dict[int, set[str]] = {}
        while child.poll() is None:
            now = time.perf_counter() - start
            for pid in descendants(child.pid):
                rss = rss_mib(pid)
                if rss is not None:
                    peak[pid] = max(peak.get(pid, 0), rss)
                    models.setdefault(pid, set()).update(holds(pid))
                    seen[pid] = (seen.get(pid, (now, now))[0], now)
            time.sleep(0.2)
        wall = time.perf_counter() - start
    end = max(last for _, last in seen.values())
    rows = []
    for pid, mib in sorted(peak.items()):
        first, last = seen[pid]
        role = "driver" if pid == child.pid else "to the end" if last > end - 5 else "ended early"
        if mib > 30:  # skip the resource tracker
            rows.append(
                {
                    "pid": pid,
                    "role": role,
                    "from_s": round(first),
                    "to_s": round(last),
                    "peak_rss_mib": mib,
                    "models": sorted(models.get(pid, ())),
                }
            )
    largest = max(row["peak_rss_mib"] for row in rows)
    return {
        "exit_code": child.returncode,
        "wall_s": round(wall, 1),
        "run": " ".join(args[:-2]),
        "render_service": os.environ.get("DUPLEXBENCH_RENDER_SERVICE", "on (default)"),
        "processes": rows,
        "largest_mib": largest,
        "target_mib": TARGET_MIB,
        "ratio_to_target": round(largest / TARGET_MIB, 3),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=12)
    parser.add_argument("--no-collect", action="store_true")
    parser.add_argument("--run", action="store_true", help="sample a cold 2-worker run")
    parser.add_argument("--conditions", default="clean", help="--run: e.g. text,clean (the demo)")
    parser.add_argument("--repeats", type=int, default=1, help="--run: -k (the demo: 3)")
    a = parser.parse_args()
    result = run(a.conditions, a.repeats) if a.run else episodes(a.items, not a.no_collect)
    print(json.dumps(result, indent=1))
