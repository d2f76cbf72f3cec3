"""Shared fixtures and hooks (helpers that tests import live in tests/support/)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from duplexbench.items._load import parse_item
from duplexbench.items._workflow import WorkflowItem
from support.fixtures import FIXTURES, fixture_data


@pytest.fixture(scope="session", autouse=True)
def speech_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One speech bank for the whole test session (never the user's ~/.cache).

    Set DUPLEXBENCH_TEST_SPEECH_CACHE to reuse clips between local test runs.
    """
    root = os.environ.get("DUPLEXBENCH_TEST_SPEECH_CACHE")
    path = Path(root) if root else tmp_path_factory.mktemp("speech-bank")
    os.environ["DUPLEXBENCH_SPEECH_CACHE"] = str(path)
    return path


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture
def item_factory() -> Callable[..., WorkflowItem]:
    """Load a fixture item, optionally patched by a function of its raw data."""

    def make(name: str, patch: Callable[[dict[str, Any]], None] | None = None) -> WorkflowItem:
        data = fixture_data(name)
        if patch is not None:
            patch(data)
        return parse_item(data, f"{name}.yaml")

    return make


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `slow` are skipped unless the run selects them (`pytest -m slow`)."""
    if "slow" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with `pytest -m slow`")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)
