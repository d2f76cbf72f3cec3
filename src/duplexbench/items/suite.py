"""Suites: versioned collections of items, loaded from a folder or a file.

File references stay inside the suite: a manifest's `items` entries must be
relative paths that resolve (symbolic links included) inside the suite folder,
and so must every item file found by listing the folder and the manifest itself.
One exception lets a suite be a subset of another: an entry may name an item
file directly inside a sibling suite folder (`../<suite>/<file>.yaml`, where
`<suite>` sits next to the suite folder and holds its own manifest), as
`workflows-mini` names `../workflows-v1/*.yaml`. Manifests above
:data:`MAX_MANIFEST_BYTES` and suites of more than :data:`MAX_SUITE_FILES` item
files are refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import Field, ValidationError

from duplexbench.files import UnsafeFileError, resolve_inside
from duplexbench.items._base import Identifier, StrictModel
from duplexbench.items.action import ActionItem
from duplexbench.items.errors import ItemError, Problem, format_loc
from duplexbench.items.load import ITEM_SUFFIXES, item_checksum, load_item, read_document
from duplexbench.items.workflow import WorkflowItem

MANIFEST_NAMES = ("suite.yaml", "suite.yml", "suite.json")
MAX_MANIFEST_BYTES = 2 * 1024 * 1024
"""A suite manifest (actions-v1's, 672 items with checksums, is 94 KB)."""
MAX_SUITE_FILES = 10_000
"""Item files in one suite (the largest packaged suite has 672)."""


class GeneratorInfo(StrictModel):
    """How a generated suite was made (so it can be made again)."""

    name: str = Field(min_length=1)
    version: str = Field(min_length=1)
    seed: int
    per_archetype: int | None = Field(None, ge=1, description="Workflow suites.")
    per_condition: int | None = Field(None, ge=1, description="Action suites.")
    candidates: int = Field(0, ge=0, description="Candidate items made (kept + rejected).")
    rejected: dict[str, int] = Field(
        default_factory=dict,
        description="Rejected candidates by reason (`stage: why`; stage compose, parse, check).",
    )


class SuiteManifest(StrictModel):
    """Optional `suite.yaml` in a suite folder."""

    name: Identifier
    family: Literal["workflow", "action"] = "workflow"
    version: str = "0"
    description: str = ""
    items: list[str] | None = Field(
        None,
        description="Item files in order, relative to the folder (default: every item file).",
    )
    generator: GeneratorInfo | None = None
    checksums: dict[str, str] = Field(
        default_factory=dict,
        description="Item id -> sha256 of its canonical JSON; a changed item is an error.",
    )


@dataclass(frozen=True)
class Suite:
    name: str
    version: str
    path: Path
    items: list[WorkflowItem] = field(default_factory=list)
    sources: dict[str, Path] = field(default_factory=dict, compare=False)
    manifest: SuiteManifest | None = field(default=None, compare=False)

    def select(self, ids: list[str] | None = None, limit: int | None = None) -> Suite:
        """A copy holding only the given item ids (in suite order) and at most `limit` items."""
        items = select_items(self.items, ids, limit, self.path)
        return Suite(self.name, self.version, self.path, items, self.sources, self.manifest)


T = TypeVar("T", WorkflowItem, ActionItem)


def select_items(items: list[T], ids: list[str] | None, limit: int | None, path: Path) -> list[T]:
    """The items with the given ids (in suite order), at most `limit`; unknown ids fail."""
    if ids:
        unknown = sorted(set(ids) - {i.id for i in items})
        if unknown:
            raise ItemError([Problem(str(path), "", f"no such item(s): {unknown}")])
        items = [i for i in items if i.id in ids]
    return items if limit is None else items[:limit]


def sibling_suite_file(folder: Path) -> Callable[[Path], bool]:
    """Accepts a resolved path that is an item file directly inside a suite folder next
    to `folder` (one holding a manifest): how a suite lists items of another."""
    parent = folder.resolve().parent

    def accept(real: Path) -> bool:
        return (
            real.parent.parent == parent
            and real.suffix in ITEM_SUFFIXES
            and real.name not in MANIFEST_NAMES
            and manifest_path(real.parent) is not None
        )

    return accept


def manifest_path(folder: Path) -> Path | None:
    return next((folder / n for n in MANIFEST_NAMES if (folder / n).exists()), None)


def read_manifest(folder: Path) -> SuiteManifest | None:
    path = manifest_path(folder)
    if path is None:
        return None
    try:
        resolve_inside(folder, path.name, "the suite manifest")
    except UnsafeFileError as exc:
        raise ItemError([Problem(str(path), "", exc.reason)]) from None
    data = read_document(path, MAX_MANIFEST_BYTES, "suite manifest")
    try:
        return SuiteManifest.model_validate(data)
    except ValidationError as exc:
        raise ItemError(
            [Problem(str(path), format_loc(e["loc"], data), e["msg"]) for e in exc.errors()]
        ) from None


def load_suite(path: str | Path) -> Suite:
    """Load every item of a suite folder (or a single item file), reporting all problems."""
    path = Path(path)
    if not path.exists():
        raise ItemError([Problem(str(path), "", "no such file or folder")])
    if path.is_file():
        item = load_item(path)
        return Suite(item.id, item.version, path, [item], {item.id: path})
    manifest = read_manifest(path)
    if manifest is not None and manifest.family != "workflow":
        raise ItemError(
            [Problem(str(path), "family", f"{manifest.name} is an {manifest.family} suite")]
        )
    items, sources = load_folder(path, manifest, load_item)
    name = manifest.name if manifest else path.name
    version = manifest.version if manifest else "0"
    return Suite(name, version, path, items, sources, manifest)


def item_files(path: Path, manifest: SuiteManifest | None) -> list[Path]:
    """The item files of a suite folder: as the manifest lists them, else every item file.

    Each must stay inside the folder or be an item file of a sibling suite (see the
    module docstring); ItemError naming every entry that does not.
    """
    sibling = sibling_suite_file(path)
    if manifest is not None and manifest.items is not None:
        where = str(manifest_path(path) or path)
        refs = [(f"items[{i}]", name, where) for i, name in enumerate(manifest.items)]
    else:
        found = sorted(
            p for p in path.iterdir() if p.suffix in ITEM_SUFFIXES and p.name not in MANIFEST_NAMES
        )
        refs = [("", p.name, str(p)) for p in found]
    if len(refs) > MAX_SUITE_FILES:
        limit = f"{len(refs)} item files; the limit is {MAX_SUITE_FILES} per suite"
        raise ItemError([Problem(str(path), "items", limit)])
    files: list[Path] = []
    problems: list[Problem] = []
    for field_, name, file in refs:
        try:
            files.append(resolve_inside(path, name, "item file", also=sibling))
        except UnsafeFileError as exc:
            problems.append(Problem(file, field_, exc.reason))
    if problems:
        raise ItemError(problems)
    return files


def load_folder(
    path: Path, manifest: SuiteManifest | None, load: Callable[[Path], T]
) -> tuple[list[T], dict[str, Path]]:
    """Load every item file with `load`; every problem of every file, or ItemError."""
    files = item_files(path, manifest)
    items: list[T] = []
    sources: dict[str, Path] = {}
    problems: list[Problem] = []
    for file in files:
        try:
            item = load(file)
        except ItemError as exc:
            problems.extend(exc.problems)
            continue
        if item.id in sources:
            problems.append(Problem(str(file), "id", f"duplicate item id {item.id!r}"))
        items.append(item)
        sources.setdefault(item.id, file)
    if not files:
        problems.append(Problem(str(path), "", "the folder holds no item files (.yaml/.yml/.json)"))
    if manifest is not None and not problems:
        problems += checksum_problems(manifest, items, sources)
    if problems:
        raise ItemError(problems)
    return items, sources


def checksum_problems(
    manifest: SuiteManifest,
    items: Sequence[WorkflowItem] | Sequence[ActionItem],
    sources: dict[str, Path],
) -> list[Problem]:
    problems = []
    for item in items:
        expected = manifest.checksums.get(item.id)
        if expected is not None and expected != item_checksum(item):
            problems.append(
                Problem(
                    str(sources[item.id]),
                    "",
                    f"item {item.id!r} differs from the checksum in the suite manifest "
                    "(edited after the suite was versioned?)",
                )
            )
    missing = sorted(set(manifest.checksums) - {i.id for i in items})
    if missing:
        problems.append(Problem(str(manifest.name), "checksums", f"items missing: {missing}"))
    return problems
