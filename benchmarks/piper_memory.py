"""piper's memory: onnxruntime's default session against the engine's (reported, never asserted).

    taskset -c 0 .venv/bin/python benchmarks/piper_memory.py [--clips 40]

Renders the same `--clips` texts of workflows-mini (its `suite build` texts:
the longest ones and the rest spread by length) with the `piper` engine's
synthesis (noise 0, one intra-op thread), once per setting, each in its own
process:

- `before`: the voice as `PiperVoice.load` builds it (onnxruntime's default
  session options), but on one intra-op thread like the engine (onnxruntime's
  default is one per physical core, whatever the affinity, and the samples
  depend on it);
- `after`: the engine as it is (`duplexbench.speech._piper_session`).

For each: the peak RSS (`ru_maxrss`), the RSS when done, CPU seconds, and a
sha256 over every rendered sample (the same in both: no option changes a
sample). Prints JSON with the ratio after/before of the peak.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import subprocess
import sys
from typing import Any


def texts(count: int) -> list[str]:
    from duplexbench.items._suite import load_suite  # noqa: PLC0415
    from duplexbench.suites._package import resolve_suite  # noqa: PLC0415
    from duplexbench.suites._prerender import build_requests  # noqa: PLC0415

    suite = load_suite(str(resolve_suite("workflows-mini")))
    ordered = sorted({t for t, _ in build_requests(suite)}, key=lambda t: (len(t), t))
    longest, rest = ordered[-count // 4 :], ordered[: -count // 4]
    step = max(1, len(rest) // max(1, count - len(longest)))
    return rest[::step][: count - len(longest)] + longest


def _rss_mib() -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) // 1024
    return 0


def measure(setting: str, count: int) -> dict[str, Any]:
    """Render in this process (call in a fresh one)."""
    from duplexbench.speech._engines import PiperTTS  # noqa: PLC0415
    from duplexbench.speech._tts import SynthesisSettings  # noqa: PLC0415

    lines = texts(count)
    engine = PiperTTS()
    if setting == "before":
        import onnxruntime  # noqa: PLC0415
        from piper import PiperVoice  # noqa: PLC0415
        from piper.config import PiperConfig  # noqa: PLC0415

        options = onnxruntime.SessionOptions()  # what PiperVoice.load passes ...
        options.intra_op_num_threads = 1  # ... but one thread: the samples depend on it
        session = onnxruntime.InferenceSession(
            str(engine._model_path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        config = PiperConfig.from_dict(json.loads(engine._config_path.read_text()))
        engine._voice = PiperVoice(session=session, config=config)
    engine._loaded()
    loaded = _rss_mib()
    digest = hashlib.sha256()
    start = resource.getrusage(resource.RUSAGE_SELF)
    for text in lines:
        samples, _ = engine.synthesize(text, "joe", SynthesisSettings())
        digest.update(samples.tobytes())
    end = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "setting": setting,
        "clips": len(lines),
        "longest_chars": max(len(t) for t in lines),
        "rss_loaded_mib": loaded,
        "peak_rss_mib": end.ru_maxrss // 1024,
        "rss_after_mib": _rss_mib(),
        "cpu_s": round(end.ru_utime - start.ru_utime + end.ru_stime - start.ru_stime, 1),
        "samples_sha256": digest.hexdigest()[:16],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clips", type=int, default=40)
    parser.add_argument("--setting", choices=("before", "after"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.setting:
        print(json.dumps(measure(args.setting, args.clips)))
        return
    rows = {}
    for setting in ("before", "after"):
        cmd = [sys.executable, __file__, "--clips", str(args.clips), "--setting", setting]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        rows[setting] = json.loads(out.strip().splitlines()[-1])
    before, after = rows["before"], rows["after"]
    report = {
        "before": before,
        "after": after,
        "peak_ratio_after_before": round(after["peak_rss_mib"] / before["peak_rss_mib"], 2),
        "identical_samples": before["samples_sha256"] == after["samples_sha256"],
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
