"""The Voice Workbench: tools, knowledge, versioned artifacts, database, authorization."""

from duplexbench.workbench._errors import ToolFailure
from duplexbench.workbench._runtime import ToolOutcome, Workbench, json_problem
from duplexbench.workbench._state import WorkbenchState, apply_event, initial_state, replay

__all__ = [
    "ToolFailure",
    "ToolOutcome",
    "Workbench",
    "WorkbenchState",
    "apply_event",
    "initial_state",
    "json_problem",
    "replay",
]
