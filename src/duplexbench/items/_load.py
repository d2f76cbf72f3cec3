"""Loading items and suites from YAML or JSON, safely, with precise errors.

Item files are data: YAML is read with a safe loader that also refuses
anchors/aliases (no "billion laughs"), duplicate keys and every tag that builds
a Python object (`!!python/...`); files above :data:`MAX_ITEM_BYTES` (or the
limit a caller passes, e.g. suite manifests and campaign plans) and files that
are not regular files are refused before parsing. Items reference no other
files; the only file references, a suite manifest's `items`, are checked in
:mod:`duplexbench.items._suite`.

PyYAML's pure-Python parser is slow (about 0.1 s for one workflow item, most
of `run --limit 1`'s start-up), so what a YAML file parsed to is remembered:
a checked entry (:mod:`duplexbench.entries`) under ``<speech cache>/parsed/``
(``DUPLEXBENCH_PARSE_CACHE`` moves it, ``off`` disables it), keyed by a sha256
of the file's exact bytes, the PyYAML version and the loader's limits. Only
bytes that parsed and passed every check above are remembered, and only data
JSON holds exactly (no dates, sets or binary); the size limit and the regular
file check still apply to every read, and what is returned is validated as
before.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from duplexbench.entries import CheckedEntries, cache_root
from duplexbench.files import UnsafeFileError, read_limited
from duplexbench.items._errors import ItemError, Problem, format_loc
from duplexbench.items._families import FAMILIES
from duplexbench.items._validate import check_item
from duplexbench.items._workflow import WorkflowItem

MAX_ITEM_BYTES = 5 * 1024 * 1024
MAX_YAML_NODES = 100_000
"""YAML nodes per file (real items hold ~2,000): bounds the pure-Python parse time."""
ITEM_SUFFIXES = (".yaml", ".yml", ".json")


class _StrictSafeLoader(yaml.SafeLoader):
    """SafeLoader without aliases and without duplicate mapping keys.

    At most :data:`MAX_YAML_NODES` nodes are composed. Scalars that match a
    tag's pattern but not its range (`2020-02-30`, `!!int abc`, a 5000-digit
    integer) and unhashable keys (`? [a]`) become ConstructorErrors with a
    position, not bare ValueError/TypeError.
    """

    nodes = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self.nodes += 1
        if self.nodes > MAX_YAML_NODES:
            event = self.peek_event()  # type: ignore[no-untyped-call]  # PyYAML's loader is untyped
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"more than {MAX_YAML_NODES} YAML nodes in one file",
                event.start_mark,
            )
        if self.check_event(yaml.events.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]  # PyYAML's loader is untyped
            raise yaml.constructor.ConstructorError(
                None, None, "YAML aliases (*name) are not allowed", event.start_mark
            )
        return super().compose_node(parent, index)

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, TypeError, OverflowError) as exc:
            raise yaml.constructor.ConstructorError(
                None, None, f"bad value for {node.tag}: {exc}", node.start_mark
            ) from None

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            try:
                hash(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, f"unhashable key {key!r}", key_node.start_mark
                ) from None
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def read_document(path: Path, max_bytes: int = MAX_ITEM_BYTES, what: str = "file") -> Any:
    """Parse a YAML or JSON file into plain data, or raise ItemError naming the file.

    A file above `max_bytes`, or not a regular file (a FIFO, /dev/zero), is refused
    before parsing; `what` names the kind of file in that message.
    """
    name = str(path)
    try:
        text = read_limited(path, max_bytes, what).decode("utf-8")
    except UnsafeFileError as exc:
        raise ItemError([Problem(name, "", exc.reason)]) from None
    except (OSError, ValueError) as exc:  # ValueError: bad UTF-8, NUL in the path
        raise ItemError([Problem(name, "", f"cannot read: {exc}")]) from None
    try:
        if path.suffix == ".json":
            return json.loads(text)
        return _parsed_yaml(text)
    except json.JSONDecodeError as exc:
        raise ItemError([Problem(name, f"line {exc.lineno} column {exc.colno}", exc.msg)]) from None
    except ValueError as exc:  # e.g. an integer beyond the int-string conversion limit
        raise ItemError([Problem(name, "", f"invalid document: {exc}")]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1} column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ItemError([Problem(name, where, f"invalid YAML: {problem}")]) from None
    except RecursionError:
        raise ItemError([Problem(name, "", "document nests too deeply")]) from None


PARSED_FORMAT = 1


def _parsed_yaml(text: str) -> Any:
    """`text` parsed by the strict loader, or what the same bytes parsed to before."""
    env = os.environ.get("DUPLEXBENCH_PARSE_CACHE", "")
    if env.strip().lower() == "off":
        return yaml.load(text, Loader=_StrictSafeLoader)
    store = _parsed_store(Path(env).expanduser() if env else cache_root() / "parsed")
    identity = f"{PARSED_FORMAT}\0{yaml.__version__}\0{MAX_YAML_NODES}\0"
    key = hashlib.sha256(identity.encode() + text.encode("utf-8")).hexdigest()
    stored = store.get(key)
    if stored is not None and "data" in stored:
        return stored["data"]
    data = yaml.load(text, Loader=_StrictSafeLoader)
    if _json_exact(data):
        store.put(key, {"data": data})
    return data


@functools.cache
def _parsed_store(root: Path) -> CheckedEntries:
    return CheckedEntries(root, PARSED_FORMAT, "parsed-document cache")


def _json_exact(data: Any, depth: int = 0) -> bool:
    """Whether JSON gives `data` back exactly (plain types, str keys, finite floats)."""
    if depth > 200:
        return False
    if data is None or isinstance(data, (str, bool, int)):
        return True
    if isinstance(data, float):
        return math.isfinite(data)
    if isinstance(data, list):
        return all(_json_exact(v, depth + 1) for v in data)
    if isinstance(data, dict):
        return all(isinstance(k, str) and _json_exact(v, depth + 1) for k, v in data.items())
    return False


def parse_item(data: Any, file: str = "<item>") -> WorkflowItem:
    """Validate plain data as a workflow item; every problem is reported at once."""
    if not isinstance(data, dict):
        raise ItemError([Problem(file, "", f"expected a mapping, got {type(data).__name__}")])
    family = data.get("family", "workflow")
    if family != "workflow":
        hint = f" ({family} items load with an {family} suite)" if family in FAMILIES else ""
        raise ItemError([Problem(file, "family", f"unsupported item family {family!r}{hint}")])
    try:
        item = WorkflowItem.model_validate(data)
    except ValidationError as exc:
        raise ItemError(
            [Problem(file, format_loc(e["loc"], data), _message(e)) for e in exc.errors()]
        ) from None
    except RecursionError:
        raise ItemError([Problem(file, "", "document nests too deeply")]) from None
    problems = [Problem(file, path, msg) for path, msg in check_item(item)]
    if problems:
        raise ItemError(problems)
    return item


def validation_problems(exc: ValidationError, data: Any, file: str) -> list[Problem]:
    return [Problem(file, format_loc(e["loc"], data), _message(e)) for e in exc.errors()]


def _message(error: Any) -> str:
    msg = str(error["msg"])
    if error["type"] == "extra_forbidden":
        return "unknown key (not part of the item format)"
    if error["type"] == "literal_error":
        return f"{msg}; got {error['input']!r}"
    return msg.removeprefix("Value error, ")


def load_item(path: str | Path) -> WorkflowItem:
    """Load one item file (YAML or JSON)."""
    path = Path(path)
    return parse_item(read_document(path), str(path))


LATE_FIELDS: dict[str, dict[str, object]] = {
    "facts": {"description": ""},
    "approvals": {"readback": []},
}
"""Fields of `user.facts[*]` and `user.approvals[*]` added after the workflow format was
published, with their defaults: left out of the checksum while they hold the default, so
an item that does not use them keeps the checksum its suite manifest recorded."""


def _without_late_defaults(data: dict[str, Any]) -> dict[str, Any]:
    user = data.get("user")
    if not isinstance(user, dict):
        return data
    for key, defaults in LATE_FIELDS.items():
        for entry in user.get(key) or []:
            for name, default in defaults.items():
                if isinstance(entry, dict) and entry.get(name, default) == default:
                    entry.pop(name, None)
    return data


def item_checksum(item: BaseModel) -> str:
    """Content checksum of an item: sha256 of its canonical JSON (see `LATE_FIELDS`)."""
    data = _without_late_defaults(item.model_dump(mode="json"))
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()
