"""The act observer: what the simulated caller understands of the agent's speech.

Public face: :class:`ActObserver` (one item), :class:`ObserverConfig` (which
layers; recorded with every run), :data:`OBSERVER_VERSION` and the repair acts
:data:`REPAIR_KINDS`. The layers and their parts are private modules (see
docs/simulator.md).
"""

from duplexbench.users._observer.layered import (
    OBSERVER_VERSION,
    ActObserver,
    ObserverConfig,
    check_observer,
)
from duplexbench.users._observer.repairs import REPAIR_KINDS

__all__ = ["OBSERVER_VERSION", "REPAIR_KINDS", "ActObserver", "ObserverConfig", "check_observer"]
