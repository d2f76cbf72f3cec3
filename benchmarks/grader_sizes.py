"""Seconds to grade a 1 MB value with every grader (target: under 1 s each).

Three shapes of value: words, "and"-joined words (the list split that was cubic) and
comma-separated words. Prints JSON: per grader and shape, the seconds and the ratio
to the 1 s target. tests/values/test_grader_scaling.py checks the linear scaling.

    .venv/bin/python benchmarks/grader_sizes.py [--mb 1]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "values"))

from test_grader_scaling import DEFAULT_GOLD, GOLD, SHAPES

from duplexbench.items import GraderSpec
from duplexbench.values import grade
from duplexbench.values._graders import registered_graders

TARGET_S = 1.0


def sized(shape: str, size: int) -> str:
    """A value of `shape` at least `size` characters long, cut to `size`."""
    units = 1000
    while len(text := SHAPES[shape](units)) < size:
        units *= 2
    return text[:size]


def main(mb: float) -> dict[str, object]:
    size = int(mb * 1_000_000)
    values = {shape: sized(shape, size) for shape in SHAPES}
    rows = []
    for grader in sorted(registered_graders()):
        gold, options = GOLD.get(grader, DEFAULT_GOLD)
        spec = GraderSpec(name=grader, options=options)
        for shape, value in values.items():
            start = time.perf_counter()
            grade(spec, value, "rock and roll" if grader in {"exact", "casefold_exact"} else gold)
            seconds = time.perf_counter() - start
            rows.append(
                {"grader": grader, "shape": shape, "seconds": round(seconds, 3),
                 "ratio_to_target": round(seconds / TARGET_S, 3)}
            )  # fmt: skip
    worst = max(rows, key=lambda r: float(r["seconds"]))  # type: ignore[arg-type]
    return {"value_bytes": size, "target_s": TARGET_S, "worst": worst, "rows": rows}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=1.0)
    print(json.dumps(main(parser.parse_args().mb), indent=1))
