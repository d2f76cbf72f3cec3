"""Test helpers shipped with duplexbench: a scripted fake provider for adapters."""

from duplexbench.testing.provider import (
    Disconnect,
    Emit,
    Expect,
    ScriptedProvider,
    ScriptError,
)

__all__ = ["Disconnect", "Emit", "Expect", "ScriptError", "ScriptedProvider"]
