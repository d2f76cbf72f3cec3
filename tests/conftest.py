"""Shared fixtures: the hand-written workflow items and small helpers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from duplexbench.items.load import item_checksum, load_item, parse_item
from duplexbench.items.workflow import WorkflowItem

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


def fixture_item(name: str) -> WorkflowItem:
    return load_item(FIXTURES / f"{name}.yaml")


def fixture_data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((FIXTURES / f"{name}.yaml").read_text())
    return data


@pytest.fixture
def item_factory() -> Callable[..., WorkflowItem]:
    """Load a fixture item, optionally patched by a function of its raw data."""

    def make(name: str, patch: Callable[[dict[str, Any]], None] | None = None) -> WorkflowItem:
        data = fixture_data(name)
        if patch is not None:
            patch(data)
        return parse_item(data, f"{name}.yaml")

    return make


__all__ = ["FIXTURES", "fixture_data", "fixture_item", "item_checksum"]
