"""The layer table of docs/architecture.md ("Layers (imports point down)") is a
contract: every import in src/duplexbench obeys it.

The table is read from the doc itself, so the two cannot drift. Each row names
its packages (the backticked names of the second cell, remarks in parentheses
left out) and what they may import (the third cell: backticked packages;
`nothing`; `all of the above`, `everything above` or `everything` for every
package of the rows above; remarks in parentheses say why). A row may only
name packages of the rows above it, so the table itself has no cycle.

Every module is read with `ast`: each `import` and `from ... import` at any
depth (inside functions and under `if TYPE_CHECKING:` too: both are still
coupling), relative ones resolved, and each string literal naming a
duplexbench module (`importlib.import_module("duplexbench.x")`, lazy-import
tables). A module belongs to its top-level package (`duplexbench.agents._serve`
is `agents`; a single module such as `files.py` is its own package); an import
of another package must be allowed by the importer's row. There is no list of
exceptions: a new dependency either obeys the table or changes the doc.

Inside a package, modules import each other without a cycle (the same imports
count: function-level, type-only and string ones), so each package reads
bottom-up too; `import_cycles` names each cycle found.

Two more rules of the same page ("Public faces"): another package is imported
through its face (`from duplexbench.items import WorkflowItem`, never
`duplexbench.items._workflow`), and a package's own modules and folders are
`_private`, except `__init__`, `__main__` and a module (or the folder holding
one) that runs as a program (`if __name__ == "__main__":`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
SRC = ROOT / "src" / "duplexbench"
SECTION = "## Layers (imports point down)"
HEADER = ["layer", "package", "may import"]
ABOVE = {"all of the above", "everything above", "everything"}
NAME = re.compile(r"`([a-z_]+)`")
MODULE_STRING = re.compile(r"duplexbench(?:\.[A-Za-z_]\w*)+(?::[\w.]+)?")


class TableError(ValueError):
    """The layer table cannot be read as a contract."""


@dataclass(frozen=True)
class Row:
    line: int
    packages: tuple[str, ...]
    may_import: frozenset[str]
    terms: str
    """The third cell as written, without its remarks (for messages)."""


def without_remarks(cell: str) -> str:
    """`cell` with every (parenthesized remark) left out, nested ones included."""
    kept, depth = [], 0
    for char in cell:
        depth += (char == "(") - (char == ")")
        if depth < 0:
            raise TableError(f"unbalanced parentheses in {cell!r}")
        if depth == 0 and char != ")":
            kept.append(char)
    if depth:
        raise TableError(f"unbalanced parentheses in {cell!r}")
    return "".join(kept)


def names(cell: str, line: int) -> list[str]:
    """The backticked names of a comma-separated cell; anything else is an error."""
    found = []
    for term in (t.strip() for t in without_remarks(cell).split(",")):
        match = NAME.fullmatch(term)
        if match is None:
            raise TableError(f"{DOC.name}:{line}: {term!r} is not a `name`")
        found.append(match.group(1))
    return found


def table_lines(text: str) -> list[tuple[int, list[str]]]:
    """(line number, cells) of each row of the layer table, header and rule left out."""
    lines = text.splitlines()
    if SECTION not in lines:
        raise TableError(f"no {SECTION!r} section")
    start = lines.index(SECTION) + 1
    rows = []
    for number, line in enumerate(lines[start:], start + 1):
        if line.startswith("## "):
            break
        if line.startswith("|"):
            rows.append((number, [cell.strip() for cell in line.strip().strip("|").split("|")]))
    if not rows or rows[0][1] != HEADER:
        raise TableError(f"the layer table's header is not {HEADER}")
    return rows[2:]


def parse_layers(text: str) -> list[Row]:
    rows: list[Row] = []
    for line, cells in table_lines(text):
        if len(cells) != len(HEADER):
            raise TableError(f"{DOC.name}:{line}: {len(cells)} cells, not {len(HEADER)}")
        terms = ", ".join(" ".join(t.split()) for t in without_remarks(cells[2]).split(","))
        above = {p for row in rows for p in row.packages}
        allowed: set[str] = set()
        if terms != "nothing":
            for term in (t.strip() for t in terms.split(",")):
                allowed |= above if term in ABOVE else set(names(term, line))
        rows.append(Row(line, tuple(names(cells[1], line)), frozenset(allowed), terms))
    return rows


def module_names(src: Path) -> set[str]:
    """Every module of the package, dotted without `duplexbench.` (the root is "")."""
    found = set()
    for path in src.rglob("*.py"):
        parts = path.relative_to(src).with_suffix("").parts
        found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def top_level_packages(src: Path) -> set[str]:
    return {name.split(".")[0] for name in module_names(src)} - {""}


def imported(node: ast.AST, here: tuple[str, ...], modules: set[str]) -> list[str]:
    """The dotted modules `node` imports (`here`: the package a relative import starts in)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        anchor = here[: len(here) - node.level + 1] if node.level else ()
        base = ".".join([*anchor, *([node.module] if node.module else [])])
        inside = base.removeprefix("duplexbench").removeprefix(".")
        return [
            f"{base}.{alias.name}" if f"{inside}.{alias.name}".lstrip(".") in modules else base
            for alias in node.names
        ]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        name = node.value.partition(":")[0]
        if MODULE_STRING.fullmatch(node.value) and name.removeprefix("duplexbench.") in modules:
            return [name]
    return []


