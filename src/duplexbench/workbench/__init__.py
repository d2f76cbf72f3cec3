"""The Voice Workbench: tools, knowledge, versioned artifacts, database, authorization."""

from duplexbench.workbench.errors import ToolFailure
from duplexbench.workbench.runtime import ToolOutcome, Workbench
from duplexbench.workbench.state import WorkbenchState, initial_state, replay

__all__ = ["ToolFailure", "ToolOutcome", "Workbench", "WorkbenchState", "initial_state", "replay"]
