"""A process-wide registry of speech engines (TTS and ASR share it)."""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

T = TypeVar("T")


class EngineRegistry(Generic[T]):
    """Zero-argument factories by name, one cached instance per engine.

    An engine whose factory raises (e.g. `SpeechUnavailable`) is not cached, so
    installing it later works. `builtins` maps names to the ``module:attribute``
    of their factories: registered from the start, each module imported when its
    engine is first built, so the registry need not import the engines. `wrap`, if
    given, is applied to each new instance with its registered name (e.g. to check
    what the engine returns).
    """

    def __init__(
        self,
        kind: str,
        builtins: Mapping[str, str] | None = None,
        wrap: Callable[[str, T], T] | None = None,
    ) -> None:
        self.kind = kind
        self._wrap = wrap
        self._factories: dict[str, Callable[[], T]] = {
            name: self._imported(spec) for name, spec in (builtins or {}).items()
        }
        self._instances: dict[str, T] = {}
        self._lock = threading.RLock()

    @staticmethod
    def _imported(spec: str) -> Callable[[], T]:
        """The factory ``module:attribute`` names, imported only when it is called."""
        module, _, attribute = spec.partition(":")

        def build() -> T:
            factory: Callable[[], T] = getattr(importlib.import_module(module), attribute)
            return factory()

        return build

    def register(self, name: str) -> Callable[[Callable[[], T]], Callable[[], T]]:
        def decorate(factory: Callable[[], T]) -> Callable[[], T]:
            with self._lock:
                if name in self._factories and self._factories[name] is not factory:
                    raise ValueError(f"{self.kind} engine {name!r} is already registered")
                self._factories[name] = factory
            return factory

        return decorate

    def names(self) -> list[str]:
        with self._lock:
            return sorted(self._factories)

    def get(self, name: str) -> T:
        """The process-wide instance; unknown name -> ValueError listing the engines."""
        with self._lock:
            engine = self._instances.get(name)
            if engine is not None:
                return engine
            factory = self._factories.get(name)
            if factory is None:
                known = ", ".join(sorted(self._factories))
                raise ValueError(f"unknown {self.kind} engine {name!r}; engines: {known}")
            engine = factory()
            if self._wrap is not None:
                engine = self._wrap(name, engine)
            self._instances[name] = engine
            return engine