def imports_of(path: Path, src: Path, modules: set[str]) -> Iterator[tuple[int, str]]:
    """(line, module without `duplexbench.`) of every duplexbench module `path` imports."""
    here = ("duplexbench", *path.relative_to(src).parts[:-1])
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = {
        (getattr(node, "lineno", 0), name.removeprefix("duplexbench."))
        for node in ast.walk(tree)
        for name in imported(node, here, modules)
        if name.startswith("duplexbench.")
    }
    yield from sorted(found)


def allows(row: Row, target: str) -> bool:
    return target.split(".", maxsplit=1)[0] in row.may_import


def package_of(path: Path, src: Path) -> str:
    """The top-level package `path` belongs to ("" for the root `__init__.py`)."""
    parts = path.relative_to(src).with_suffix("").parts
    return "" if parts == ("__init__",) else parts[0]


def violations(rows: list[Row], src: Path, shown_from: Path) -> list[str]:
    """One line per import the table does not allow: module, line, import, the rule."""
    rule = {package: row for row in rows for package in row.packages}
    modules = module_names(src)
    found = []
    for path in sorted(src.rglob("*.py")):
        package = package_of(path, src)
        for line, target in imports_of(path, src, modules):
            if target.split(".")[0] == package:
                continue
            row = rule.get(package)
            if row is None or not allows(row, target):
                may = f"may import {row.terms}" if row else "is in no row of the table"
                found.append(
                    f"{path.relative_to(shown_from)}:{line}: imports duplexbench.{target}, "
                    f"but `{package or 'duplexbench'}` {may}"
                )
    return found


def face_violations(src: Path, shown_from: Path) -> list[str]:
    """One line per import of another package that does not go through its face."""
    modules = module_names(src)
    found = []
    for path in sorted(src.rglob("*.py")):
        package = package_of(path, src)
        for line, target in imports_of(path, src, modules):
            face = target.split(".", maxsplit=1)[0]
            if face not in (package, target):
                found.append(
                    f"{path.relative_to(shown_from)}:{line}: imports duplexbench.{target}, "
                    f"not the face duplexbench.{face}"
                )
    return found


def is_program(path: Path) -> bool:
    return 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")


