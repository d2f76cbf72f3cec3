"""Agent registry: a registering decorator, spec strings and lookup.

An agent spec is `name[:model][?key=value&...]`, e.g. `oracle`, `noop` or
`openai-realtime:gpt-realtime?voice=marin`; `module.path:factory[?...]` names
a factory by module (`plugins.py`). Agents from outside duplexbench (installed
plug-ins, plug-in files) are loaded by `plugins.py`, each in isolation. The
built-in agents' modules are declared by `_catalog.py` (`declare_builtins`): the
registry names no built-in, so the modules that register one import it, never
the other way round.

Names: a built-in agent's name cannot be taken by a plug-in (the built-in
stays, the plug-in's registration is ignored with a warning); a name two
plug-ins register is an error only when that agent is asked for, naming both.
"""

from __future__ import annotations

import importlib
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qsl

from duplexbench.agents import _plugins as plugins
from duplexbench.agents._audio_protocol import StepAgent, StreamingAgent
from duplexbench.agents._protocol import TextAgent

Channel = Literal["text", "audio"]
AnyAgent = TextAgent | StepAgent | StreamingAgent
AgentFactory = Callable[["AgentSpec", Channel], AnyAgent]
_SPEC = re.compile(r"^(?P<name>[a-z][a-z0-9_\-.]*)(:(?P<model>[^?]+))?(\?(?P<query>.*))?$")
BUILT_IN = "built-in"
log = logging.getLogger("duplexbench.plugins")


@dataclass(frozen=True)
class AgentSpec:
    name: str
    model: str | None
    options: dict[str, str]
    raw: str


@dataclass(frozen=True)
class AgentInfo:
    name: str
    description: str
    factory: AgentFactory
    privileged: bool
    origin: str
    channels: tuple[Channel, ...]

    def create(self, spec: AgentSpec, channel: Channel) -> AnyAgent:
        """An agent for this channel, or ValueError naming the channels it supports."""
        if channel not in self.channels:
            raise ValueError(
                f"agent {self.name!r} has no {channel} channel; it supports: "
                + ", ".join(self.channels)
            )
        return self.factory(spec, channel)


_REGISTRY: dict[str, AgentInfo] = {}
_LOADED: set[str] = set()
_CONFLICTS: dict[str, list[str]] = {}
"""Names registered by more than one plug-in -> the origins."""


def register_agent(
    name: str,
    *,
    description: str,
    privileged: bool = False,
    origin: str = BUILT_IN,
    channels: tuple[Channel, ...] = ("text",),
) -> Callable[[AgentFactory], AgentFactory]:
    """Register an agent factory under `name`.

    The factory is called as `factory(spec, channel)` and returns a
    `TextAgent` for "text", a `StepAgent` or a `StreamingAgent` for "audio". `privileged` agents
    see hidden item state (the reference trajectory); only oracles should.
    """

    def decorate(factory: AgentFactory) -> AgentFactory:
        loading = plugins.current_origin()
        source = loading if loading is not None and origin == BUILT_IN else origin
        _add(AgentInfo(name, description, factory, privileged, source, channels))
        return factory

    return decorate


def _add(info: AgentInfo) -> None:
    existing = _REGISTRY.get(info.name)
    if existing is None:
        _REGISTRY[info.name] = info
    elif existing.origin == BUILT_IN and info.origin == BUILT_IN:
        raise ValueError(f"agent {info.name!r} is already registered")
    elif BUILT_IN in (existing.origin, info.origin):
        plugin = info if existing.origin == BUILT_IN else existing
        log.warning(
            "warning: %s registers %r, the name of a built-in agent; ignored",
            plugin.origin,
            info.name,
        )
        _REGISTRY[info.name] = existing if existing.origin == BUILT_IN else info
    else:
        _CONFLICTS.setdefault(info.name, [existing.origin]).append(info.origin)


def parse_spec(spec: str) -> AgentSpec:
    match = _SPEC.match(spec.strip())
    if match is None:
        raise ValueError(f"bad agent spec {spec!r}; expected name[:model][?key=value&...]")
    query = match.group("query") or ""
    try:
        options = dict(parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query)))
    except ValueError as exc:
        raise ValueError(f"bad agent spec {spec!r}: options: {exc}") from None
    return AgentSpec(match.group("name"), match.group("model"), options, spec.strip())


