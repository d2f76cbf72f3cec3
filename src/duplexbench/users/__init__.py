"""The simulated user: act observer, flow-engine policy, realization."""

from duplexbench.users.observer import ActObserver
from duplexbench.users.policy import Observation, Plan, UserPolicy
from duplexbench.users.realization import Realizer

__all__ = ["ActObserver", "Observation", "Plan", "Realizer", "UserPolicy"]