def public_internals(src: Path, shown_from: Path) -> list[str]:
    """Each module or folder of a package that is neither `_private` nor a program."""
    found = []
    for package in sorted(p.parent for p in src.glob("*/__init__.py")):
        for child in sorted(package.iterdir()):
            if child.name.startswith("_"):
                continue
            if child.suffix == ".py":
                programs = [child]
            elif (child / "__init__.py").exists():
                programs = sorted(child.rglob("*.py"))
            else:
                continue  # data: suites/data/, README.md, prices.yaml
            if not any(is_program(path) for path in programs):
                found.append(f"{child.relative_to(shown_from)} is not _private")
    return found


def module_of(path: Path, src: Path) -> str:
    parts = path.relative_to(src).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_cycles(src: Path) -> list[list[str]]:
    """Each group of modules of one package that import each other in a cycle (a
    strongly connected component of more than one module, or a module importing
    itself), sorted; the package face counts as the module `package`."""
    modules = module_names(src)
    graph: dict[str, set[str]] = {}
    for path in sorted(src.rglob("*.py")):
        here = module_of(path, src)
        package = here.split(".")[0]
        graph[here] = {
            target
            for _, target in imports_of(path, src, modules)
            if target.split(".")[0] == package and target in modules
        }
    return sorted(sorted(group) for group in _components(graph) if _is_cycle(group, graph))


def _is_cycle(group: list[str], graph: dict[str, set[str]]) -> bool:
    return len(group) > 1 or group[0] in graph[group[0]]


def _components(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, without recursion."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                found.append(group)
    return found


def test_no_package_imports_itself_in_a_cycle() -> None:
    cycles = import_cycles(SRC)
    assert not cycles, (
        f"{len(cycles)} import cycles inside a package (move what both sides need into a "
        "module below them, or pass a function in):\n"
        + "\n".join(" <-> ".join(group) for group in cycles)
    )


def test_every_import_obeys_the_layer_table() -> None:
    problems = violations(parse_layers(DOC.read_text(encoding="utf-8")), SRC, ROOT)
    assert not problems, (
        f"{len(problems)} imports break the layer table of docs/architecture.md "
        "(move the code down, pass a function in, or change the table, saying why):\n"
        + "\n".join(problems)
    )


def test_other_packages_are_imported_through_their_faces() -> None:
    problems = face_violations(SRC, ROOT)
    assert not problems, (
        f"{len(problems)} imports reach past a package's face (export the name from its "
        "__init__ and import it from there):\n" + "\n".join(problems)
    )


def test_internal_modules_are_private() -> None:
    problems = public_internals(SRC, ROOT)
    assert not problems, (
        "modules and folders other packages must not import are `_private` "
        "(docs/architecture.md, Public faces):\n" + "\n".join(problems)
    )


def test_the_table_names_every_package_once() -> None:
    rows = parse_layers(DOC.read_text(encoding="utf-8"))
    named = [package for row in rows for package in row.packages]
    assert sorted(named) == sorted(set(named)), "a package is in two rows"
    assert set(named) == top_level_packages(SRC)


def test_the_table_points_down() -> None:
    """A row may import only packages of the rows above it: no cycle."""
    rows = parse_layers(DOC.read_text(encoding="utf-8"))
    for index, row in enumerate(rows):
        above = {package for earlier in rows[:index] for package in earlier.packages}
        for entry in row.may_import:
            assert entry in above, f"{DOC.name}:{row.line}: {entry} is not above"


TABLE = """\
## Layers (imports point down)

| layer | package | may import |
|---|---|---|
| base | `base` (the bottom, `not_a_package` in a remark) | nothing |
| low | `low` | `base` (why (nested)) |
| mid | `mid`, `side` | `low`, `base` (why) |
| top | `top` | everything above |

## Next
| a | b | c |
"""

PROGRAM = 'if __name__ == "__main__":\n    pass\n'
SOURCES = {
    "__init__.py": '"""The root."""\n',
    "base/__init__.py": "import os\n",
    "base/_one.py": "",
    "base/two.py": "",
    "low/__init__.py": "from duplexbench import base\n",
    "low/_x.py": "from . import _y\nfrom .. import base\n",
    "low/_y.py": "",
    "low/tool.py": PROGRAM,
    "mid/__init__.py": "from duplexbench.base._one import f\nimport duplexbench.low._x\n",
    "mid/_bad.py": (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from duplexbench.top import T\n"
        "def f():\n"
        "    import duplexbench.base\n"
        "    return importlib.import_module('duplexbench.top.z')\n"
        "NAMES = {'side': 'duplexbench.side:make', 'no': 'duplexbench.plugins'}\n"
        "from ..base import two\n"
    ),
    "side.py": "",
    "top/__init__.py": "from duplexbench.mid import _bad\nfrom duplexbench import side\n",
    "top/z.py": "",
    "top/cmd/__init__.py": "",
    "top/cmd/run.py": PROGRAM,
}


def test_the_parser_reads_names_remarks_modules_and_above() -> None:
    rows = parse_layers(TABLE)
    assert [row.packages for row in rows] == [("base",), ("low",), ("mid", "side"), ("top",)]
    assert [set(row.may_import) for row in rows] == [
        set(),
        {"base"},
        {"low", "base"},
        {"base", "low", "mid", "side"},
    ]
    assert rows[2].terms == "`low`, `base`"


@pytest.mark.parametrize(
    ("cell", "error"),
    [
        ("`a` and `b`", "is not a `name`"),
        ("`a.module`", "is not a `name`"),
        ("`a` (why", "unbalanced"),
        ("`a`) b", "unbalanced"),
    ],
)
def test_a_table_that_cannot_be_read_fails(cell: str, error: str) -> None:
    with pytest.raises(TableError, match=error):
        parse_layers(TABLE.replace("| `low`, `base` (why) |", f"| {cell} |"))


def write_sources(root: Path) -> Path:
    src = root / "duplexbench"
    for name, text in SOURCES.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text, encoding="utf-8")
    return src


