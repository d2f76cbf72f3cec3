"""The workflow item: one Voice Workbench episode definition."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from duplexbench.items._artifacts import Artifact
from duplexbench.items._base import Identifier, JsonValue, StrictModel
from duplexbench.items._predicates import Gold
from duplexbench.items._reference import Reference
from duplexbench.items._taxonomy import Taxonomy
from duplexbench.items._tools import Tool
from duplexbench.items._user import UserSpec

FORMAT_VERSION: Literal["1"] = "1"


class KnowledgeDoc(StrictModel):
    id: Identifier
    title: str = Field(min_length=1)
    text: str = Field(min_length=1)


class WorkflowItem(StrictModel):
    """A professional workflow in the Voice Workbench (see docs/formats/workflow.md)."""

    family: Literal["workflow"] = "workflow"
    format: Literal["1"] = FORMAT_VERSION
    id: Identifier
    version: str = Field(min_length=1, max_length=40)
    title: str = Field(min_length=1)
    instructions: str = Field(
        min_length=1, description="What the agent is told: the delegation, never gold."
    )
    taxonomy: Taxonomy
    knowledge: list[KnowledgeDoc] = Field(default_factory=list)
    database: dict[Identifier, list[dict[str, JsonValue]]] = Field(
        default_factory=dict, description="Initial records per table; each needs a string `id`."
    )
    tools: list[Tool] = Field(min_length=1)
    artifacts: list[Artifact] = Field(default_factory=list)
    user: UserSpec
    gold: Gold
    reference: Reference

    def tool(self, name: str) -> Tool | None:
        return next((t for t in self.tools if t.name == name), None)

    def artifact(self, artifact_id: str) -> Artifact | None:
        return next((a for a in self.artifacts if a.id == artifact_id), None)
