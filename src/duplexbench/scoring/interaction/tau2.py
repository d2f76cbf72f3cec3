"""Reader of tau2-bench (τ-Voice) full-duplex trajectories into neutral timelines.

Input: a simulation JSON with ``ticks`` (each tick has ``user_chunk`` / ``agent_chunk``
with ``contains_speech``, ``turn_taking_action`` and ``speech_effects`` /
``source_effects``); tick duration comes from the run's ``results.json``
(``info.audio_native_config.tick_duration_seconds``, default 0.2 s). Tick i spans
[i*d, (i+1)*d).

Mapping:

* Contiguous ticks with speech form one segment per channel.
* User speech segment kind, by priority (``classify_user_segment``): "backchannel"
  when its first tick's action is ``backchannel``; "vocal_tic" / "non_directed" when
  any of its ticks carries a ``speech_insert`` of type ``vocal_tic`` /
  ``non_directed_phrase`` (in speech or source effects); else "turn".
* Out-of-turn inserts (ticks with a ``speech_insert`` but no user speech) become
  user segments of that kind spanning the consecutive ticks with the same insert.

Known differences from tau2-bench's own pipeline (``tau2.metrics.voice_interaction_metrics``):

* tau2 counts a user speech segment with an embedded insert that starts in silence
  both as a response-eligible turn and as a selectivity event; here it is a vocal
  tic / non-directed segment only.
* tau2 scans yield windows tick by tick with ``range(start, start + window)``, so a
  stop at exactly the window (2.0 s = 10 ticks) is *not* a yield there; here it is.
* For out-of-turn inserts during agent speech tau2 records only errors (never a
  "correct"); here the agent talking through counts as correct.
* tau2 drops the final 1-tick user segment together with its tick (end shrinks by
  one tick); here only the segment is dropped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from duplexbench.scoring.interaction.metrics import interaction_metrics
from duplexbench.scoring.interaction.timeline import (
    InteractionTimeline,
    Segment,
    SegmentKind,
    classify_user_segment,
)

DEFAULT_TICK_S = 0.2
_INSERT_KINDS: dict[str, SegmentKind] = {
    "vocal_tic": "vocal_tic",
    "non_directed_phrase": "non_directed",
}


def _speaks(chunk: dict[str, Any] | None) -> bool:
    return bool(chunk and chunk.get("contains_speech"))


def _inserts(chunk: dict[str, Any] | None) -> set[SegmentKind]:
    found: set[SegmentKind] = set()
    if not chunk:
        return found
    for key in ("speech_effects", "source_effects"):
        effects = chunk.get(key) or {}
        insert = effects.get("speech_insert") or {}
        kind = _INSERT_KINDS.get(str(insert.get("type", "")))
        if kind is not None:
            found.add(kind)
    return found


def _action(chunk: dict[str, Any] | None) -> str:
    tta = (chunk or {}).get("turn_taking_action") or {}
    return str(tta.get("action", ""))


def _runs(flags: list[bool]) -> list[tuple[int, int]]:
    """Half-open [start, end) tick runs where ``flags`` is true."""
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for i, flag in enumerate([*flags, False]):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            runs.append((start, i))
            start = None
    return runs


def ticks_to_timeline(
    ticks: list[dict[str, Any]], tick_s: float = DEFAULT_TICK_S
) -> InteractionTimeline:
    """Convert one simulation's ``ticks`` into an ``InteractionTimeline``."""
    ms = tick_s * 1000.0
    users = [t.get("user_chunk") for t in ticks]
    agents = [t.get("agent_chunk") for t in ticks]
    segments: list[Segment] = [
        Segment("agent", a * ms, b * ms) for a, b in _runs([_speaks(c) for c in agents])
    ]
    for a, b in _runs([_speaks(c) for c in users]):
        kinds = set().union(*(_inserts(users[i]) for i in range(a, b)))
        kind = classify_user_segment(
            backchannel=_action(users[a]) == "backchannel",
            vocal_tic="vocal_tic" in kinds,
            non_directed="non_directed" in kinds,
        )
        segments.append(Segment("user", a * ms, b * ms, kind=kind))
    for kind in ("vocal_tic", "non_directed"):
        flags = [not _speaks(c) and kind in _inserts(c) for c in users]
        segments.extend(Segment("user", a * ms, b * ms, kind=kind) for a, b in _runs(flags))
    return InteractionTimeline(segments=tuple(segments), end_ms=len(ticks) * ms)


def read_simulation(path: Path, tick_s: float = DEFAULT_TICK_S) -> InteractionTimeline:
    """Read one tau2 simulation JSON file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return ticks_to_timeline(list(data.get("ticks") or []), tick_s)


def experiment_tick_seconds(folder: Path) -> float:
    """Tick duration from ``folder/results.json`` (default 0.2 s when absent)."""
    results = folder / "results.json"
    if not results.is_file():
        return DEFAULT_TICK_S
    info = json.loads(results.read_text(encoding="utf-8")).get("info") or {}
    config = info.get("audio_native_config") or {}
    return float(config.get("tick_duration_seconds") or DEFAULT_TICK_S)


def simulation_files(folder: Path) -> list[Path]:
    """Simulation JSONs of an experiment: ``simulations/*.json`` or loose files."""
    sims = folder / "simulations"
    base = sims if sims.is_dir() else folder
    return sorted(p for p in base.glob("*.json") if p.name != "results.json")


def read_experiment(folder: Path) -> list[InteractionTimeline]:
    """All tick-bearing simulations of an experiment folder as timelines."""
    tick_s = experiment_tick_seconds(folder)
    timelines = [read_simulation(p, tick_s) for p in simulation_files(folder)]
    return [t for t in timelines if t.end_ms > 0]


def experiment_metrics(folder: Path) -> dict[str, Any]:
    """The τ-Voice panel pooled over an experiment folder."""
    return interaction_metrics(read_experiment(folder))
