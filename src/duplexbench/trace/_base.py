"""Base models of trace events (shared by the workflow and replay event modules)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

TRACE_VERSION = "7"
Actor = Literal["user", "agent", "workbench", "harness"]


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    seq: int = Field(ge=0)
    t_ms: int = Field(ge=0)
    wall_ms: int = Field(0, ge=0)
