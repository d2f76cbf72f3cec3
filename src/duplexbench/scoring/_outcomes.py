"""What the run-level blocks read of one episode, as Protocols.

The summary's blocks (`floor_block`, `correction_block`, `timing_block`,
`workflow_block`'s reliability, `action_block`) are computed by scoring over
these views. A full score (`EpisodeScore`, `ActionScore`) satisfies them, and
so does a typed row of a run's index (`campaign/_index_rows.py`), which is how
the report computes the same numbers without re-reading episode folders: one
formula, two sources, no stand-in scores.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from duplexbench.scoring._reliability import ItemRuns


class FieldOutcome(Protocol):
    """One graded field: right or wrong, and whether its fact was corrected in the call."""

    @property
    def correct(self) -> bool: ...

    @property
    def correction_linked(self) -> bool: ...


class AfaCounts(Protocol):
    @property
    def correct(self) -> int: ...

    @property
    def correct_deterministic(self) -> int: ...

    @property
    def total(self) -> int: ...


class FloorCounts(Protocol):
    """One episode's floor control (`floor.FloorScore`)."""

    @property
    def barge_ins(self) -> int: ...

    @property
    def yields(self) -> int: ...

    @property
    def ended_naturally(self) -> int: ...

    @property
    def stop_latencies_ms(self) -> Sequence[int]: ...

    @property
    def unintended_overlaps(self) -> int: ...

    @property
    def agent_turns(self) -> int: ...


class WorkflowOutcome(Protocol):
    """One workflow episode as the run-level blocks read it."""

    @property
    def item_id(self) -> str: ...

    @property
    def status(self) -> str: ...

    @property
    def ws(self) -> int | None: ...

    @property
    def ws_deterministic(self) -> int | None: ...

    @property
    def gates(self) -> Mapping[str, bool]: ...

    @property
    def afa(self) -> AfaCounts | None: ...

    @property
    def fields(self) -> Sequence[FieldOutcome]: ...

    @property
    def floor(self) -> FloorCounts | None: ...

    @property
    def time_to_resolution_ms(self) -> int | None: ...

    @property
    def termination_ms(self) -> int | None: ...


class ActionOutcome(Protocol):
    """One action episode as the actions block reads it."""

    @property
    def status(self) -> str: ...

    @property
    def action(self) -> str: ...

    @property
    def action_condition(self) -> str: ...

    @property
    def scenario(self) -> str: ...

    @property
    def immediate(self) -> bool | None: ...

    @property
    def deterministic_follow_through(self) -> bool | None: ...

    @property
    def judge_follow_through(self) -> bool | None: ...

    @property
    def timing_ms(self) -> int | None: ...

    @property
    def cue_forced(self) -> bool: ...

    @property
    def transcribed(self) -> bool: ...

    @property
    def fdb(self) -> Mapping[str, float | int | str | None]: ...


def item_runs(
    outcomes: Iterable[WorkflowOutcome], deterministic: bool = False
) -> dict[str, ItemRuns]:
    """Per item, the valid runs' WS outcomes and AFA counts (judge-assisted, or the
    deterministic tier alone), in first-seen item order: what `reliability` reads."""
    per_item: dict[str, list[WorkflowOutcome]] = defaultdict(list)
    for o in outcomes:
        if o.status == "ok":
            per_item[o.item_id].append(o)
    out = {}
    for item_id, runs in per_item.items():
        ws = [int((r.ws_deterministic if deterministic else r.ws) or 0) for r in runs]
        afas = [r.afa for r in runs if r.afa is not None]
        correct = sum(a.correct_deterministic if deterministic else a.correct for a in afas)
        out[item_id] = ItemRuns(ws, correct, sum(a.total for a in afas))
    return out


def per_task_success(outcomes: Iterable[WorkflowOutcome]) -> dict[str, float]:
    """Each item's Workflow Success rate over its valid repetitions (errors left out)."""
    return {item: sum(r.outcomes) / len(r.outcomes) for item, r in item_runs(outcomes).items()}


def per_task_afa(outcomes: Iterable[WorkflowOutcome]) -> dict[str, float]:
    """Each item's Artifact Field Accuracy pooled over its valid repetitions (items
    without graded fields left out)."""
    runs = item_runs(outcomes)
    return {item: r.fields_correct / r.fields_total for item, r in runs.items() if r.fields_total}
