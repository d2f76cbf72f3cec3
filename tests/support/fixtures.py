"""The hand-written workflow items of tests/fixtures, by name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from duplexbench.items._load import load_item
from duplexbench.items._workflow import WorkflowItem

FIXTURES = Path(__file__).parents[1] / "fixtures"


def fixture_item(name: str) -> WorkflowItem:
    return load_item(FIXTURES / f"{name}.yaml")


def fixture_data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((FIXTURES / f"{name}.yaml").read_text())
    return data
