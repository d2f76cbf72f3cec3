"""Base model for everything that is saved or loaded."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

JsonValue = Any
"""A JSON-compatible value (str, int, float, bool, None, list, dict)."""

Identifier = Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9_.\-]{0,79}$")]
"""Ids of items, fields, tools, facts, documents: letters, digits, `_ . -`."""


class StrictModel(BaseModel):
    """Pydantic model that rejects unknown keys and is immutable once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)
