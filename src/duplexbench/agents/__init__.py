"""Agents under test: the text and audio agent protocols, the events an agent sends,
the registry (`register_agent`, agent specs) and the scripted agent.

Network adapters live in `providers/` and load when named; `serve/` is `serve-agent`
(docs/agents.md, agents/README.md).
"""

from duplexbench.agents.audio_protocol import AudioSession, SpeechKit, StepAgent, StreamingAgent
from duplexbench.agents.events import (
    AgentEvent,
    AgentFailure,
    AudioDelta,
    EndCall,
    ResponseDone,
    SpeechCancelled,
    SpeechStarted,
    SpeechStopped,
    ToolCallRequest,
    TranscriptDelta,
    UsageDelta,
)
from duplexbench.agents.protocol import (
    AgentError,
    AgentInput,
    AgentSession,
    AgentToolCall,
    AgentTurn,
    TextAgent,
    ToolResultMessage,
    ToolSpec,
)
from duplexbench.agents.registry import AgentSpec, get_agent, list_agents, register_agent
from duplexbench.agents.scripted import ScriptedAgent

__all__ = [
    "AgentError",
    "AgentEvent",
    "AgentFailure",
    "AgentInput",
    "AgentSession",
    "AgentSpec",
    "AgentToolCall",
    "AgentTurn",
    "AudioDelta",
    "AudioSession",
    "EndCall",
    "ResponseDone",
    "ScriptedAgent",
    "SpeechCancelled",
    "SpeechKit",
    "SpeechStarted",
    "SpeechStopped",
    "StepAgent",
    "StreamingAgent",
    "TextAgent",
    "ToolCallRequest",
    "ToolResultMessage",
    "ToolSpec",
    "TranscriptDelta",
    "UsageDelta",
    "get_agent",
    "list_agents",
    "register_agent",
]
