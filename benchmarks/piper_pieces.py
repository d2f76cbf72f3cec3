"""piper on long lines: rendered whole against in pieces of at most N characters (reported).

    taskset -c 0 .venv/bin/python benchmarks/piper_pieces.py [--limits 0 120 90 60]

The texts are the reference agent's read-backs of workflows-mini ("Here is what
I have: <field> <value>, <field> <value>, ... Shall I submit now?"), one per
item, every field the caller has a fact for: one sentence of commas, 20-60 s of
speech, the lines that made a worker's memory climb past 1 GB. Each limit
renders all of them with the `piper` engine (noise 0, one thread) in its own
process; 0 renders each text whole (piper's own sentence split only). Prints
JSON per limit: CPU seconds, seconds of audio, the process's peak RSS
(`ru_maxrss`, the model and Python included) and the longest piece.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

CHILD = """
import json, resource, sys, time
from duplexbench.speech import engines
from duplexbench.speech._tts import SynthesisSettings
limit, texts = int(sys.argv[1]), json.loads(sys.stdin.read())
engines.PIPER_PIECE_CHARS = limit or 10**9
tts = engines.PiperTTS()
tts.synthesize("Warm up.", "joe", SynthesisSettings())
start, seconds = time.process_time(), 0.0
for text in texts:
    samples, rate = tts.synthesize(text, "joe", SynthesisSettings())
    seconds += len(samples) / rate
longest = max(len(p) for t in texts for p in engines.piper_pieces(t, limit or 10**9))
print(json.dumps({
    "cpu_s": round(time.process_time() - start, 1),
    "audio_s": round(seconds, 1),
    "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    "longest_piece_chars": longest,
}))
"""


def readbacks() -> list[str]:
    from duplexbench.agents._reference.phrasing import Phrasing  # noqa: PLC0415
    from duplexbench.items._suite import load_suite  # noqa: PLC0415
    from duplexbench.items._workflow import WorkflowItem  # noqa: PLC0415
    from duplexbench.suites._package import resolve_suite  # noqa: PLC0415

    texts = []
    for item in load_suite(str(resolve_suite("workflows-mini"))).items:
        assert isinstance(item, WorkflowItem)
        pairs = [(None, f.id, str(f.say or f.value)) for f in item.user.facts]
        texts.append(Phrasing().readback(pairs, "submit"))
    return texts


def main() -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limits", type=int, nargs="+", default=[0, 120, 90, 60])
    args = parser.parse_args()
    texts = readbacks()
    out: dict[str, Any] = {"texts": len(texts), "chars": sum(len(t) for t in texts)}
    for limit in args.limits:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(limit)],
            input=json.dumps(texts),
            capture_output=True,
            text=True,
            check=True,
        )
        out[f"limit_{limit or 'whole'}"] = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
