"""Built-in suites: where they live, how they are named, how a generated one is written.

A packaged suite is a folder under `duplexbench/suites/data/` with a
`suite.yaml` manifest (generator, seed, a checksum per item). `--suite NAME`
finds it by name; any other value is a path.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from duplexbench.items import (
    ActionItem,
    GeneratorInfo,
    ItemError,
    Problem,
    SuiteManifest,
    WorkflowItem,
    item_checksum,
)

DATA = Path(__file__).parent / "data"
DEFAULT_SUITE = "workflows-mini"
SUITE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*")
"""A packaged suite's name: no path separators, never `.` or `..`."""


def packaged_suites() -> list[str]:
    if not DATA.is_dir():
        return []
    return sorted(p.name for p in DATA.iterdir() if (p / "suite.yaml").exists())


def resolve_suite(spec: str) -> Path:
    """`spec` as an existing path, else a packaged suite's folder by its plain name
    (a name with `/`, `\\` or `..` never reaches outside the packaged suites)."""
    path = Path(spec)
    if path.exists():
        return path
    if SUITE_NAME.fullmatch(spec) and (DATA / spec / "suite.yaml").exists():
        return DATA / spec
    names = ", ".join(packaged_suites())
    raise ItemError([Problem(spec, "", f"no such file, folder or built-in suite ({names})")])


AnyItem = WorkflowItem | ActionItem


def item_yaml(item: AnyItem) -> str:
    data = item.model_dump(mode="json", exclude_defaults=True)
    head = {"family": "action"} if isinstance(item, ActionItem) else {}
    data = {**head, "id": data.pop("id"), **data}
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def write_suite(
    folder: Path,
    manifest: SuiteManifest,
    items: Sequence[AnyItem],
    files: dict[str, str] | None = None,
) -> None:
    """Write the manifest (with checksums) and the item files; all or nothing.

    `files` maps an item id to a file name relative to `folder` (default
    `<id>.yaml`, written here); items given with a path elsewhere are only
    listed, not written (a subset of another suite).
    """
    files = files or {}
    names = [files.get(i.id, f"{i.id}.yaml") for i in items]
    checksums = {i.id: item_checksum(i) for i in items}
    manifest = manifest.model_copy(update={"items": names, "checksums": checksums})
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        for item, name in zip(items, names, strict=True):
            if item.id not in files:
                (staging / name).write_text(item_yaml(item), encoding="utf-8")
        data: dict[str, Any] = manifest.model_dump(mode="json", exclude_defaults=True)
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
        (staging / "suite.yaml").write_text(text, encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        staging.rename(folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


__all__ = [
    "DATA",
    "DEFAULT_SUITE",
    "GeneratorInfo",
    "item_yaml",
    "packaged_suites",
    "resolve_suite",
    "write_suite",
]
