"""docs/api.md lists each package's face (`__init__.__all__`), no more and no less.

Regenerate the lists after a face changes: for each `## duplexbench.PKG` section, one
`- NAME` bullet (with the first paragraph of the object's docstring) per name of
`duplexbench.PKG.__all__`, in that order.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "api.md"
SECTION = re.compile(r"^## `duplexbench\.(\w+)`$", re.M)
BULLET = re.compile(r"^- `(\w+)`", re.M)


def _sections() -> dict[str, list[str]]:
    text = PAGE.read_text()
    heads = list(SECTION.finditer(text))
    out: dict[str, list[str]] = {}
    for head, nxt in zip(heads, [*heads[1:], None], strict=True):
        body = text[head.end() : nxt.start() if nxt else len(text)]
        out[head.group(1)] = BULLET.findall(body)
    return out


def test_the_page_lists_every_face_as_it_is() -> None:
    sections = _sections()
    src = Path(__file__).resolve().parents[1] / "src" / "duplexbench"
    with_face = sorted(
        p.name
        for p in src.iterdir()
        if (p / "__init__.py").is_file() and "__all__" in (p / "__init__.py").read_text()
    )
    assert sorted(sections) == with_face
    for package, names in sections.items():
        face = importlib.import_module(f"duplexbench.{package}")
        assert names == list(face.__all__), package
        for name in names:
            getattr(face, name)  # every exported name resolves
