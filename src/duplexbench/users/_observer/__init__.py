"""The act observer: what the simulated caller understands of the agent's speech.

Public face: :class:`ActObserver` (one item), :class:`ObserverConfig` (which
layers; recorded with every run) and :data:`OBSERVER_VERSION`. The layers and
their parts are private modules (see docs/simulator.md).
"""

from duplexbench.users._observer.layered import (
    OBSERVER_VERSION,
    ActObserver,
    ObserverConfig,
    check_observer,
)

__all__ = ["OBSERVER_VERSION", "ActObserver", "ObserverConfig", "check_observer"]
