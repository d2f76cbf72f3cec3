"""Work artifact schemas: typed fields with graders and gold values."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from duplexbench.items._base import Identifier, JsonValue, StrictModel
from duplexbench.items._grading import GraderName, GraderSpec
from duplexbench.items._tools import LifecycleState

FieldType = Literal[
    "string", "number", "integer", "boolean", "date", "phone", "address", "enum", "list", "interval"
]

_JSON_TYPES: dict[str, dict[str, Any]] = {
    "string": {"type": "string"},
    "number": {"type": ["number", "string"]},
    "integer": {"type": ["integer", "string"]},
    "boolean": {"type": "boolean"},
    "date": {"type": "string"},
    "phone": {"type": "string"},
    "address": {"type": "string"},
    "enum": {"type": "string"},
    "list": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}]},
    "interval": {
        "anyOf": [
            {
                "type": "array",
                "items": {"type": ["string", "number"]},
                "minItems": 2,
                "maxItems": 2,
            },
            {"type": "string"},
        ]
    },
}


class ArtifactField(StrictModel):
    """One field of a work artifact."""

    name: Identifier
    type: FieldType = "string"
    description: str = Field("", description="What the agent is told the field holds.")
    required: bool = True
    grader: GraderName = "casefold_exact"
    grader_options: dict[str, object] = Field(default_factory=dict)
    gold: JsonValue = Field(None, description="Expected final value; null means not graded.")
    evidence: Identifier | None = Field(
        None, description="Knowledge document the agent must retrieve to fill this field."
    )
    aliases: list[str] = Field(
        default_factory=list, description="Other names the agent may use for the field aloud."
    )

    def grader_spec(self) -> GraderSpec:
        """The field's grader with its options, validated."""
        return GraderSpec(name=self.grader, options=self.grader_options)

    @property
    def graded(self) -> bool:
        return self.gold is not None

    def json_schema(self) -> dict[str, Any]:
        """JSON Schema of a value the agent may write to this field."""
        schema = dict(_JSON_TYPES[self.type])
        text = self.description
        if self.grader == "enum":
            values = self.grader_options.get("values")
            if isinstance(values, list):
                text = f"{text} One of: {', '.join(str(v) for v in values)}.".strip()
        if text:
            schema["description"] = text
        return schema


class Artifact(StrictModel):
    """A typed work artifact the agent builds during the conversation."""

    id: Identifier
    type: str = Field(min_length=1, description="Kind of artifact, e.g. structured_form.")
    title: str = ""
    fields: list[ArtifactField] = Field(min_length=1)
    min_lifecycle: LifecycleState = Field(
        "committed", description="Lowest lifecycle state that counts as done."
    )

    def field(self, name: str) -> ArtifactField | None:
        return next((f for f in self.fields if f.name == name), None)
