"""The eleven APEX-Voice taxonomy dimensions of a workflow item.

Every dimension is a closed vocabulary so that suites can be sliced and their
composition counted (`duplexbench suite stats`). The labels are ours; the
dimensions are APEX-Voice's.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from duplexbench.items._base import StrictModel

WorkArchetype = Literal[
    "form_completion",
    "corporate_negotiation",
    "coordination_scheduling",
    "consulting_advisory",
    "interviewing",
    "troubleshooting",
    "inspection",
    "planning",
    "record_preparation",
    "intake_triage",
    "procurement",
    "customer_service",
]
Industry = Literal[
    "healthcare",
    "finance",
    "insurance",
    "legal",
    "retail",
    "hospitality",
    "real_estate",
    "manufacturing",
    "technology",
    "government",
    "education",
    "logistics",
    "telecom",
    "airline",
    "human_resources",
    "horizontal_enterprise",
]
WorkArtifact = Literal[
    "structured_form",
    "schedule",
    "term_sheet",
    "interview_record",
    "support_ticket",
    "inspection_report",
    "plan",
    "case_record",
    "purchase_order",
    "advisory_memo",
    "database_record",
]
EconomicRole = Literal[
    "operations",
    "finance",
    "sales",
    "procurement",
    "human_resources",
    "customer_support",
    "compliance",
    "clinical",
    "legal",
    "management",
    "field_service",
]
DuplexPhenomenon = Literal[
    "mid_speech_correction",
    "barge_in",
    "revocation",
    "cancellation",
    "clarification",
    "backchannel",
    "side_speech",
    "long_pause",
]
DelegationPattern = Literal["delegate", "complete", "revise", "follow_through", "approve"]
Autonomy = Literal[
    "inform_only",
    "draft_only",
    "reversible_write",
    "approval_gated_commit",
    "autonomous_commit",
]
Burden = Literal["none", "light", "moderate", "heavy"]
UserBehavior = Literal[
    "cooperative",
    "ambiguous",
    "correction_prone",
    "expert",
    "distracted",
    "verbose",
    "time_pressured",
]
Risk = Literal["informational", "reversible", "consequential", "high_stakes"]


class Taxonomy(StrictModel):
    """Where an item sits along the eleven APEX-Voice dimensions."""

    work_archetype: WorkArchetype
    industry: Industry
    work_artifact: WorkArtifact
    economic_role: EconomicRole
    duplex_phenomena: list[DuplexPhenomenon] = Field(default_factory=list)
    delegation_pattern: DelegationPattern
    autonomy: Autonomy
    knowledge_burden: Burden
    tool_burden: Burden
    user_behavior: UserBehavior
    risk: Risk


TAXONOMY_DIMENSIONS: tuple[str, ...] = tuple(Taxonomy.model_fields)
