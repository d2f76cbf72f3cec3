"""Every module docs/architecture.md names exists in the code, so the page cannot
keep a name from before a rename.

The page is read as Markdown: the inline code spans (`...`, across a line break
too) outside fenced blocks. Each span is split into words at white space, and a
word's surrounding quotes and punctuation (`"'(),;:`) are left out. A word is
checked by the first rule that fits it:

1. **Dotted** (`duplexbench.x.y`, also inside a command such as `python -m
   duplexbench.suites.workflows.build`; a `:attr` tail is not read): a module
   `src/duplexbench/x/y.py` or a package `src/duplexbench/x/y/__init__.py`.
2. **Path** (a word with a `/` that does not start with one: `campaign/_family.py`,
   `users/_observer/`, `docs/audio.md`): a file or folder (a trailing `/`: a
   folder) under `src/duplexbench/`, else under the repository root. A word with
   `*` is a glob (`orchestrator/_replay*.py`) that must match at least one path
   under one of the two. Absolute paths (`/usr/bin/time`) and placeholders
   (`<bank>/...`) are not paths of the repository and are not read.
3. **Module file** (a bare `name.py`: `yesno.py`, `_frame_loop.py`): a file of
   that name somewhere under `src/duplexbench/`. Other bare file names are data
   (`campaign.json`, `events.jsonl`, `result.json`, `prices.yaml`: files of a
   run directory or a package's data, not modules) and are not read.
4. **`module.Name`** (two identifiers joined by one dot, the second not a data
   suffix such as json, jsonl, wav or yaml): it refers to code when its first
   part is the stem of a module file somewhere under `src/duplexbench/`, spelled
   as written or with its leading underscore added or left out (`runner` counts
   because `_runner.py` exists, so a name from before modules turned private is
   caught). Then the module must be spelled as in the code (`_runner`, not
   `runner`) and `Name` must be defined at the top level of one module of that
   stem (read with `ast`: `def`, `class`, an assignment or an annotated one).
   Trace event types (`user.repair`, `episode.end`: the `a.b` string constants
   of `src/duplexbench/trace/`) are events, not code, and a first part that
   names no module file (`asyncio.run`, `importlib.import_module`) is not read;
   neither is a name that a package folder holds (`campaign.run_campaign`: the
   face, even where `cli/_campaign.py` exists) nor a deeper dotted name.

Any other word (package names, `__init__`, options, event fields) is prose.
The test fails with one line per stale word: the page's line, the word, why.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
SRC = ROOT / "src" / "duplexbench"

SPAN = re.compile(r"`([^`\n]+(?:\n[^`\n]+)*)`")
STRIP = "\"'(),;:"
DOTTED = re.compile(r"duplexbench(?:\.[A-Za-z_]\w*)+")
PATH = re.compile(r"[\w.*-]+(?:/[\w.*-]+)*/?")
MODULE_FILE = re.compile(r"[\w-]+\.py")
MODULE_NAME = re.compile(r"(_?[a-z]\w*)\.([A-Za-z_]\w*)")
EVENT = re.compile(r"[a-z]+(?:\.[a-z_]+)+")
DATA = {"json", "jsonl", "wav", "yaml", "yml", "csv", "sqlite", "parquet", "txt", "html", "md"}


@dataclass
class Tree:
    """What the rules look up in a checkout: `src` is the `duplexbench` package folder."""

    root: Path
    src: Path
    modules: dict[str, list[Path]] = field(default_factory=dict)
    """Module files under `src` by stem (`_runner` -> [campaign/_runner.py])."""
    events: set[str] = field(default_factory=set)
    packages: set[str] = field(default_factory=set)
    """Names of the package folders under `src` (`campaign`, `_observer`)."""

    @classmethod
    def read(cls, root: Path, src: Path) -> Tree:
        tree = cls(root, src)
        for path in sorted(src.rglob("*.py")):
            if "__pycache__" not in path.parts:
                tree.modules.setdefault(path.stem, []).append(path)
        tree.events = event_names(src / "trace")
        tree.packages = {p.parent.name for p in src.rglob("__init__.py")}
        return tree


def event_names(trace: Path) -> set[str]:
    """The `a.b` string constants of the trace package (its event types)."""
    found = set()
    for path in trace.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            value = node.value if isinstance(node, ast.Constant) else None
            if isinstance(value, str) and EVENT.fullmatch(value):
                found.add(value)
    return found


def defined_names(path: Path) -> set[str]:
    """The names a module defines at its top level: def, class, assignments."""
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                found |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
    return found


def without_fences(text: str) -> str:
    """`text` with every fenced block blanked, its lines kept (so line numbers hold)."""
    lines, inside = [], False
    for line in text.splitlines():
        fence = line.lstrip().startswith("```")
        lines.append("" if inside or fence else line)
        inside ^= fence
    return "\n".join(lines)


def code_words(text: str) -> Iterator[tuple[int, str]]:
    """(line, word) of each word of each inline code span, its quotes and punctuation off."""
    text = without_fences(text)
    for span in SPAN.finditer(text):
        for word in re.finditer(r"\S+", span.group(1)):
            token = word.group().strip(STRIP)
            if token:
                yield text.count("\n", 0, span.start(1) + word.start()) + 1, token


def path_problem(token: str, tree: Tree) -> str | None:
    folder = token.endswith("/")
    pattern = token.rstrip("/")
    for base in (tree.src, tree.root):
        if "*" in pattern:
            if any(p.is_dir() or not folder for p in base.glob(pattern)):
                return None
        elif (base / pattern).is_dir() if folder else (base / pattern).exists():
            return None
    what = "matches nothing" if "*" in token else "is not there"
    return f"{what} under src/duplexbench/ or the repository root"


def module_name_problem(module: str, name: str, tree: Tree) -> str | None:
    paths = tree.modules.get(module)
    if paths is None:
        spelled = sorted({module.lstrip("_"), f"_{module.lstrip('_')}"} & tree.modules.keys())
        return f"no module {module}.py under src/duplexbench/ ({spelled[0]}.py is)"
    if any(name in defined_names(path) for path in paths):
        return None
    where = ", ".join(str(p.relative_to(tree.src)) for p in paths)
    return f"{name} is not defined at the top level of {where}"


def is_module_name(module: str, name: str, tree: Tree) -> bool:
    """Whether `module.name` refers to code (rule 4 of the docstring)."""
    if name in DATA or f"{module}.{name}" in tree.events or module in tree.packages:
        return False
    stems = {module, module.lstrip("_"), f"_{module.lstrip('_')}"}
    return bool(stems & tree.modules.keys())


def problem(token: str, tree: Tree) -> str | None:
    """Why `token` names code that is not there; None when it is there or is no code."""
    if dotted := DOTTED.match(token):
        parts = dotted.group().split(".")[1:]
        target = tree.src.joinpath(*parts)
        if target.with_suffix(".py").is_file() or (target / "__init__.py").is_file():
            return None
        return f"no module or package {dotted.group()} under src/"
    if "/" in token:
        if token.startswith("/") or not PATH.fullmatch(token):
            return None
        return path_problem(token, tree)
    if MODULE_FILE.fullmatch(token):
        if token.removesuffix(".py") in tree.modules:
            return None
        return "no module file of that name under src/duplexbench/"
    match = MODULE_NAME.fullmatch(token)
    if match is None:
        return None
    module, name = match.group(1), match.group(2)
    return module_name_problem(module, name, tree) if is_module_name(module, name, tree) else None


def stale_names(text: str, tree: Tree, doc: str = "docs/architecture.md") -> list[str]:
    """One line per stale word of the page: `doc:line: `word` why`."""
    return [
        f"{doc}:{line}: `{token}` {why}"
        for line, token in code_words(text)
        if (why := problem(token, tree)) is not None
    ]


def test_every_module_the_architecture_page_names_exists() -> None:
    stale = stale_names(DOC.read_text(encoding="utf-8"), Tree.read(ROOT, SRC))
    assert not stale, (
        f"{len(stale)} names in docs/architecture.md are not in the code (write the "
        "current module, `_private` as in the code):\n" + "\n".join(stale)
    )


SOURCES = {
    "src/duplexbench/__init__.py": "",
    "src/duplexbench/yesno.py": "def ask() -> bool: ...\n",
    "src/duplexbench/campaign/__init__.py": "",
    "src/duplexbench/campaign/_runner.py": (
        "from typing import Any\n"
        "def run_campaign() -> None: ...\n"
        "class Target: ...\n"
        "LIMIT: int = 3\n"
        "A, (B, C) = 1, (2, 3)\n"
        "if True:\n"
        "    HIDDEN = 1\n"
    ),
    "src/duplexbench/cli/__init__.py": "",
    "src/duplexbench/cli/_campaign.py": "",
    "src/duplexbench/items/_user.py": "",
    "src/duplexbench/orchestrator/_replay.py": "",
    "src/duplexbench/orchestrator/_replay_loop.py": "",
    "src/duplexbench/suites/workflows/__init__.py": "",
    "src/duplexbench/suites/workflows/build.py": "",
    "src/duplexbench/trace/_events.py": (
        "from typing import Literal\nclass Repair:\n    type: Literal['user.repair']\n"
    ),
    "docs/audio.md": "",
    "tests/test_layers.py": "",
}


def write_tree(root: Path) -> Tree:
    for name, text in SOURCES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return Tree.read(root, root / "src" / "duplexbench")


PAGE = """\
# Page

