"""Test helpers shipped with duplexbench: a scripted fake provider for adapters, and
defect agents (`duplexbench.testing._defects`: the oracle with one defect each) that show
every metric catches what it was built to catch."""

from duplexbench.testing._provider import (
    Disconnect,
    Emit,
    Expect,
    ScriptedProvider,
    ScriptError,
)

__all__ = ["Disconnect", "Emit", "Expect", "ScriptError", "ScriptedProvider"]
