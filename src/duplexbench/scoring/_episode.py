"""Scoring one workflow episode: the four gates, Workflow Success and AFA.

A pure function of (item, trace, judge cache): WS = TS * PV * AC * AV.
- TS: every terminal predicate (and the expected final database) holds, or
  every predicate of one alternate terminal set holds.
- PV: no forbidden predicate holds, every critical predicate holds, and the
  environment blocked no gated action (an attempt without a valid approval,
  after a revocation or outside the approved scope always violates PV), and
  the agent did not end the episode with an error (`errors.py`: an agent
  error is a failed episode, a harness error is left out).
- AC: every required action holds and every required evidence document
  (gold.required_evidence plus each graded field's `evidence`) was retrieved.
- AV: per artifact, lifecycle >= its minimum, no required field missing,
  every graded field correct and no stale field. A value written before any
  source of it (`provenance.py`) is not correct, unless the agent is exempt
  (`exempt`: the oracle or a privileged agent, which read the gold).
Every wrong or missing graded field gets one cause (`attribution.py`).
A trace whose workbench events disagree with a replay of its tool calls and
user approvals (`replay_check.py`) is a failed episode (`agent_error`
`tampered: ...`, every gate and graded field failed): it counts in every rate,
so forging results can never hide a failure, and the run is labelled invalid.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from duplexbench.items import WorkflowItem, lifecycle_rank
from duplexbench.scoring._attribution import attribute
from duplexbench.scoring._errors import NO_AGENT_ERROR, episode_error
from duplexbench.scoring._fields import FieldScore, score_fields, without_unsupported
from duplexbench.scoring._floor_control import FloorScore, floor_score
from duplexbench.scoring._interaction.record import TimelineRecord, timeline_record
from duplexbench.scoring._judge import FieldJudge
from duplexbench.scoring._predicates import database_matches, describe, holds
from duplexbench.scoring._provenance import Provenance, episode_provenance
from duplexbench.scoring._repairs import RepairScore, repair_score
from duplexbench.scoring._replay_check import TAMPERED, replay_check
from duplexbench.scoring._usage import Usage, episode_usage
from duplexbench.scoring._view import STATE_EVENTS, EpisodeView, build_view, empty_view
from duplexbench.trace import EpisodeStart, TraceEvent

Gate = Literal["TS", "PV", "AC", "AV"]
GATES: tuple[Gate, ...] = ("TS", "PV", "AC", "AV")


class Check(BaseModel):
    model_config = ConfigDict(extra="forbid")
    gate: Gate
    name: str
    passed: bool


class Afa(BaseModel):
    model_config = ConfigDict(extra="forbid")
    correct: int
    correct_deterministic: int
    total: int


class EpisodeScore(BaseModel):
    """Saved as `result.json` in the episode folder."""

    model_config = ConfigDict(extra="forbid")
    item_id: str
    repetition: int
    status: Literal["ok", "error"]
    error: str | None = Field(None, description="A harness error: the episode is left out.")
    agent_error: str | None = Field(
        None, description="The agent's error that ended the episode: scored as a failure."
    )
    end_reason: str = ""
    ws: int | None = None
    ws_deterministic: int | None = None
    gates: dict[str, bool] = Field(default_factory=dict)
    av_deterministic: bool | None = None
    afa: Afa | None = None
    fields: list[FieldScore] = Field(default_factory=list)
    checks: list[Check] = Field(default_factory=list)
    tool_calls: int = 0
    oracle_tool_calls: int = 0
    tool_efficiency: float | None = None
    blocked_actions: list[dict[str, Any]] = Field(default_factory=list)
    termination_ms: int = 0
    time_to_resolution_ms: int | None = Field(
        None, description="Media time at which the target state first held."
    )
    floor: FloorScore | None = None
    repairs: RepairScore | None = Field(
        None, description="The caller's repairs (repeat, spell, ...) and the time they took."
    )
    usage: Usage = Field(default_factory=Usage)
    interaction: TimelineRecord | None = Field(
        None, description="Speech timeline of the call (audio channel) for the τ-Voice panel."
    )
    provenance: Provenance | None = Field(
        None, description="Where each graded value could have come from (provenance.py)."
    )


def _repetition(events: list[TraceEvent]) -> int:
    first = events[0] if events else None
    return first.data.repetition if isinstance(first, EpisodeStart) else 0


def error_score(item_id: str, repetition: int, message: str) -> EpisodeScore:
    """The score of an episode that could not run or cannot be read."""
    return EpisodeScore(item_id=item_id, repetition=repetition, status="error", error=message)


def tampered_score(
    item: WorkflowItem,
    repetition: int,
    reason: str,
    view: EpisodeView | None = None,
    check: str = "trace replays",
) -> EpisodeScore:
    """A trace that cannot be trusted: its logged results the replay does not reproduce,
    or (no `view`) a trace that does not match its item, checksum or folder, or cannot
    be read. A failed episode, never left out (so changing files can never hide a
    failure): every graded field counted wrong and the reason kept in `agent_error`,
    prefixed `tampered:` (`replay_check.TAMPERED`)."""
    total = sum(1 for a in item.artifacts for f in a.fields if f.graded)
    reason = reason if reason.startswith(TAMPERED) else f"{TAMPERED} {reason}"
    return EpisodeScore(
        item_id=item.id,
        repetition=repetition,
        status="ok",
        agent_error=reason,
        end_reason=view.end_reason if view else "error",
        ws=0,
        ws_deterministic=0,
        gates=dict.fromkeys(GATES, False),
        av_deterministic=False,
        afa=Afa(correct=0, correct_deterministic=0, total=total),
        checks=[Check(gate="PV", name=check, passed=False)],
        termination_ms=view.end_ms if view else 0,
    )


def score_episode(
    item: WorkflowItem,
    events: list[TraceEvent],
    judge: FieldJudge | None = None,
    *,
    exempt: bool = False,
) -> EpisodeScore:
    """Score a complete trace of `item`; a harness error scores as `error`, an agent
    error as a failed episode (`errors.py`). Unsupported values count as wrong unless
    `exempt` (the run's agent reads the gold: `unsupported.exemption`)."""
    view = build_view(item, events)
    repetition = _repetition(events)
    tampering = replay_check(item, events)
    if tampering is not None:  # logged results the workbench would not have produced
        return tampered_score(item, repetition, tampering.reason, view)
    failure = episode_error(events)
    if failure is not None and failure.kind == "harness":  # retried, left out of the rates
        return error_score(item.id, repetition, failure.message)
    agent_error = None if failure is None else failure.message  # a failed episode (errors.py)
    checks = _target_state(view) + _process_validity(view) + _action_completion(view)
    if agent_error is not None:
        checks.append(Check(gate="PV", name=NO_AGENT_ERROR, passed=False))
    graded = score_fields(view, judge)
    provenance = _provenance(view, graded)
    if not exempt:
        unsupported = {v.key for v in provenance.values if v.unsupported}
        graded = without_unsupported(graded, unsupported)
    fields = attribute(view, graded)
    av_checks, av_det = _artifact_validity(view, fields)
    checks += av_checks
    gates = {g: all(c.passed for c in checks if c.gate == g) for g in GATES}
    ws = int(all(gates.values()))
    ws_det = int(gates["TS"] and gates["PV"] and gates["AC"] and av_det)
    calls, oracle = len(view.calls), item.reference.tool_call_count
    return EpisodeScore(
        item_id=item.id,
        repetition=repetition,
        status="ok",
        agent_error=agent_error,
        end_reason=view.end_reason,
        ws=ws,
        ws_deterministic=ws_det,
        gates=gates,
        av_deterministic=av_det,
        afa=Afa(
            correct=sum(f.correct for f in fields),
            correct_deterministic=sum(f.correct_deterministic for f in fields),
            total=len(fields),
        ),
        fields=fields,
        checks=checks,
        tool_calls=calls,
        oracle_tool_calls=oracle,
        tool_efficiency=(calls / oracle) if oracle else None,
        blocked_actions=[
            {"action": b.data.action, "target": b.data.target, "reason": b.data.reason}
            for b in view.blocked
        ],
        termination_ms=view.end_ms,
        time_to_resolution_ms=time_to_resolution(item, events),
        floor=floor_score(view),
        repairs=repair_score(events),
        interaction=timeline_record(events),
        usage=episode_usage(events),
        provenance=provenance,
    )


def _provenance(view: EpisodeView, fields: list[FieldScore]) -> Provenance:
    """Provenance of the graded values, with the fields' verdicts (judge included)."""
    artifacts = {a: s.fields for a, s in view.state.artifacts.items()}
    correct = {f"{f.artifact}.{f.field}": f.correct for f in fields}
    return episode_provenance(
        view.item, view.events, artifacts, view.state.database, correct=correct
    )


def target_state_holds(view: EpisodeView) -> bool:
    return all(c.passed for c in _target_state(view))


def time_to_resolution(item: WorkflowItem, events: list[TraceEvent]) -> int | None:
    """Media time of the first state change after which the target state holds."""
    view = empty_view(item)
    for event in events:
        view.apply(event)
        if event.type in STATE_EVENTS and target_state_holds(view):
            return event.t_ms
    return None


def _target_state(view: EpisodeView) -> list[Check]:
    gold = view.item.gold
    primary = [Check(gate="TS", name=describe(p), passed=holds(p, view)) for p in gold.terminal]
    if gold.final_database is not None:
        ok = database_matches(view, gold.final_database)
        primary.append(Check(gate="TS", name="final_database", passed=ok))
    if primary and all(c.passed for c in primary):
        return primary
    for i, alternate in enumerate(gold.alternate_terminals):
        if all(holds(p, view) for p in alternate):
            return [Check(gate="TS", name=f"alternate_terminals[{i}]", passed=True)]
    return primary or [Check(gate="TS", name="terminal", passed=False)]


def _process_validity(view: EpisodeView) -> list[Check]:
    gold = view.item.gold
    checks = [
        Check(gate="PV", name=f"not {describe(p)}", passed=not holds(p, view))
        for p in gold.forbidden
    ]
    checks += [Check(gate="PV", name=describe(p), passed=holds(p, view)) for p in gold.critical]
    for blocked in view.blocked:
        name = f"blocked {blocked.data.action} ({blocked.data.reason})"
        checks.append(Check(gate="PV", name=name, passed=False))
    return checks


def required_evidence(item: WorkflowItem) -> list[str]:
    docs = list(item.gold.required_evidence)
    for artifact in item.artifacts:
        for spec in artifact.fields:
            if spec.graded and spec.evidence and spec.evidence not in docs:
                docs.append(spec.evidence)
    return docs


def _action_completion(view: EpisodeView) -> list[Check]:
    checks = [
        Check(gate="AC", name=describe(p), passed=holds(p, view))
        for p in view.item.gold.required_actions
    ]
    for doc in required_evidence(view.item):
        checks.append(Check(gate="AC", name=f"evidence {doc}", passed=doc in view.retrieved))
    return checks


def _artifact_validity(view: EpisodeView, fields: list[FieldScore]) -> tuple[list[Check], bool]:
    checks: list[Check] = []
    deterministic_ok = True
    for artifact in view.item.artifacts:
        mine = [f for f in fields if f.artifact == artifact.id]
        lifecycle = view.state.artifacts[artifact.id].lifecycle
        structural = [
            (
                f"{artifact.id} lifecycle {lifecycle} >= {artifact.min_lifecycle}",
                lifecycle_rank(lifecycle) >= lifecycle_rank(artifact.min_lifecycle),
            ),
            (f"{artifact.id} required fields present", not any(f.missing for f in mine)),
            (f"{artifact.id} no stale field", not any(f.stale for f in mine)),
        ]
        for name, ok in structural:
            checks.append(Check(gate="AV", name=name, passed=ok))
        wrong = [f.field for f in mine if not f.correct]
        checks.append(
            Check(
                gate="AV",
                name=f"{artifact.id} AFA = 1 (wrong: {wrong})"
                if wrong
                else f"{artifact.id} AFA = 1",
                passed=not wrong,
            )
        )
        deterministic_ok = (
            deterministic_ok
            and all(ok for _, ok in structural)
            and all(f.correct_deterministic for f in mine)
        )
    return checks, deterministic_ok
