"""Suites: versioned collections of items, loaded from a folder or a file."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import Field, ValidationError

from duplexbench.items._base import Identifier, StrictModel
from duplexbench.items.errors import ItemError, Problem, format_loc
from duplexbench.items.load import ITEM_SUFFIXES, load_item, read_document
from duplexbench.items.workflow import WorkflowItem

MANIFEST_NAMES = ("suite.yaml", "suite.yml", "suite.json")


class SuiteManifest(StrictModel):
    """Optional `suite.yaml` in a suite folder."""

    name: Identifier
    version: str = "0"
    description: str = ""
    items: list[str] | None = Field(
        None, description="Item files in order (default: every item file in the folder)."
    )


@dataclass(frozen=True)
class Suite:
    name: str
    version: str
    path: Path
    items: list[WorkflowItem] = field(default_factory=list)
    sources: dict[str, Path] = field(default_factory=dict, compare=False)

    def select(self, ids: list[str] | None = None, limit: int | None = None) -> Suite:
        """A copy holding only the given item ids (in suite order) and at most `limit` items."""
        items = self.items
        if ids:
            unknown = sorted(set(ids) - {i.id for i in items})
            if unknown:
                raise ItemError([Problem(str(self.path), "", f"no such item(s): {unknown}")])
            items = [i for i in items if i.id in ids]
        if limit is not None:
            items = items[:limit]
        return Suite(self.name, self.version, self.path, items, self.sources)


def _manifest(folder: Path) -> SuiteManifest | None:
    for name in MANIFEST_NAMES:
        path = folder / name
        if path.exists():
            data = read_document(path)
            try:
                return SuiteManifest.model_validate(data)
            except ValidationError as exc:
                raise ItemError(
                    [Problem(str(path), format_loc(e["loc"], data), e["msg"]) for e in exc.errors()]
                ) from None
    return None


def load_suite(path: str | Path) -> Suite:
    """Load every item of a suite folder (or a single item file), reporting all problems."""
    path = Path(path)
    if not path.exists():
        raise ItemError([Problem(str(path), "", "no such file or folder")])
    if path.is_file():
        item = load_item(path)
        return Suite(item.id, item.version, path, [item], {item.id: path})
    manifest = _manifest(path)
    if manifest is not None and manifest.items is not None:
        files = [path / name for name in manifest.items]
    else:
        files = sorted(
            p for p in path.iterdir() if p.suffix in ITEM_SUFFIXES and p.name not in MANIFEST_NAMES
        )
    items: list[WorkflowItem] = []
    sources: dict[str, Path] = {}
    problems: list[Problem] = []
    for file in files:
        try:
            item = load_item(file)
        except ItemError as exc:
            problems.extend(exc.problems)
            continue
        if any(other.id == item.id for other in items):
            problems.append(Problem(str(file), "id", f"duplicate item id {item.id!r}"))
        items.append(item)
        sources.setdefault(item.id, file)
    if not files:
        problems.append(Problem(str(path), "", "the folder holds no item files (.yaml/.yml/.json)"))
    if problems:
        raise ItemError(problems)
    name = manifest.name if manifest else path.name
    version = manifest.version if manifest else "0"
    return Suite(name, version, path, items, sources)
