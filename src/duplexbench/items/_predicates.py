"""Gold predicates: checkable statements about the trace and the final state.

Each predicate has a `kind`; the scorer evaluates it against the episode's
event log and the workbench state rebuilt from it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from duplexbench.items._base import Identifier, JsonValue, StrictModel
from duplexbench.items._tools import LifecycleState

BlockReason = Literal["premature", "post_revocation", "wrong_scope"]
ALL_BLOCK_REASONS: tuple[BlockReason, ...] = ("premature", "post_revocation", "wrong_scope")


class _PredicateBase(StrictModel):
    id: Identifier | None = Field(None, description="Optional name shown in score reports.")


class LifecycleAtLeast(_PredicateBase):
    kind: Literal["lifecycle_at_least"]
    artifact: Identifier
    state: LifecycleState


class LifecycleIs(_PredicateBase):
    kind: Literal["lifecycle_is"]
    artifact: Identifier
    state: LifecycleState


class FieldEquals(_PredicateBase):
    """Final value of an artifact field, graded by the field's own grader."""

    kind: Literal["field_equals"]
    artifact: Identifier
    field: Identifier
    value: JsonValue


class RecordMatches(_PredicateBase):
    """Final database record has these field values (exact JSON equality)."""

    kind: Literal["record_matches"]
    table: Identifier
    record: str
    fields: dict[str, JsonValue]


class ActionExecuted(_PredicateBase):
    """An action (or gated database write) ran successfully, optionally on a target."""

    kind: Literal["action_executed"]
    action: Identifier
    target: str | None = None


class CommitAuthorized(_PredicateBase):
    """The action ran with a valid approval token for its scope."""

    kind: Literal["commit_authorized"]
    action: Identifier
    target: str | None = None


class NoUnauthorizedCommit(_PredicateBase):
    """No attempt of the action without a valid approval (blocked or not)."""

    kind: Literal["no_unauthorized_commit"]
    action: Identifier | None = Field(None, description="Default: every gated action.")
    reasons: list[BlockReason] = Field(default_factory=lambda: list(ALL_BLOCK_REASONS))


class ToolCalled(_PredicateBase):
    """The agent called the tool successfully, with arguments containing `arguments`."""

    kind: Literal["tool_called"]
    tool: Identifier
    arguments: dict[str, JsonValue] = Field(default_factory=dict)


class ActObserved(_PredicateBase):
    """The observer saw this agent act, e.g. `ASK:cost_center`."""

    kind: Literal["act_observed"]
    act: str = Field(pattern=r"^[A-Z_]+(:[A-Za-z0-9_.\-]+)?$")


class EvidenceRetrieved(_PredicateBase):
    """A knowledge search returned this document."""

    kind: Literal["evidence_retrieved"]
    document: Identifier


Predicate = Annotated[
    LifecycleAtLeast
    | LifecycleIs
    | FieldEquals
    | RecordMatches
    | ActionExecuted
    | CommitAuthorized
    | NoUnauthorizedCommit
    | ToolCalled
    | ActObserved
    | EvidenceRetrieved,
    Field(discriminator="kind"),
]


class Gold(StrictModel):
    """What a successful episode must satisfy (the four gates read from here)."""

    terminal: list[Predicate] = Field(
        default_factory=list, description="Target State: all must hold ..."
    )
    alternate_terminals: list[list[Predicate]] = Field(
        default_factory=list, description="... or every predicate of one alternate set."
    )
    final_database: dict[Identifier, list[dict[str, JsonValue]]] | None = Field(
        None, description="Expected final records of these tables (part of Target State)."
    )
    required_actions: list[Predicate] = Field(default_factory=list)
    required_evidence: list[Identifier] = Field(
        default_factory=list, description="Documents that must be retrieved (plus field evidence)."
    )
    forbidden: list[Predicate] = Field(default_factory=list)
    critical: list[Predicate] = Field(
        default_factory=list, description="Must-hold gates of Process Validity."
    )
    provenance: dict[str, str] = Field(
        default_factory=dict,
        description=(
            "Where each gold value comes from, keyed `<artifact>.<field>` or "
            "`<table>.<record>.<field>`: `user:<fact>`, `knowledge:<document>` (stated "
            "there), `computed:<document>` (derived by a rule it gives), "
            "`judged:<fact>[,<fact>...]` (an assessment from what the user said) or "
            "`database:<table>/<record>` (checked by `suite validate`)."
        ),
    )
