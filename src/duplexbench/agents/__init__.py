"""Agents under test: the text and audio agent protocols, the events an agent sends,
the registry (`register_agent`, agent specs) and the scripted agent.

Network adapters live in `_providers/` and load when named; `_serve/` is `serve-agent`
(docs/agents.md, agents/README.md).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from duplexbench.agents._audio_builtin import AudioOracle
from duplexbench.agents._audio_protocol import AudioSession, SpeechKit, StepAgent, StreamingAgent
from duplexbench.agents._builtin import NoopAgent, OracleAgent, ShortcutAgent
from duplexbench.agents._catalog import is_remote
from duplexbench.agents._connection import ConnectionNotOpened
from duplexbench.agents._events import (
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
from duplexbench.agents._instructions import build_instructions
from duplexbench.agents._plugins import add_plugin_files, broken_plugins
from duplexbench.agents._protocol import (
    ActionPrivileged,
    AgentError,
    AgentInput,
    AgentSession,
    AgentToolCall,
    AgentTurn,
    Privileged,
    TextAgent,
    ToolResultMessage,
    ToolSpec,
)
from duplexbench.agents._registry import (
    AgentInfo,
    AgentSpec,
    conflicts,
    get_agent,
    list_agents,
    redact_spec,
    register_agent,
)
from duplexbench.agents._scripted import ScriptedAgent

if TYPE_CHECKING:
    from duplexbench.agents._providers.moshi_opus import (
        MOSHI_RATE,
        OPUS_RATE,
        OggOpusDecoder,
        OggOpusEncoder,
        OggOpusError,
    )
    from duplexbench.agents._providers.moshi_protocol import BYTES
    from duplexbench.agents._providers.transport import Message, Transport, TransportClosed
    from duplexbench.agents._serve import RealtimeServer, ServeConfig, SessionStats, is_loopback

_WHERE = {
    "BYTES": "_providers.moshi_protocol",
    "MOSHI_RATE": "_providers.moshi_opus",
    "Message": "_providers.transport",
    "OPUS_RATE": "_providers.moshi_opus",
    "OggOpusDecoder": "_providers.moshi_opus",
    "OggOpusEncoder": "_providers.moshi_opus",
    "OggOpusError": "_providers.moshi_opus",
    "RealtimeServer": "_serve",
    "is_loopback": "_serve",
    "ServeConfig": "_serve",
    "SessionStats": "_serve",
    "Transport": "_providers.transport",
    "TransportClosed": "_providers.transport",
}

__all__ = [
    "BYTES",
    "MOSHI_RATE",
    "OPUS_RATE",
    "ActionPrivileged",
    "AgentError",
    "AgentEvent",
    "AgentFailure",
    "AgentInfo",
    "AgentInput",
    "AgentSession",
    "AgentSpec",
    "AgentToolCall",
    "AgentTurn",
    "AudioDelta",
    "AudioOracle",
    "AudioSession",
    "ConnectionNotOpened",
    "EndCall",
    "Message",
    "NoopAgent",
    "OggOpusDecoder",
    "OggOpusEncoder",
    "OggOpusError",
    "OracleAgent",
    "Privileged",
    "RealtimeServer",
    "ResponseDone",
    "ScriptedAgent",
    "ServeConfig",
    "SessionStats",
    "ShortcutAgent",
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
    "Transport",
    "TransportClosed",
    "UsageDelta",
    "add_plugin_files",
    "broken_plugins",
    "build_instructions",
    "conflicts",
    "get_agent",
    "is_loopback",
    "is_remote",
    "list_agents",
    "redact_spec",
    "register_agent",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
