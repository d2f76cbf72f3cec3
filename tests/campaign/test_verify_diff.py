"""`first_difference`: wall times never count; any other change, even a line that is no
JSON object, is named by its event."""

from __future__ import annotations

import json
from pathlib import Path

from duplexbench.campaign._verify import first_difference


def _trace(path: Path, *events: object) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path


def test_wall_times_never_count(tmp_path: Path) -> None:
    a = _trace(tmp_path / "a", {"type": "x", "t_ms": 0, "wall_ms": 5, "data": {"v": 1}})
    b = _trace(tmp_path / "b", {"type": "x", "t_ms": 0, "wall_ms": 9, "data": {"v": 1}})
    assert first_difference(a, b) is None


def test_the_first_difference_is_named(tmp_path: Path) -> None:
    same = {"type": "x", "t_ms": 0, "data": {"v": 1}}
    a = _trace(tmp_path / "a", same, {"type": "artifact.field", "t_ms": 40, "data": {"new": 1}})
    b = _trace(tmp_path / "b", same, {"type": "artifact.field", "t_ms": 40, "data": {"new": 2}})
    assert first_difference(a, b) == "event 1 (artifact.field at 40 ms): data new differ"
    c = _trace(tmp_path / "c", same, [1, 2])  # not an object: compared, never a crash
    assert (first_difference(a, c) or "").startswith("event 1 (artifact.field at 40 ms)")
    d = _trace(tmp_path / "d", same)
    assert first_difference(a, d) == "the saved trace has 2 events, the re-run 1"
