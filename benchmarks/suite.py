"""Generating and validating the generated workflow suite (reported, never asserted).

Target (issue 5): generating and validating the whole suite, text channel,
under 2 minutes on one core (`taskset -c 0`). Prints JSON with the wall times,
items per second and the ratio to the target (below 1.0 meets it).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from duplexbench.items._suite import load_suite
from duplexbench.suites._quality.qa import quality_report
from duplexbench.suites.workflows.build import SUITE, build

TARGET_S = 120.0


def main() -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        generated = build(Path(tmp))  # every candidate passes every check
        built = time.perf_counter() - start
        start = time.perf_counter()
        suite = load_suite(Path(tmp) / SUITE)  # workflows-v2 today
        report = quality_report(suite.items)  # what `suite validate` runs
        validated = time.perf_counter() - start
    total = built + validated
    n = len(generated.items)
    return {
        "python": sys.version.split()[0],
        "suite": SUITE,
        "items": n,
        "candidates_rejected": len(generated.rejected),
        "generate_s": round(built, 2),
        "load_and_validate_s": round(validated, 2),
        "valid": report.ok,
        "items_per_second": round(n / total, 1),
        "target_s": TARGET_S,
        "ratio_to_target": round(total / TARGET_S, 4),
    }


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))
