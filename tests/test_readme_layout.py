"""The README's layout block names every package and module of src/duplexbench, and
nothing that is not there (sub-packages too)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "duplexbench"
ENTRY = re.compile(r"^( *)([\w.]+/?)\s")


def _layout() -> set[str]:
    """Paths under src/duplexbench the block names (`agents/_providers/`, `words.py`)."""
    text = (ROOT / "README.md").read_text()
    block = text[text.index("src/duplexbench/\n") : text.index("\ntests/ ")]
    named: set[str] = set()
    stack: list[str] = []
    for line in block.splitlines()[1:]:
        match = ENTRY.match(line)
        if match is None:
            continue
        depth = len(match.group(1)) // 2 - 1
        stack = [*stack[:depth], match.group(2)]
        named.add("".join(stack))
    return named


def _tree() -> set[str]:
    out = set()
    for path in SRC.rglob("*"):
        rel = path.relative_to(SRC)
        if "__pycache__" in rel.parts or "data" in rel.parts[:-1]:
            continue
        if path.is_dir() and (path / "__init__.py").is_file():
            out.add(f"{rel.as_posix()}/")
        elif path.suffix == ".py" and len(rel.parts) == 1 and path.name != "__init__.py":
            out.add(rel.as_posix())
    return out


def test_the_readme_layout_block_matches_the_tree() -> None:
    named, tree = _layout(), _tree()
    packages = {p for p in tree if p.endswith("/")}
    assert packages <= named, f"packages the README's layout leaves out: {sorted(packages - named)}"
    modules = {p for p in tree if p.endswith(".py")}
    assert modules <= named, f"modules the README's layout leaves out: {sorted(modules - named)}"
    code = {n for n in named if n.endswith((".py", "/"))} - {"data/"}
    stale = {n for n in code if not (SRC / n).exists()}
    assert not stale, f"the README's layout names what is not there: {sorted(stale)}"
