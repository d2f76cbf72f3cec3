"""Reader of tau2-bench (τ-Voice) full-duplex trajectories into neutral timelines.

Input: a simulation JSON with ``ticks`` (each tick has ``user_chunk`` / ``agent_chunk``
with ``contains_speech``, ``turn_taking_action`` and ``speech_effects`` /
``source_effects``); tick duration comes from the run's ``results.json``
(``info.audio_native_config.tick_duration_seconds``, default 0.2 s). Tick i spans
[i*d, (i+1)*d).

Mapping:

* Contiguous ticks with speech form one segment per channel; the timeline keeps the
  tick as ``tick_ms``.
* User speech segment kind, by priority (``classify_user_segment``): "backchannel"
  when its first tick's action is ``backchannel``; "vocal_tic" / "non_directed" when
  any of its ticks carries a ``speech_insert`` of type ``vocal_tic`` /
  ``non_directed_phrase`` (in speech or source effects); else "turn". Every insert
  kind found in it is kept in ``inserts``.
* Out-of-turn inserts (ticks with a ``speech_insert`` but no user speech) become
  ``out_of_turn`` user segments of that kind, one per run of consecutive such ticks
  carrying the same insert (type and text), as tau2-bench groups its effect segments
  (an insert present twice on a tick, in speech and source effects, opens a second run).

Definitional differences from tau2-bench (``tau2.metrics.voice_interaction_metrics``):
none by default. ``experiment_metrics`` uses tau2-bench's rule set (``rules="tau2"``),
which reproduces tau2-bench's own numbers on its golden experiment; ``tau2_rules.py``
and docs/metrics.md list each difference from the duplexbench rules. With
``rules="duplexbench"`` the same timelines are scored as our own traces are: a
speech segment with an insert counts as a vocal tic / non-directed segment only (not
also as a turn), an out-of-turn insert the agent talks through is a correct event,
yield windows are inclusive and measured to the agent segment's end, and the
call-end artifact keeps ``end_ms``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from duplexbench.scoring._interaction.metrics import Rules, interaction_metrics
from duplexbench.scoring._interaction.timeline import (
    InsertKind,
    InteractionTimeline,
    Segment,
    classify_user_segment,
)

DEFAULT_TICK_S = 0.2
_INSERT_KINDS: dict[str, InsertKind] = {
    "vocal_tic": "vocal_tic",
    "non_directed_phrase": "non_directed",
}


def _speaks(chunk: dict[str, Any] | None) -> bool:
    return bool(chunk and chunk.get("contains_speech"))


def _insert_keys(chunk: dict[str, Any] | None) -> list[tuple[InsertKind, str]]:
    """(kind, text) of each speech insert on a chunk (speech and source effects)."""
    found: list[tuple[InsertKind, str]] = []
    for key in ("speech_effects", "source_effects"):
        effects = (chunk or {}).get(key) or {}
        insert = effects.get("speech_insert") or {}
        kind = _INSERT_KINDS.get(str(insert.get("type", "")))
        if kind is not None:
            found.append((kind, str(insert.get("text") or "")))
    return found


def _inserts(chunk: dict[str, Any] | None) -> set[InsertKind]:
    return {kind for kind, _ in _insert_keys(chunk)}


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


def _out_of_turn(users: list[dict[str, Any] | None], ms: float) -> list[Segment]:
    """Runs of non-speech ticks carrying the same insert (kind and text).

    An insert on a tick twice (speech and source effects) opens a second run. When a
    tick carries fewer copies than the one before, the most recently opened runs go
    on and the older ones end, as tau2-bench extends its effect segments.
    """
    Key = tuple[InsertKind, str]
    open_runs: dict[Key, list[int]] = {}  # start ticks, oldest first
    closed: list[tuple[Key, int, int]] = []
    for i, chunk in enumerate([*users, None]):
        last = i == len(users)
        here: Counter[Key] = Counter() if last or _speaks(chunk) else Counter(_insert_keys(chunk))
        for key in set(open_runs) | set(here):
            runs = open_runs.get(key, [])
            going_on = min(len(runs), here[key])
            closed.extend((key, start, i) for start in runs[: len(runs) - going_on])
            open_runs[key] = runs[len(runs) - going_on :] + [i] * (here[key] - going_on)
    return [
        Segment("user", a * ms, b * ms, kind=kind, text=text, out_of_turn=True)
        for (kind, text), a, b in closed
    ]


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
        kinds: set[InsertKind] = set().union(*(_inserts(users[i]) for i in range(a, b)))
        kind = classify_user_segment(
            backchannel=_action(users[a]) == "backchannel",
            vocal_tic="vocal_tic" in kinds,
            non_directed="non_directed" in kinds,
        )
        segments.append(Segment("user", a * ms, b * ms, kind=kind, inserts=frozenset(kinds)))
    segments.extend(_out_of_turn(users, ms))
    return InteractionTimeline(segments=tuple(segments), end_ms=len(ticks) * ms, tick_ms=ms)


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


def experiment_metrics(folder: Path, rules: Rules = "tau2") -> dict[str, Any]:
    """The τ-Voice panel pooled over an experiment folder (tau2-bench's rules by default)."""
    return interaction_metrics(read_experiment(folder), rules=rules)
