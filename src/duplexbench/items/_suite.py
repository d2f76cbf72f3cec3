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

Loading a part of a suite (:func:`load_suite` with `ids` or `limit`, as
`duplexbench run --limit 1` does) reads and validates only the item files it
needs: the first `limit` files in the suite's order, or for `ids` the file named
after each id first, then the others in order until every id is found. The
manifest and the containment of every entry are still checked; only the suite's
completeness (checksums of items not read, duplicate ids among them) is left to
a full load (`duplexbench suite validate`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Literal, TypeVar

from pydantic import Field, ValidationError

from duplexbench.files import UnsafeFileError, resolve_inside
from duplexbench.items._action import ActionItem
from duplexbench.items._base import Identifier, StrictModel
from duplexbench.items._errors import ItemError, Problem, format_loc
from duplexbench.items._load import ITEM_SUFFIXES, item_checksum, load_item, read_document
from duplexbench.items._workflow import WorkflowItem

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
    pools: Literal["private"] | None = Field(
        None,
        description="`private`: names, companies and streets drawn from the private pools, "
        "which share none with the packaged suites (`suite generate`); null: the packaged "
        "pools.",
    )
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


def load_suite(
    path: str | Path, ids: Sequence[str] | None = None, limit: int | None = None
) -> Suite:
    """Load a suite folder (or a single item file), reporting all problems.

    With neither `ids` nor `limit`, every item is read. With them, the suite holds
    the same items as `load_suite(path).select(ids, limit)`, but only the item files
    those need are read and validated (see the module docstring).
    """
    path = Path(path)
    if not path.exists():
        raise ItemError([Problem(str(path), "", "no such file or folder")])
    if path.is_file():
        item = load_item(path)
        items = select_items([item], list(ids) if ids else None, limit, path)
        return Suite(item.id, item.version, path, items, {i.id: path for i in items})
    manifest = read_manifest(path)
    if manifest is not None and manifest.family != "workflow":
        raise ItemError(
            [Problem(str(path), "family", f"{manifest.name} is an {manifest.family} suite")]
        )
    items, sources = load_folder(path, manifest, load_item, ids, limit)
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
    path: Path,
    manifest: SuiteManifest | None,
    load: Callable[[Path], T],
    ids: Sequence[str] | None = None,
    limit: int | None = None,
) -> tuple[list[T], dict[str, Path]]:
    """Load the item files with `load`: all of them, or (with `ids` or `limit`) only
    those the selection needs; every problem of every file read, or ItemError."""
    files = item_files(path, manifest)
    if not files:
        raise ItemError(
            [Problem(str(path), "", "the folder holds no item files (.yaml/.yml/.json)")]
        )
    partial = bool(ids) or limit is not None
    reader = _Reader(files, load)
    if ids:
        reader.read_until(_id_order(files, ids), set(ids))
    else:
        reader.read_until(range(len(files) if limit is None else min(limit, len(files))))
    items, sources, problems = reader.result()
    if manifest is not None and not problems:
        problems += checksum_problems(manifest, items, sources, complete=not partial)
    if ids and not problems:
        unknown = sorted(set(ids) - set(sources))
        if unknown:
            problems.append(Problem(str(path), "", f"no such item(s): {unknown}"))
    if problems:
        raise ItemError(problems)
    if not partial:
        return items, sources
    chosen = select_items(items, list(ids) if ids else None, limit, path)
    return chosen, {i.id: sources[i.id] for i in chosen}


def _id_order(files: list[Path], ids: Sequence[str]) -> list[int]:
    """Indexes of `files` to read when looking for `ids`: the file named after each id
    (`<id>.yaml`, as generated suites name them) first, then every file in order."""
    first: dict[str, int] = {}
    for index, file in enumerate(files):
        first.setdefault(file.stem, index)
    hinted = [first[i] for i in ids if i in first]
    return list(dict.fromkeys([*hinted, *range(len(files))]))


class _Reader(Generic[T]):
    """Reads item files by index and collects every problem, in the files' order."""

    def __init__(self, files: list[Path], load: Callable[[Path], T]) -> None:
        self.files = files
        self.load: Callable[[Path], T] = load
        self.loaded: dict[int, T | ItemError] = {}

    def read_until(self, order: Iterable[int], wanted: set[str] | None = None) -> None:
        """Read the files in `order`; with `wanted`, stop once every wanted id is read."""
        found: set[str] = set()
        for index in order:
            if wanted is not None and wanted <= found:
                return
            try:
                item: T | ItemError = self.load(self.files[index])
            except ItemError as exc:
                item = exc
            self.loaded[index] = item
            if not isinstance(item, ItemError):
                found.add(item.id)

    def result(self) -> tuple[list[T], dict[str, Path], list[Problem]]:
        """The items read (in suite order), id -> file, and the problems (a file that
        failed to load, a duplicate id)."""
        items: list[T] = []
        sources: dict[str, Path] = {}
        problems: list[Problem] = []
        for index in sorted(self.loaded):
            item, file = self.loaded[index], self.files[index]
            if isinstance(item, ItemError):
                problems.extend(item.problems)
                continue
            if item.id in sources:
                problems.append(Problem(str(file), "id", f"duplicate item id {item.id!r}"))
            items.append(item)
            sources.setdefault(item.id, file)
        return items, sources, problems


def checksum_problems(
    manifest: SuiteManifest,
    items: Sequence[WorkflowItem] | Sequence[ActionItem],
    sources: dict[str, Path],
    complete: bool = True,
) -> list[Problem]:
    """Items that differ from the manifest's checksums; with `complete` (every item of
    the suite was read), also the ids the manifest lists that no item has."""
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
    missing = sorted(set(manifest.checksums) - {i.id for i in items}) if complete else []
    if missing:
        problems.append(Problem(str(manifest.name), "checksums", f"items missing: {missing}"))
    return problems
