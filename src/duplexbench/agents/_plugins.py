"""Agents from outside duplexbench: installed plug-ins, plug-in files, `module:factory` specs.

Three routes (docs/agents.md, "Bring your own agent"):

- Installed packages declare an entry point in the group `duplexbench.agents`;
  importing it must call `register_agent`. Each entry point loads on its own:
  one that fails to import is skipped with one warning naming its
  distribution and the error, and `agents list` shows it as broken; the other
  agents stay usable. What it registers records the distribution as its
  origin.
- A plug-in file: `duplexbench --plugin my_agent.py ...` (or the
  `DUPLEXBENCH_PLUGINS` environment variable, paths separated by the OS path
  separator) imports the file, which calls `register_agent`, with the same
  isolation. The option sets the variable, so worker processes of a campaign
  load the files too (on a Ray cluster, install a package instead).
- A factory by module path: `--agent my_pkg.my_agent:make?key=value` imports
  `my_pkg.my_agent` (the working directory is on the import path) and calls
  `make(spec, channel)` for each episode; `spec.options` holds the options.
  It must return a `TextAgent` for the text channel and a `StepAgent` or a
  `StreamingAgent` for audio. Such an agent is never privileged.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import logging
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

GROUP = __name__.rpartition(".")[0]
"""The entry-point group of agent plug-ins: this package's name, `duplexbench.agents`
(derived, not spelled out: the string would read as an import of the package's face,
which imports this module; tests/test_layers.py)."""
PLUGINS_ENV = "DUPLEXBENCH_PLUGINS"
log = logging.getLogger("duplexbench.plugins")


@dataclass(frozen=True)
class BrokenPlugin:
    source: str
    """The distribution and entry point, or the file."""
    error: str


@dataclass(frozen=True)
class ModuleFactory:
    """A `module.path:factory` found by import (the registry makes its AgentInfo)."""

    name: str
    description: str
    factory: Callable[..., Any]
    origin: str


_BROKEN: list[BrokenPlugin] = []
_DONE: set[str] = set()
_ORIGIN: list[str] = []
"""The plug-in being loaded (what its registrations record as their origin)."""


def current_origin() -> str | None:
    """The distribution or file whose import is running, if any."""
    return _ORIGIN[-1] if _ORIGIN else None


@contextmanager
def loading_origin(origin: str) -> Iterator[None]:
    _ORIGIN.append(origin)
    try:
        yield
    finally:
        _ORIGIN.pop()


def broken_plugins() -> list[BrokenPlugin]:
    """Plug-ins that failed to load in this process (each warned about once)."""
    return list(_BROKEN)


def add_plugin_files(paths: list[Path]) -> None:
    """Load these plug-in files now and in worker processes (`PLUGINS_ENV`)."""
    known = [p for p in os.environ.get(PLUGINS_ENV, "").split(os.pathsep) if p]
    for path in paths:
        resolved = str(path.resolve())
        if not Path(resolved).is_file():
            raise ValueError(f"plug-in file {path} does not exist")
        if resolved not in known:
            known.append(resolved)
    os.environ[PLUGINS_ENV] = os.pathsep.join(known)
    load_plugin_files()


def load_plugin_files() -> None:
    for path in os.environ.get(PLUGINS_ENV, "").split(os.pathsep):
        if path and f"file:{path}" not in _DONE:
            _DONE.add(f"file:{path}")
            _isolated(f"plug-in file {path}", f"file {path}", partial(_exec_file, path))


def load_entry_points() -> None:
    for ep in entry_points(group=GROUP):
        if f"ep:{ep.value}" not in _DONE:
            _DONE.add(f"ep:{ep.value}")
            dist = _distribution(ep)
            source = f"plug-in {dist} (entry point {ep.name} = {ep.value})"
            _isolated(source, dist, ep.load)


def module_factory(module_name: str, attr: str | None) -> ModuleFactory | None:
    """The factory of a `module.path:factory` spec, or None when `module_name` is no
    module (ValueError when the module fails to import or has no such callable)."""
    if attr is None or not attr.isidentifier():
        return None
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # a module next to the user's files
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (module_name + ".").startswith(exc.name + "."):
            return None  # no such module: an unknown agent name
        raise ValueError(f"agent module {module_name!r} failed to import: {exc}") from None
    except Exception as exc:
        raise ValueError(
            f"agent module {module_name!r} failed to import: {type(exc).__name__}: {exc}"
        ) from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise ValueError(f"{module_name}:{attr}: {module.__file__} has no callable {attr!r}")
    doc = (factory.__doc__ or "").strip().splitlines()
    return ModuleFactory(
        name=f"{module_name}:{attr}",
        description=doc[0] if doc else f"factory {attr} of {module_name}",
        factory=factory,
        origin=f"module {module_name} ({module.__file__})",
    )


def _distribution(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    name = getattr(dist, "name", None) if dist is not None else None
    return str(name) if name else ep.value.split(":")[0].split(".")[0]


def _isolated(source: str, origin: str, load: Callable[[], object]) -> None:
    """Run `load` with registrations recorded as from `origin`; a failure is one warning."""
    try:
        with loading_origin(origin):
            load()
    except Exception as exc:  # a plug-in's bug must not take the other agents down
        error = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        _BROKEN.append(BrokenPlugin(source, error))
        log.warning("warning: %s failed to load and is skipped: %s", source, error)


def _exec_file(path: str) -> None:
    digest = hashlib.sha256(path.encode()).hexdigest()[:8]
    name = f"duplexbench_plugin_{Path(path).stem}_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
