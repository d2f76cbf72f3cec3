"""Effects-chain benchmark (reported, never asserted).

Target: the whole default chain (tau-Voice "regular" preset) on one minute of
16 kHz audio in under 100 ms on one core. Prints JSON with the best-of-N wall
time of the chain, its ratio to the target and each stage alone. Entry
``line``: the same minute streamed through :class:`UserLine` in 20 ms frames
(process + drain per frame, close at the end; target 300 ms), with its ratio
to the whole-clip chain. Run with `taskset -c 0` to hold it to one core.
"""

from __future__ import annotations

import json
import time

import numpy as np

from duplexbench.audio._effects import EffectsConfig, UserLine, apply_effects
from duplexbench.audio._pcm import SAMPLE_RATE, Int16Array

TARGET_MS = 100.0
LINE_TARGET_MS = 300.0
FRAME_MS = 20
STAGES = ("muffle", "noise", "bursts", "telephony", "frame_drops")


def speechlike(seconds: float = 60.0) -> Int16Array:
    """Harmonic 'voice' in 2 s phrases with pauses, 4 Hz syllable modulation."""
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    voice = sum(np.sin(2 * np.pi * 140 * h * t) / h for h in range(1, 12))
    envelope = np.abs(np.sin(2 * np.pi * 2 * t)) * (np.sin(2 * np.pi * 0.25 * t) > -0.3)
    samples: Int16Array = np.rint(6000 * voice * envelope).astype(np.int16)
    return samples


def best_ms(clean: Int16Array, config: EffectsConfig, repeats: int = 7) -> float:
    apply_effects(clean, config, seed=0)  # warm
    times = []
    for seed in range(repeats):
        start = time.perf_counter()
        apply_effects(clean, config, seed=seed)
        times.append(time.perf_counter() - start)
    return round(min(times) * 1000, 2)


def stream(clean: Int16Array, config: EffectsConfig, seed: int) -> None:
    line = UserLine(config, seed)
    line.note_speech(clean)
    step = SAMPLE_RATE * FRAME_MS // 1000
    for start in range(0, clean.shape[0], step):
        line.process(clean[start : start + step])
        line.drain()
    line.close()


def line_ms(clean: Int16Array, config: EffectsConfig, repeats: int = 5) -> float:
    stream(clean, config, 0)  # warm
    times = []
    for seed in range(repeats):
        start = time.perf_counter()
        stream(clean, config, seed)
        times.append(time.perf_counter() - start)
    return round(min(times) * 1000, 2)


def only(stage: str) -> EffectsConfig:
    return EffectsConfig(
        muffle=stage == "muffle",
        noise=stage == "noise",
        bursts=stage == "bursts",
        telephony=stage == "telephony",
        frame_drops=stage == "frame_drops",
    )


def main() -> None:
    clean = speechlike()
    full = best_ms(clean, EffectsConfig())
    stages = {s: best_ms(clean, only(s)) for s in STAGES}
    line = line_ms(clean, EffectsConfig())
    report = {
        "audio_s": 60,
        "wall_ms": full,
        "target_ms": TARGET_MS,
        "ratio_to_target": round(full / TARGET_MS, 3),
        "realtime_factor": round(full / 60_000, 5),
        "stage_alone_ms": stages,
        "line": {
            "frame_ms": FRAME_MS,
            "wall_ms": line,
            "target_ms": LINE_TARGET_MS,
            "ratio_to_target": round(line / LINE_TARGET_MS, 3),
            "ratio_to_chain": round(line / full, 2),
        },
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