def test_every_kind_of_import_is_checked(tmp_path: Path) -> None:
    found = violations(parse_layers(TABLE), write_sources(tmp_path), tmp_path)
    may = "but `mid` may import `low`, `base`"
    assert found == [
        f"duplexbench/mid/_bad.py:3: imports duplexbench.top, {may}",
        f"duplexbench/mid/_bad.py:6: imports duplexbench.top.z, {may}",
        f"duplexbench/mid/_bad.py:7: imports duplexbench.side, {may}",
    ]


def test_an_import_past_a_face_is_found(tmp_path: Path) -> None:
    found = face_violations(write_sources(tmp_path), tmp_path)
    assert found == [
        f"duplexbench/{where}: imports duplexbench.{target}, not the face duplexbench.{face}"
        for where, target, face in [
            ("mid/__init__.py:1", "base._one", "base"),
            ("mid/__init__.py:2", "low._x", "low"),
            ("mid/_bad.py:6", "top.z", "top"),
            ("mid/_bad.py:8", "base.two", "base"),
            ("top/__init__.py:1", "mid._bad", "mid"),
        ]
    ]


def test_a_public_internal_module_is_found_and_programs_are_not(tmp_path: Path) -> None:
    src = write_sources(tmp_path)
    (src / "top" / "data").mkdir()
    assert public_internals(src, tmp_path) == [
        "duplexbench/base/two.py is not _private",
        "duplexbench/top/z.py is not _private",
    ]


def test_a_cycle_is_found_through_every_kind_of_import(tmp_path: Path) -> None:
    src = write_sources(tmp_path)
    assert import_cycles(src) == []
    (src / "low" / "_y.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ._x import X\n"
    )
    (src / "mid" / "_c.py").write_text("TABLE = {'a': 'duplexbench.mid:make'}\n")
    (src / "mid" / "__init__.py").write_text("from duplexbench.mid import _c\n")
    assert import_cycles(src) == [["low._x", "low._y"], ["mid", "mid._c"]]
