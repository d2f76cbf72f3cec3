"""The twelve work archetypes of workflows-v1 (one catalog module each)."""

from __future__ import annotations

import importlib
from typing import get_args

from duplexbench.items import WorkArchetype
from duplexbench.suites.workflows.catalog import Archetype

MODULES: tuple[str, ...] = get_args(WorkArchetype)
"""One module per WorkArchetype label, named after it, in the taxonomy's order."""


def _load(name: str) -> Archetype:
    module = importlib.import_module(f"{__name__}.{name}")
    archetype: Archetype = module.ARCHETYPE
    return archetype


def load_archetypes() -> list[Archetype]:
    """The archetypes in suite order (imported on first use)."""
    return [_load(name) for name in MODULES]


__all__ = ["MODULES", "load_archetypes"]
