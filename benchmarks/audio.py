"""Audio-channel benchmarks (reported, never asserted).

Targets: VirtualClock with the oracle and pre-rendered speech at least 500x
real time for a 3-minute conversation on one core; orchestrator overhead per
20 ms frame under 50 us with a no-op agent; peak memory of one episode under
300 MB; the reference agent at a real-time factor of at most 0.05 on one core,
with whisper decoding every utterance (the transcript cache off: a warm cache
would decode nothing). Prints JSON. Run with `taskset -c 0` to hold it to one core.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
import tracemalloc
from pathlib import Path

from duplexbench.agents._audio_builtin import AudioOracle, SilentAgent
from duplexbench.agents._cascade import CascadeAgent
from duplexbench.agents._reference import ReferenceDialogue
from duplexbench.items._load import item_checksum, load_item, parse_item
from duplexbench.items._workflow import WorkflowItem
from duplexbench.orchestrator._audio_loop import AudioChannelConfig, AudioEpisode
from duplexbench.orchestrator._episode import EpisodeSetup
from duplexbench.speech._bank import SpeechBank
from duplexbench.users._turntaking import TurnTakingConfig

ROOT = Path(__file__).resolve().parents[1]


def long_item() -> WorkflowItem:
    """The 14-field benefits workflow with every agent line said four times (over 3 min)."""
    data = load_item(ROOT / "tests" / "fixtures" / "benefits-enrollment.yaml").model_dump(
        mode="json", exclude_none=True
    )
    for turn in data["reference"]["turns"]:
        turn["say"] = " ".join([turn["say"]] * 4)
    return parse_item(data)


def setup(item: WorkflowItem) -> EpisodeSetup:
    return EpisodeSetup(item, item_checksum(item), "bench", "oracle", "clean")


def oracle(bank: SpeechBank, frame_ms: int) -> dict[str, object]:
    item = long_item()
    config = AudioChannelConfig(frame_ms=frame_ms)
    AudioEpisode(setup(item), AudioOracle(), bank, privileged=True, config=config).run()  # warm
    start = time.perf_counter()
    record = AudioEpisode(setup(item), AudioOracle(), bank, privileged=True, config=config).run()
    wall = time.perf_counter() - start
    tracemalloc.start()  # a separate run: tracing slows the loop down
    AudioEpisode(setup(item), AudioOracle(), bank, privileged=True, config=config).run()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    media = record.events[-1].t_ms / 1000
    return {
        "episode_peak_mb": round(peak / 2**20, 1),
        "frame_ms": frame_ms,
        "end": record.end_reason,
        "media_s": media,
        "wall_s": round(wall, 3),
        "media_seconds_per_wall_second": round(media / wall, 1),
        "target": 500,
    }


def noop_frames(bank: SpeechBank) -> dict[str, object]:
    item = load_item(ROOT / "tests" / "fixtures" / "meeting-scheduling.yaml")
    config = AudioChannelConfig(turn_taking=TurnTakingConfig(idle_nudge_ms=120_000))
    AudioEpisode(setup(item), SilentAgent(), bank, config=config).run()  # warm
    start = time.perf_counter()
    record = AudioEpisode(setup(item), SilentAgent(), bank, config=config).run()
    wall = time.perf_counter() - start
    frames = record.events[-1].t_ms // config.frame_ms
    return {
        "frames": frames,
        "us_per_frame": round(wall / frames * 1e6, 2),
        "target_us": 50,
        "note": "whole episode incl. trace, floor analysis; the agent does nothing",
    }


def reference_rtf(bank: SpeechBank) -> dict[str, object]:
    """Real-time factor (wall / media) of the reference cascade over whole workflows,
    the transcript cache off (every utterance decoded)."""
    saved = os.environ.get("DUPLEXBENCH_TRANSCRIPT_CACHE")
    os.environ["DUPLEXBENCH_TRANSCRIPT_CACHE"] = "off"
    try:
        return _reference_rtf(bank)
    finally:
        if saved is None:
            del os.environ["DUPLEXBENCH_TRANSCRIPT_CACHE"]
        else:
            os.environ["DUPLEXBENCH_TRANSCRIPT_CACHE"] = saved


def _reference_rtf(bank: SpeechBank) -> dict[str, object]:
    media = wall = 0.0
    names = ["form-expense-correction", "order-revocation", "meeting-scheduling"]
    for name in names:
        item = load_item(ROOT / "tests" / "fixtures" / f"{name}.yaml")
        config = AudioChannelConfig()
        AudioEpisode(setup(item), CascadeAgent(ReferenceDialogue()), bank, config=config).run()
        start = time.perf_counter()
        record = AudioEpisode(
            setup(item), CascadeAgent(ReferenceDialogue()), bank, config=config
        ).run()
        wall += time.perf_counter() - start
        media += record.events[-1].t_ms / 1000
    return {
        "items": names,
        "media_s": round(media, 1),
        "wall_s": round(wall, 2),
        "real_time_factor": round(wall / media, 3),
        "target_rtf": 0.05,
        "ratio_to_target": round(wall / media / 0.05, 3),
        "note": "warm speech bank (the agent's lines are cached after the first run); "
        "transcript cache off",
    }


def main() -> dict[str, object]:
    bank = SpeechBank()
    out: dict[str, object] = {"python": sys.version.split()[0]}
    out["oracle_3min"] = [oracle(bank, ms) for ms in (20, 40, 200)]
    out["noop_overhead"] = noop_frames(bank)
    out["reference_agent"] = reference_rtf(bank)
    out["process_peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    out["note"] = (
        "episode_peak_mb: Python and numpy allocations during one warm episode (tracemalloc); "
        "process_peak_rss_mb includes the TTS model loaded to render the clips the first time"
    )
    return out


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))
