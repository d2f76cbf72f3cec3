"""Property-based fuzzing of the item loaders: every input ends in an item or an ItemError.

Malformed workflow and action item documents (YAML and JSON text: wrong types,
missing keys, huge strings, deep nesting, surrogates/NUL/RTL, unsafe YAML tags,
alias bombs, mutated copies of real items) are written to files and loaded
through the public entry points: `load_item`, `load_action_item`, `load_suite`
and `load_action_suite` (file and folder), and `suite_family`. Each case must
end in a valid item/suite or an `ItemError` with problems; any other exception,
or a case running past `CASE_SECONDS` (SIGALRM guard), fails.

Cases per target by default (`DUPLEXBENCH_FUZZ_EXAMPLES`, default 40, sets the
Hypothesis `max_examples` of each property; e.g. `DUPLEXBENCH_FUZZ_EXAMPLES=2000`
for a long run):

- `test_random_documents_load_or_fail_cleanly`: N random documents x 4 file loaders
- `test_mutated_workflow_items`: N mutated workflow fixtures (file + folder loaders)
- `test_mutated_action_items`: N mutated action items (file + folder loaders)
- `test_random_text`: N raw YAML/JSON texts (bytes, unicode) x 4 file loaders
- `test_random_manifests`: N random suite manifests (folder loaders)
- `test_adversarial`: 17 fixed cases (1 MB string, 10,000-deep lists, billion
  laughs, python tags, ...) x 4 file loaders
- regression tests for the loader fixes (`test_regression_*`).

The whole file runs in about 20-30 s at the default.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from duplexbench.items._action_suite import load_action_item, load_action_suite, suite_family
from duplexbench.items._errors import ItemError, Problem
from duplexbench.items._load import MAX_ITEM_BYTES, MAX_YAML_NODES, load_item
from duplexbench.items._suite import load_suite
from support.fixtures import FIXTURES
from support.fuzzing import FUZZ, get, json_strategies, paths_of, time_guard

ACTIONS = Path(__file__).parents[2] / "src/duplexbench/suites/data/actions-v1"
WORKFLOW_FILES = sorted(p for p in FIXTURES.glob("*.yaml") if p.name != "suite.yaml")
ACTION_FILES = sorted(ACTIONS.glob("*.yaml"))[::97][:6]


def outcome(load: Callable[[Path], Any], path: Path) -> str:
    """`ok` or `error`; anything else (another exception, a hang) fails the test."""
    with time_guard():
        try:
            load(path)
        except ItemError as exc:
            assert exc.problems and all(isinstance(p, Problem) for p in exc.problems)
            assert all(isinstance(p.file, str) and p.message for p in exc.problems)
            str(exc)
            return "error"
    return "ok"


FILE_LOADERS: list[Callable[[Path], Any]] = [
    load_item,
    load_action_item,
    load_suite,
    load_action_suite,
]
FOLDER_LOADERS: list[Callable[[Path], Any]] = [load_suite, load_action_suite, suite_family]


def load_everywhere(path: Path) -> None:
    for load in [*FILE_LOADERS, suite_family]:
        outcome(load, path)


# --- documents --------------------------------------------------------------------------------

NASTY_ITEM_TEXT = [
    "",
    "\x00",
    "\u202e",
    "\ufeff",
    "\ud800",
    "\udfff",
    "\U0001f600",
    "family",
    "action",
    "workflow",
    "{x}",
    "x" * 300,
    "../../etc/passwd",
    "2020-02-30",
    "1e999",
    "-",
    "~",
    "null",
]
_JSON = json_strategies(
    nasty=NASTY_ITEM_TEXT,
    text_size=40,
    keys=st.one_of(st.text(max_size=40), st.sampled_from(NASTY_ITEM_TEXT), st.integers()),
    list_size=5,
    dict_size=6,
    max_leaves=30,
)
text, scalars, documents = _JSON.text, _JSON.scalars, _JSON.documents


def dump(data: Any, fmt: str, unicode: bool) -> bytes:
    """YAML or JSON bytes; lone surrogates go out as `surrogatepass` (invalid UTF-8)."""
    if fmt == "json":
        return json.dumps(data, ensure_ascii=not unicode).encode("utf-8", "surrogatepass")
    try:
        out = yaml.safe_dump(data, allow_unicode=unicode, sort_keys=False)
    except yaml.YAMLError:
        out = yaml.safe_dump(data, allow_unicode=False, sort_keys=False)
    return out.encode("utf-8", "surrogatepass")


def write(folder: Path, name: str, content: bytes | str) -> Path:
    path = folder / name
    path.write_bytes(
        content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
    )
    return path


@FUZZ
@given(data=documents, fmt=st.sampled_from(["yaml", "json"]), unicode=st.booleans())
def test_random_documents_load_or_fail_cleanly(data: Any, fmt: str, unicode: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = write(Path(tmp), f"item.{fmt}", dump(data, fmt, unicode))
        load_everywhere(path)


@FUZZ
@given(
    content=st.one_of(st.binary(max_size=200), st.text(max_size=200)),
    fmt=st.sampled_from(["yaml", "yml", "json"]),
)
def test_random_text(content: bytes | str, fmt: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        load_everywhere(write(Path(tmp), f"item.{fmt}", content))


# --- mutated real items -----------------------------------------------------------------------


def strings_of(node: Any) -> list[str]:
    return [s for p in paths_of(node) if isinstance(s := get(node, p), str)]


@st.composite
def mutated(draw: st.DrawFn, source: Path) -> Any:
    data = yaml.safe_load(source.read_text())
    for _ in range(draw(st.integers(1, 4))):
        paths = [p for p in paths_of(data) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = get(data, path[:-1])
        op = draw(st.sampled_from(["drop", "replace", "retarget", "rename", "wrap"]))
        if op == "drop":
            del parent[path[-1]]
        elif op == "replace":
            parent[path[-1]] = draw(documents)
        elif op == "retarget":
            parent[path[-1]] = draw(st.sampled_from([*strings_of(data), "nope", ""]))
        elif op == "rename" and isinstance(parent, dict):
            parent[draw(text)] = parent.pop(path[-1])
        else:
            parent[path[-1]] = [parent[path[-1]]]
    return data


def check_mutant(data: Any, fmt: str, good: list[Path]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = write(folder, f"mutant.{fmt}", dump(data, fmt, unicode=True))
        load_everywhere(path)
        for other in good:
            write(folder, other.name, other.read_bytes())
        for load in FOLDER_LOADERS:
            outcome(load, folder)


@FUZZ
@given(st.data(), st.sampled_from(WORKFLOW_FILES), st.sampled_from(["yaml", "json"]))
def test_mutated_workflow_items(data: st.DataObject, source: Path, fmt: str) -> None:
    check_mutant(data.draw(mutated(source)), fmt, WORKFLOW_FILES[:2])


@FUZZ
@given(st.data(), st.sampled_from(ACTION_FILES), st.sampled_from(["yaml", "json"]))
def test_mutated_action_items(data: st.DataObject, source: Path, fmt: str) -> None:
    check_mutant(data.draw(mutated(source)), fmt, ACTION_FILES[:2])


manifests = st.fixed_dictionaries(
    {},
    optional={
        "name": text,
        "family": st.one_of(st.sampled_from(["workflow", "action"]), scalars),
        "version": scalars,
        "items": st.one_of(
            st.lists(st.one_of(text, st.sampled_from(["a.yaml", ".", "", "/", "\x00.yaml"]))),
            scalars,
        ),
        "checksums": st.one_of(st.dictionaries(text, text, max_size=3), scalars),
        "generator": documents,
    },
)


@FUZZ
@given(manifest=st.one_of(manifests, documents), fmt=st.sampled_from(["yaml", "json"]))
def test_random_manifests(manifest: Any, fmt: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write(folder, f"suite.{fmt}", dump(manifest, fmt, unicode=True))
        write(folder, "a.yaml", WORKFLOW_FILES[0].read_bytes())
        for load in FOLDER_LOADERS:
            outcome(load, folder)


# --- fixed adversarial cases ------------------------------------------------------------------

LAUGHS = "a: &a ['lol','lol','lol','lol','lol','lol','lol','lol','lol']\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
)
ADVERSARIAL: dict[str, str] = {
    "huge-string.yaml": "id: '" + "x" * (1 << 20) + "'\n",
    "huge-string.json": json.dumps({"family": "action", "id": "x" * (1 << 20)}),
    "deep-lists.yaml": "[" * 10_000 + "]" * 10_000,
    "deep-lists.json": "[" * 10_000 + "]" * 10_000,
    "deep-block.yaml": "- " * 10_000 + "x\n",
    "deep-maps.json": '{"a":' * 10_000 + "1" + "}" * 10_000,
    "billion-laughs.yaml": LAUGHS,
    "python-tag.yaml": "!!python/object/apply:os.system ['echo pwned']\n",
    "python-name.yaml": "id: !!python/name:os.system\n",
    "surrogate.json": '{"family": "action", "id": "\\ud800", "context": "\\u202e\\u0000"}',
    "nul-rtl.yaml": 'family: action\nid: "\\0\\u202e"\ncontext: "\\u200f\\U0001F600"\n',
    "bad-date.yaml": "family: action\nid: 2020-02-30\n",
    "bad-int-tag.yaml": "id: !!int abc\n",
    "huge-int.yaml": "id: " + "9" * 5000 + "\n",
    "huge-int.json": '{"id": ' + "9" * 5000 + "}",
    "unhashable-key.yaml": "? [a]\n: b\n",
    "many-nodes.yaml": "- 1\n" * (MAX_YAML_NODES + 10),
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, name, ADVERSARIAL[name])
    for load in FILE_LOADERS:
        assert outcome(load, path) == "error"


def test_oversized_file_is_refused_before_parsing(tmp_path: Path) -> None:
    path = write(tmp_path, "big.yaml", "- " + "x" * MAX_ITEM_BYTES + "\n")
    with pytest.raises(ItemError, match="the limit is"):
        load_item(path)


# --- regressions for the loader fixes ---------------------------------------------------------


def error_of(tmp_path: Path, name: str, content: str) -> str:
    with time_guard(), pytest.raises(ItemError) as info:
        load_item(write(tmp_path, name, content))
    return str(info.value)


@pytest.mark.parametrize(
    ("content", "where", "what"),
    [
        ("id: 2020-02-30\n", "line 1 column 5", "day is out of range"),
        ("id: !!timestamp 2020-13-45\n", "line 1 column 5", "month must be in"),
        ("id: !!float abc\n", "line 1 column 5", "could not convert"),
        ("id: !!int abc\n", "line 1 column 5", "invalid literal"),
        ("id: " + "9" * 5000 + "\n", "line 1 column 5", "Exceeds the limit"),
    ],
)
def test_regression_bad_yaml_scalars_are_item_errors(
    tmp_path: Path, content: str, where: str, what: str
) -> None:
    message = error_of(tmp_path, "item.yaml", content)
    assert where in message and what in message


@pytest.mark.parametrize("content", ["? [a]\n: b\n", "{[a]: 1}\n", "!!set {[a]}\n"])
def test_regression_unhashable_yaml_keys_are_item_errors(tmp_path: Path, content: str) -> None:
    assert "unhashable key" in error_of(tmp_path, "item.yaml", content)


def test_regression_huge_json_integer_is_an_item_error(tmp_path: Path) -> None:
    assert "Exceeds the limit" in error_of(tmp_path, "item.json", '{"id": ' + "9" * 5000 + "}")


def test_regression_yaml_node_count_is_bounded(tmp_path: Path) -> None:
    message = error_of(tmp_path, "item.yaml", "a: b\n" * 1_000_000)  # 5 MB, 43 s unbounded
    assert f"more than {MAX_YAML_NODES} YAML nodes" in message


def test_regression_nul_in_manifest_item_path_is_an_item_error(tmp_path: Path) -> None:
    write(tmp_path, "suite.yaml", 'name: s\nitems: ["a\\0.yaml"]\n')
    with pytest.raises(ItemError, match="cannot read"):
        load_suite(tmp_path)
