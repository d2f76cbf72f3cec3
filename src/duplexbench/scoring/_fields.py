"""Artifact field grading: deterministic tier, judge tier, stale-fact detection.

A field is correct only at grader score 1.0. An empty value scores 0 and is
never judged. A field whose user fact was corrected during the conversation
(a superseding version was revealed) and that still holds a superseded value
is stale: it scores 0 whatever the grader says. A value the grader accepts but
that was written before any source of it (`provenance.py`: a guess or a leak)
is unsupported and scores 0 too, unless the run's agent is exempt (the oracle, a
privileged agent). Every wrong field gets one cause
(`attribution.py`, docs/metrics.md "Failure attribution").
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from duplexbench.items import JUDGEABLE_GRADERS, Artifact, ArtifactField
from duplexbench.scoring._judge import FieldJudge, JudgeQuestion
from duplexbench.scoring._view import EpisodeView
from duplexbench.values import canonical_text, grade, is_empty, values_match

Cause = Literal[
    "never_asked", "asked_not_understood", "misheard", "wrong_write", "not_written", "unsupported"
]
"""Why a graded field is wrong or missing (docs/metrics.md, "Failure attribution")."""


def field_correct(score: float) -> bool:
    """The one rule: a graded field is correct only at score 1.0 (a partial grade, a
    stale value or a missing field is not). `FieldScore` and the report's index rows
    (`campaign/index_rows.FieldRow`) both read it."""
    return score == 1.0


class FieldScore(BaseModel):
    model_config = ConfigDict(extra="forbid")
    artifact: str
    field: str
    grader: str
    gold: Any
    predicted: Any
    score: float
    deterministic_score: float
    judged: bool | None = None
    judge_source: Literal["endpoint", "cache"] | None = None
    """Where the judge verdict came from: fetched from the endpoint in this run, or only
    read from the verdict cache (docs/security.md)."""
    stale: bool = False
    missing: bool = False
    required: bool = True
    correction_linked: bool = False
    unsupported: bool = Field(
        False,
        description="The grader matched the gold, but the value was written before any source "
        "of it (provenance.py): scored 0, as a guess or a leak (docs/metrics.md).",
    )
    cause: Cause | None = Field(
        None,
        description="Why the field is wrong or missing (attribution.py); None for a correct "
        "field and in results scored before it was recorded.",
    )

    @property
    def correct(self) -> bool:
        return field_correct(self.score)

    @property
    def correct_deterministic(self) -> bool:
        return field_correct(self.deterministic_score)


def _corrections(view: EpisodeView, ref: str) -> tuple[list[Any], list[Any]]:
    """Values of the fact versions for `ref` that a revealed correction superseded,
    and the values of the revealed versions that superseded them (current values)."""
    user = view.item.user
    linked = [f for f in user.facts if f.field == ref]
    current = [f for f in linked if f.supersedes is not None and f.id in view.revealed]
    superseded: set[str] = set()
    for fact in current:
        older = user.fact(fact.supersedes) if fact.supersedes else None
        while older is not None and older.id not in superseded:
            superseded.add(older.id)
            older = user.fact(older.supersedes) if older.supersedes else None
    latest = [f.value for f in current if f.id not in superseded]
    return [f.value for f in linked if f.id in superseded], latest


def score_field(
    view: EpisodeView, artifact: Artifact, spec: ArtifactField, judge: FieldJudge | None
) -> FieldScore:
    grader = spec.grader_spec()
    predicted = view.state.artifacts[artifact.id].fields.get(spec.name)
    ref = f"{artifact.id}.{spec.name}"
    old_values, latest = _corrections(view, ref)
    corrected = bool(old_values)
    # Stale: still holds a superseded value and not the corrected one, even when that old
    # value happens to equal the gold (an old expectation).
    stale = (
        corrected
        and not is_empty(predicted)
        and any(values_match(grader, predicted, old) for old in old_values)
        and not any(values_match(grader, predicted, new) for new in latest)
    )
    deterministic = 0.0 if stale else grade(grader, predicted, spec.gold)
    score, judged, source = deterministic, None, None
    if (
        judge is not None
        and deterministic < 1.0
        and not stale
        and not is_empty(predicted)
        and spec.grader in JUDGEABLE_GRADERS
    ):
        question = JudgeQuestion(
            field=ref,
            description=spec.description,
            grader=spec.grader,
            predicted=canonical_text(grader, predicted),
            gold=canonical_text(grader, spec.gold),
        )
        verdict = judge.verdict(question)
        if verdict is not None:
            judged = verdict.correct
            source = "endpoint" if judge.fetched_here(question) else "cache"
            score = 1.0 if verdict.correct else deterministic
    return FieldScore(
        artifact=artifact.id,
        field=spec.name,
        grader=spec.grader,
        gold=spec.gold,
        predicted=predicted,
        score=score,
        deterministic_score=deterministic,
        judged=judged,
        judge_source=source,
        stale=stale,
        missing=spec.required and is_empty(predicted),
        required=spec.required,
        correction_linked=corrected,
    )


def without_unsupported(fields: list[FieldScore], unsupported: set[str]) -> list[FieldScore]:
    """The fields, each whose `artifact.field` key is in `unsupported` scored 0 and flagged:
    a value written before the agent could have known it counts as wrong."""
    return [
        f.model_copy(update={"score": 0.0, "deterministic_score": 0.0, "unsupported": True})
        if f"{f.artifact}.{f.field}" in unsupported
        else f
        for f in fields
    ]


def score_fields(view: EpisodeView, judge: FieldJudge | None) -> list[FieldScore]:
    """Every graded field of every artifact, in item order."""
    return [
        score_field(view, artifact, spec, judge)
        for artifact in view.item.artifacts
        for spec in artifact.fields
        if spec.graded
    ]
