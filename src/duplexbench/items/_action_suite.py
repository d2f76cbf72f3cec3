"""Action items and action suites: loading with precise errors.

An action suite is a folder of action item files (family `action`) with an
optional `suite.yaml` whose `family` is `action`. :func:`suite_family`
tells which loader a folder or file needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from duplexbench.items._action import ActionItem
from duplexbench.items._action_checks import check_action_item
from duplexbench.items._errors import ItemError, Problem
from duplexbench.items._families import FAMILIES, Family
from duplexbench.items._load import read_document, validation_problems
from duplexbench.items._suite import (
    SuiteManifest,
    item_files,
    load_folder,
    read_manifest,
    select_items,
)


def parse_action_item(data: Any, file: str = "<item>") -> ActionItem:
    """Validate plain data as an action item; every problem is reported at once."""
    if not isinstance(data, dict):
        raise ItemError([Problem(file, "", f"expected a mapping, got {type(data).__name__}")])
    if data.get("family") != "action":
        raise ItemError([Problem(file, "family", "an action item needs `family: action`")])
    try:
        item = ActionItem.model_validate(data)
    except ValidationError as exc:
        raise ItemError(validation_problems(exc, data, file)) from None
    except RecursionError:
        raise ItemError([Problem(file, "", "document nests too deeply")]) from None
    problems = [Problem(file, path, msg) for path, msg in check_action_item(item)]
    if problems:
        raise ItemError(problems)
    return item


def load_action_item(path: str | Path) -> ActionItem:
    path = Path(path)
    return parse_action_item(read_document(path), str(path))


@dataclass(frozen=True)
class ActionSuite:
    name: str
    version: str
    path: Path
    items: list[ActionItem] = field(default_factory=list)
    sources: dict[str, Path] = field(default_factory=dict, compare=False)
    manifest: SuiteManifest | None = field(default=None, compare=False)

    def select(self, ids: list[str] | None = None, limit: int | None = None) -> ActionSuite:
        items = select_items(self.items, ids, limit, self.path)
        return ActionSuite(self.name, self.version, self.path, items, self.sources, self.manifest)


def load_action_suite(
    path: str | Path, ids: Sequence[str] | None = None, limit: int | None = None
) -> ActionSuite:
    """Load the action items of a folder (or one item file), reporting all problems;
    with `ids` or `limit`, only the item files those need (as `load_suite` does)."""
    path = Path(path)
    if not path.exists():
        raise ItemError([Problem(str(path), "", "no such file or folder")])
    if path.is_file():
        item = load_action_item(path)
        items = select_items([item], list(ids) if ids else None, limit, path)
        return ActionSuite(item.id, item.version, path, items, {i.id: path for i in items})
    manifest = read_manifest(path)
    items, sources = load_folder(path, manifest, load_action_item, ids, limit)
    name = manifest.name if manifest else path.name
    version = manifest.version if manifest else "0"
    return ActionSuite(name, version, path, items, sources, manifest)


def suite_family(path: str | Path) -> Family:
    """`action` or `workflow`: from the manifest, else from the first item file."""
    path = Path(path)
    if path.is_dir():
        manifest = read_manifest(path)
        if manifest is not None:
            return manifest.family
        files = item_files(path, None)
        if not files:
            return "workflow"
        path = files[0]
    if not path.is_file():
        return "workflow"
    data = read_document(path)
    family = data.get("family") if isinstance(data, dict) else None
    return next((f for f in FAMILIES if f == family), "workflow")