```
runner.run_campaign in a fenced block is a drawing, not read
```

Current: `campaign/_runner.py`, `orchestrator/_replay*.py`, `campaign/`, `docs/audio.md`,
`tests/test_layers.py`, `yesno.py`, `_runner.run_campaign`, `_runner.Target`,
`_runner.LIMIT`, `_runner.B`, `python -m
duplexbench.suites.workflows.build`, `duplexbench.campaign`, `/usr/bin/time python -c
"import duplexbench.yesno"`, `<bank>/rehearsals/`.
Not code: `campaign.json`, `events.jsonl`, `result.json`, `user.repair`, `asyncio.run`,
`campaign.run_campaign`, `error_kind: agent`, `from ... import`, `--condition a,b,c`.
Stale: `runner.run_campaign`, `_runner.rescore_run`, `_runner.HIDDEN`,
`campaign/action_*.py`, `campaign/_runner.py/`, `cue.py`, `duplexbench.suites.build`,
`items/_action.py`, `python -m duplexbench.testing.moshi_server`.
"""


def test_a_stale_name_is_caught_with_its_line(tmp_path: Path) -> None:
    found = stale_names(PAGE, write_tree(tmp_path), "page.md")
    under = "under src/duplexbench/ or the repository root"
    assert found == [
        "page.md:14: `runner.run_campaign` no module runner.py under src/duplexbench/ "
        "(_runner.py is)",
        "page.md:14: `_runner.rescore_run` rescore_run is not defined at the top level of "
        "campaign/_runner.py",
        "page.md:14: `_runner.HIDDEN` HIDDEN is not defined at the top level of "
        "campaign/_runner.py",
        f"page.md:15: `campaign/action_*.py` matches nothing {under}",
        f"page.md:15: `campaign/_runner.py/` is not there {under}",
        "page.md:15: `cue.py` no module file of that name under src/duplexbench/",
        "page.md:15: `duplexbench.suites.build` no module or package "
        "duplexbench.suites.build under src/",
        f"page.md:16: `items/_action.py` is not there {under}",
        "page.md:16: `duplexbench.testing.moshi_server` no module or package "
        "duplexbench.testing.moshi_server under src/",
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("`a.py` and `b/`", [(1, "a.py"), (1, "b/")]),
        ("x `python -m\nduplexbench.x`", [(1, "python"), (1, "-m"), (2, "duplexbench.x")]),
        ('`"import duplexbench.y"`, `(z)`', [(1, "import"), (1, "duplexbench.y"), (1, "z")]),
        ("```\n`fenced.py`\n```\n`after.py`", [(4, "after.py")]),
    ],
)
def test_code_words_are_read_from_inline_spans_only(
    text: str, words: list[tuple[int, str]]
) -> None:
    assert list(code_words(text)) == words


def test_the_trace_event_types_are_read_from_the_trace_package() -> None:
    events = event_names(SRC / "trace")
    assert {"user.repair", "episode.end", "replay.user_stopped"} <= events
