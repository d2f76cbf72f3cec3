"""The built-in agents' catalog: which module defines each built-in agent, declared to
the registry (`declare_builtins`) when the face imports this module, and which of them
reach a service over the network (`is_remote`).

The registry names no built-in, so the modules that register one (`_builtin.py`,
`_faults.py`, `_providers/`) import it and it never imports them back.
"""

from __future__ import annotations

from duplexbench.agents._registry import AgentSpec, declare_builtins

_EAGER_BUILTINS = ("duplexbench.agents._builtin",)
"""The local built-ins (`oracle`, `noop`, `reference`, `text`, ...), imported before any
lookup: a name is looked up among them first."""

_LAZY_BUILTINS: dict[str, str] = {
    "fault": "duplexbench.agents._faults",
    "gemini-live": "duplexbench.agents._providers.gemini_live",
    "moshi": "duplexbench.agents._providers.moshi",
    "openai-realtime": "duplexbench.agents._providers.openai_realtime",
    "step-audio": "duplexbench.agents._providers.step_audio",
    "twilio-stream": "duplexbench.agents._providers.twilio_stream",
    "xai-realtime": "duplexbench.agents._providers.realtime_presets",
    "azure-realtime": "duplexbench.agents._providers.realtime_presets",
}
"""Built-in agents outside `builtin.py`, imported when first asked for by name: the
network adapters bring asyncio, ssl and their protocols, which a run of a local
agent never uses (start-up, docs/results/campaign.md)."""


def is_remote(spec: AgentSpec) -> bool:
    """Whether the agent is a service reached over the network (a hosted model, a phone
    bot, any OpenAI-compatible chat endpoint): its replies may differ between two runs
    of the same episode, where a local agent's are reproducible (`duplexbench verify`)."""
    if spec.name in _LAZY_BUILTINS or spec.name == "text":
        return True
    return spec.name == "reference" and "llm" in spec.options


declare_builtins(_EAGER_BUILTINS, _LAZY_BUILTINS)