_SECRET_OPTION = re.compile(r"^(?:api_?key|key|token|secret|password)$|_(?:key|token|secret)$")


def redact_spec(spec: str) -> str:
    """The spec with secret-looking option values replaced by `***` (for records and logs).

    `api_key_env=NAME` (the name of a variable) is kept; `api_key=sk-...` is not.
    """
    parsed = urlsplit_query(spec)
    if parsed is None:
        return spec
    head, pairs = parsed
    shown = [
        f"{k}=***" if _SECRET_OPTION.search(k.casefold()) and not k.endswith("_env") else f"{k}={v}"
        for k, v in pairs
    ]
    return f"{head}?{'&'.join(shown)}"


def urlsplit_query(spec: str) -> tuple[str, list[tuple[str, str]]] | None:
    head, sep, query = spec.partition("?")
    if not sep:
        return None
    return head, parse_qsl(query, keep_blank_values=True)


_EAGER: list[str] = []
"""Modules of built-in agents imported before any lookup (`declare_builtins`)."""
_LAZY: dict[str, str] = {}
"""Built-in agent name -> the module that defines it, imported when the agent is first
asked for by name (`declare_builtins`)."""


def declare_builtins(eager: Sequence[str], lazy: Mapping[str, str]) -> None:
    """Say where the built-in agents are defined: the modules of `eager`, imported before
    any lookup, and `lazy`, agent name -> its own module, imported when that agent is
    first asked for (`list_agents` imports them all). The registry itself knows no
    built-in by name: the face declares them through `_catalog.py`."""
    _EAGER.extend(module for module in eager if module not in _EAGER)
    _LAZY.update(lazy)


def _import_once(module: str) -> None:
    if module not in _LOADED:
        _LOADED.add(module)
        importlib.import_module(module)


def _load_agents(name: str | None = None) -> None:
    """Import what defines agent `name`: the eager built-ins' modules, then its own module
    if it is a lazy built-in, else the installed plug-ins. None: every agent there is."""
    for module in _EAGER:
        _import_once(module)
    if name is not None and name in _REGISTRY:
        return
    if name is not None and name in _LAZY:
        _import_once(_LAZY[name])
        return
    if name is None:
        for module in _LAZY.values():
            _import_once(module)
    plugins.load_plugin_files()
    plugins.load_entry_points()


def conflicts() -> dict[str, list[str]]:
    """Agent names more than one plug-in registers -> their origins (unusable names)."""
    return {name: list(origins) for name, origins in _CONFLICTS.items()}


def list_agents() -> list[AgentInfo]:
    _load_agents()
    return sorted(_REGISTRY.values(), key=lambda a: a.name)


def get_agent(spec: str, modules: bool = True) -> tuple[AgentInfo, AgentSpec]:
    """Look up an agent spec; raises ValueError naming the known agents. `modules=False`
    never imports a `module.path:factory` (for specs read from files, e.g. a run
    directory's campaign.json: importing runs code from the import path)."""
    parsed = parse_spec(spec)
    _load_agents(parsed.name)
    if parsed.name not in _REGISTRY:
        _load_agents()  # every name, for the message
    if parsed.name in _CONFLICTS:
        sources = " and ".join(_CONFLICTS[parsed.name])
        raise ValueError(
            f"agent {parsed.name!r} is registered by more than one plug-in ({sources}); "
            "uninstall one of them"
        )
    info = _REGISTRY.get(parsed.name)
    if info is None:
        found = plugins.module_factory(parsed.name, parsed.model) if modules else None
        if found is not None:
            channels: tuple[Channel, ...] = ("text", "audio")
            info = AgentInfo(
                found.name, found.description, found.factory, False, found.origin, channels
            )
            return info, parsed
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(
            f"unknown agent {parsed.name!r}; known agents: {known} "
            "(or module.path:factory; docs/agents.md)"
        )
    return info, parsed
