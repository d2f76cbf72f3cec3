"""How much two busy processes get out of this machine's cores (reported; describes the machine).

    .venv/bin/python benchmarks/cores.py [--seconds 10]

A VM's "2 cores" may be two hyperthreads of one physical core, which share
its vector units: then two processes doing SIMD work (whisper, piper, the
embedding model) each run much slower than one alone, while plain Python
work scales nearly 2x. Three fixed workloads, each run by one process alone
and then by two processes at once (one thread each; `OMP_NUM_THREADS=1`,
`OPENBLAS_NUM_THREADS=1`):

- `python`: a pure-Python integer loop;
- `numpy_matmul`: float32 256x256 matrix products (BLAS, SIMD);
- `whisper`: faster-whisper tiny.en (the `whisper` engine's settings)
  transcribing one piper clip from the speech bank (skipped when the `asr`
  or `speech` extra is missing).

scaling = 2 x (work per second of each of two processes) / (work per second
of one alone): 2.0 means two independent cores, 1.0 one core shared. Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from typing import Any

CHILD = """
import os, sys, time
kind, seconds = sys.argv[1], float(sys.argv[2])
if kind == "python":
    def unit():
        total = 0
        for i in range(200_000):
            total += i * i % 7
elif kind == "numpy_matmul":
    import numpy as np
    a = np.random.default_rng(0).random((256, 256), dtype=np.float32)
    def unit():
        for _ in range(20):
            a @ a
else:
    from duplexbench.speech._asr import WhisperASR
    from duplexbench.speech._bank import SpeechBank
    engine = WhisperASR()
    text = "My reference number is R F 9 9 9 8, and the total is 83 dollars."
    clip = SpeechBank().clip(text, "piper:joe").samples
    def unit():
        engine.transcribe(clip)
unit()
print("READY", flush=True)
sys.stdin.readline()
start, done = time.perf_counter(), 0
while time.perf_counter() - start < seconds:
    unit()
    done += 1
print(done / (time.perf_counter() - start), flush=True)
"""


def rates(kind: str, processes: int, seconds: float) -> list[float]:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    env["DUPLEXBENCH_ASR_THREADS"] = "1"
    env["DUPLEXBENCH_TRANSCRIPT_CACHE"] = "off"
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, kind, str(seconds)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(processes)
    ]
    for child in children:  # all loaded before any starts its timed loop
        assert child.stdout is not None and child.stdout.readline().strip() == "READY"
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    return [float(child.communicate()[0].strip()) for child in children]


def main() -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    out: dict[str, Any] = {"cpu_count": os.cpu_count(), "load_1min": os.getloadavg()[0]}
    kinds = ["python", "numpy_matmul"]
    from importlib.util import find_spec  # noqa: PLC0415

    if find_spec("faster_whisper") and find_spec("piper"):
        kinds.append("whisper")
    else:
        out["whisper"] = "skipped: pip install 'duplexbench[asr,speech]'"
    for kind in kinds:
        [alone] = rates(kind, 1, args.seconds)
        pair = rates(kind, 2, args.seconds)
        out[kind] = {
            "per_second_alone": round(alone, 2),
            "per_second_each_of_two": [round(r, 2) for r in pair],
            "scaling": round(sum(pair) / alone, 2),
        }
    print(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
