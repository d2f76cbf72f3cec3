"""Shared pieces of the APEX-Voice importer: errors, notes, file reading, the
conversion context and small helpers. See docs/formats/apex-voice-import.md.

Package files are read with the item loader's safe YAML, each at most
:data:`MAX_PACKAGE_FILE_BYTES`, and must resolve inside the package folder (a
symbolic link out of it is refused).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duplexbench.files import UnsafeFileError, read_limited, resolve_inside
from duplexbench.items import ItemError, read_document

IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-]{0,79}$")

TASK = "task.yaml"
TAXONOMY = "taxonomy.yaml"
TOOLS = "tools/tool_spec.yaml"
GOLD = "grading/gold.yaml"
POLICY = "reference/policy.yaml"
USER_STATE = "user/user_state.yaml"
PERSONA = "user/persona.yaml"
EVENTS = "user/events.yaml"
FLOW = "user/flow.yaml"
OBSERVER = "user/observer.yaml"
BANK = "user/realization_bank.jsonl"
WORKSPACE = "workspace/initial_workspace.json"
LATENT = "workspace/latent_world.json"
INITIAL_STATE = "initial_state.json"

MAX_PACKAGE_FILE_BYTES = 16 * 1024 * 1024
"""One file of a package (YAML parsing is also bounded by the item loader's node limit)."""

REQUIRED_FILES = (TASK, TOOLS, GOLD, POLICY, USER_STATE, WORKSPACE)
READ_FILES = (
    *REQUIRED_FILES,
    TAXONOMY,
    PERSONA,
    EVENTS,
    FLOW,
    OBSERVER,
    BANK,
    LATENT,
    INITIAL_STATE,
)


class ApexImportError(Exception):
    """A package cannot be imported: names the file (relative to the package) and the problem."""

    def __init__(self, file: str, problem: str, path: str = "") -> None:
        self.file, self.problem, self.path = file, problem, path
        where = f"{file}: {path}" if path else file
        super().__init__(f"{where}: {problem}")


@dataclass(frozen=True)
class Unmapped:
    """Something of the package that has no exact counterpart in duplexbench.

    `file` is relative to the package, `path` the place inside it, `what` the thing,
    `reason` what the importer did instead (dropped, closest value, emulated...).
    """

    file: str
    path: str
    what: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {"file": self.file, "path": self.path, "what": self.what, "reason": self.reason}


@dataclass
class Ctx:
    """Everything one package conversion shares: its documents and the notes so far."""

    root: Path
    docs: dict[str, Any] = field(default_factory=dict)
    notes: list[Unmapped] = field(default_factory=list)

    def note(self, file: str, path: str, what: str, reason: str) -> None:
        entry = Unmapped(file, path, what, reason)
        if entry not in self.notes:
            self.notes.append(entry)

    def doc(self, name: str) -> Any:
        return self.docs.get(name)


# ---------------------------------------------------------------- reading


def _read_jsonl(path: Path, name: str) -> list[Any]:
    try:
        text = read_limited(path, MAX_PACKAGE_FILE_BYTES, "package file").decode("utf-8")
    except UnsafeFileError as exc:
        raise ApexImportError(name, exc.reason) from None
    except (OSError, ValueError) as exc:
        raise ApexImportError(name, f"cannot read: {exc}") from None
    rows: list[Any] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise ApexImportError(name, f"invalid JSON: {exc.msg}", f"line {number}") from None
    return rows


def read_package(root: Path) -> Ctx:
    """Read every file the importer understands; a missing required file is an error."""
    if not root.is_dir():
        raise ApexImportError("", "not a package folder")
    ctx = Ctx(root)
    for name in READ_FILES:
        path = root / name
        if not path.is_file():
            if name in REQUIRED_FILES:
                raise ApexImportError(name, "missing (a required file of an APEX-Voice package)")
            continue
        try:
            resolve_inside(root, name, "package file")
        except UnsafeFileError as exc:
            raise ApexImportError(name, exc.reason) from None
        if name.endswith(".jsonl"):
            ctx.docs[name] = _read_jsonl(path, name)
            continue
        try:
            ctx.docs[name] = read_document(path, MAX_PACKAGE_FILE_BYTES, "package file")
        except ItemError as exc:
            first = exc.problems[0]
            raise ApexImportError(name, first.message, first.path) from None
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and rel not in READ_FILES and not rel.startswith("."):
            ctx.note(rel, "", "unread file", "no counterpart in an item; not imported")
    return ctx


# ---------------------------------------------------------------- typed access


def mapping(value: Any, file: str, path: str, default: dict[str, Any] | None = None) -> Any:
    """`value` as a mapping; None gives `default` (when given), anything else is an error."""
    if value is None and default is not None:
        return default
    if not isinstance(value, dict):
        raise ApexImportError(file, f"expected a mapping, got {type(value).__name__}", path)
    return value


def seq(value: Any, file: str, path: str) -> list[Any]:
    """`value` as a list (None -> empty)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise ApexImportError(file, f"expected a list, got {type(value).__name__}", path)
    return value


def text(value: Any, file: str, path: str, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if isinstance(value, bool) or not isinstance(value, str | int | float) or str(value) == "":
        raise ApexImportError(file, f"expected a non-empty string, got {value!r}", path)
    return str(value)


def integer(value: Any, file: str, path: str) -> int:
    """A non-negative whole number (milliseconds and the like)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ApexImportError(file, f"expected a non-negative number, got {value!r}", path)
    return int(value)


def ident(value: Any, file: str, path: str) -> str:
    """An id usable in an item (letters, digits, `_ . -`, starting with a letter)."""
    name = text(value, file, path)
    if not IDENTIFIER.match(name):
        raise ApexImportError(file, f"{name!r} is not a usable id (letters, digits, _ . -)", path)
    return name


def leftover(ctx: Ctx, doc: Any, file: str, path: str, handled: set[str], *, why: str) -> None:
    """Note every key of a mapping the importer does not use."""
    if not isinstance(doc, dict):
        return
    for key in doc:
        if key not in handled:
            where = f"{path}.{key}" if path else str(key)
            ctx.note(file, where, str(key), why)


def label(value: Any) -> str:
    """An APEX enum label, normalized: upper case, words joined by `_`."""
    return re.sub(r"[^A-Z0-9]+", "_", str(value).upper()).strip("_")


def words(name: str) -> str:
    """An id read aloud: `submit_expense` -> `submit expense`."""
    return re.sub(r"[_.\-]+", " ", name).strip()


def sentence(value: str) -> str:
    """Humanize an id into a sentence: `submit_expense_report` -> `Submit expense report.`"""
    spoken = words(value)
    if not spoken:
        return ""
    spoken = spoken[:1].upper() + spoken[1:]
    return spoken if spoken.endswith((".", "!", "?")) else spoken + "."


LIFECYCLE = {
    "EMPTY": "empty",
    "PARTIAL": "draft",
    "DRAFT": "draft",
    "IN_PROGRESS": "draft",
    "READY": "ready",
    "READY_FOR_REVIEW": "ready",
    "REVIEW": "ready",
    "APPROVED": "ready",
    "COMMITTED": "committed",
    "SUBMITTED": "committed",
}
"""APEX lifecycle states -> ours. APPROVED has no counterpart (noted where used)."""


def lifecycle(ctx: Ctx, value: Any, file: str, path: str) -> str:
    key = label(value)
    if key not in LIFECYCLE:
        raise ApexImportError(file, f"unknown lifecycle state {value!r}", path)
    if key == "APPROVED":
        ctx.note(
            file, path, "lifecycle APPROVED", "no approved state in duplexbench; read as ready"
        )
    return LIFECYCLE[key]
