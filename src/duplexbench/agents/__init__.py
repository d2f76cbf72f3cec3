"""Agents under test: the text-channel protocol, the registry and built-in agents."""

from duplexbench.agents.protocol import (
    AgentError,
    AgentInput,
    AgentSession,
    AgentToolCall,
    AgentTurn,
    TextAgent,
    ToolSpec,
)
from duplexbench.agents.registry import AgentSpec, get_agent, list_agents, register_agent
from duplexbench.agents.scripted import ScriptedAgent

__all__ = [
    "AgentError",
    "AgentInput",
    "AgentSession",
    "AgentSpec",
    "AgentToolCall",
    "AgentTurn",
    "ScriptedAgent",
    "TextAgent",
    "ToolSpec",
    "get_agent",
    "list_agents",
    "register_agent",
]
