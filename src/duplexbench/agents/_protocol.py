"""The in-process text-channel agent API.

An agent is started once per episode with its instructions and tool schemas,
then asked to `respond` to each user utterance. A turn may call tools; the
harness runs them on the media timeline and calls `respond` again with the
results (and no user text) until the agent returns a turn without tool
calls, the way realtime APIs continue after function outputs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from duplexbench.agents._listener.outline import Outline
from duplexbench.agents._listener.outline_build import ActReader, build_outline
from duplexbench.items import ActionItem, Reference, WorkflowItem


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True)
class Privileged:
    """Hidden item state, handed only to agents registered as privileged (the oracle)."""

    reference: Reference
    last_user_plans: Callable[[], list[str]]
    user_backchanneled: Callable[[], bool] = lambda: False
    """Whether the user's latest utterance is only a backchannel ("mm-hm"): an
    ideal agent keeps the floor and does not take it as a turn (audio only)."""
    make_outline: Callable[[], Outline | None] = lambda: None
    """Builds the outline (once, on first use: only the listener reads it)."""

    @property
    def outline(self) -> Outline | None:
        """The item's plan without a caller value: the reference's turns with each
        argument's source instead of its value (`agents/_listener/outline.py`)."""
        return self.make_outline()

    @classmethod
    def for_item(
        cls,
        item: WorkflowItem,
        acts: ActReader,
        last_user_plans: Callable[[], list[str]],
        user_backchanneled: Callable[[], bool] = lambda: False,
    ) -> Privileged:
        """The hidden state of one workflow episode; `acts` is the harness's act observer
        (it reads the acts of each reference turn for the outline)."""
        outline = functools.cache(lambda: build_outline(item, acts))
        return cls(item.reference, last_user_plans, user_backchanneled, outline)


@dataclass(frozen=True)
class ActionPrivileged:
    """Hidden state of an action episode (the item and when its cue was placed), handed
    only to privileged agents (the scripted `ideal-floor` agent)."""

    item: ActionItem
    cue_onset: Callable[[], int | None] = lambda: None


@dataclass(frozen=True)
class AgentSession:
    instructions: str
    tools: tuple[ToolSpec, ...]
    item_id: str
    seed: int
    privileged: Privileged | None = None
    action: ActionPrivileged | None = None
    """Action episodes only, privileged agents only."""


@dataclass(frozen=True)
class ToolResultMessage:
    call_id: str
    name: str
    output: dict[str, Any]


@dataclass(frozen=True)
class AgentInput:
    """What the agent perceives: the user's words and/or results of its tool calls."""

    t_ms: int
    user_text: str | None = None
    tool_results: tuple[ToolResultMessage, ...] = ()


@dataclass(frozen=True)
class AgentToolCall:
    name: str
    arguments: Any = field(default_factory=dict)
    call_id: str | None = None


@dataclass(frozen=True)
class AgentTurn:
    """Tool calls (run first), then speech; `end_call` hangs up after speaking."""

    say: str = ""
    tool_calls: tuple[AgentToolCall, ...] = ()
    end_call: bool = False

    @property
    def empty(self) -> bool:
        return not self.say.strip() and not self.tool_calls and not self.end_call


@runtime_checkable
class TextAgent(Protocol):
    def start(self, session: AgentSession) -> None: ...

    def respond(self, observation: AgentInput) -> AgentTurn: ...

    def close(self) -> None: ...


class AgentError(Exception):
    """The agent could not go on. The episode ends with reason `error` and `error_kind:
    agent` and is scored as a failed episode over the state as it stood (never retried,
    never left out of a rate; docs/metrics.md, "Errors")."""
