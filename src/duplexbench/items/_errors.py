"""Item problems: what is wrong, in which file, at which path inside it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One problem in one file, e.g. `artifacts[0].fields[3].grader: ...`."""

    file: str
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.path}" if self.path else self.file
        return f"{where}: {self.message}"


class ItemError(Exception):
    """One or more problems that stop items from loading."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def format_loc(loc: Sequence[int | str], data: Any) -> str:
    """Render a pydantic error location as `a.b[3].c`, dropping union tags.

    Pydantic inserts the discriminator value (e.g. `action` for a tool of
    kind action) into locations; walking the raw input tells a tag from a key.
    """
    out = ""
    node = data
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
            node = node[part] if isinstance(node, list) and 0 <= part < len(node) else None
            continue
        if isinstance(node, dict) and part not in node and part in node.values():
            continue  # a union tag, not a key of the input
        out += f".{part}" if out else part
        node = node.get(part) if isinstance(node, dict) else None
    return out
