"""Built-in agents: `oracle` (privileged, follows the reference), `noop`, `silent`, `echo`,
`shortcut`, `reference` and, for action items, `ideal-floor`."""

from __future__ import annotations

from duplexbench.agents._audio_builtin import AudioOracle, EchoAgent, SilentAgent
from duplexbench.agents._audio_protocol import StepAgent
from duplexbench.agents._cascade import CascadeAgent
from duplexbench.agents._ideal_floor import IdealFloorAgent
from duplexbench.agents._listener.brain import ENDPOINT_MS as LISTENER_ENDPOINT_MS
from duplexbench.agents._listener.brain import VERSION as LISTENER_VERSION
from duplexbench.agents._listener.brain import ListenerBrain
from duplexbench.agents._protocol import (
    AgentError,
    AgentInput,
    AgentSession,
    AgentToolCall,
    AgentTurn,
    TextAgent,
)
from duplexbench.agents._providers.text_chat import ChatCompletionsAgent, ChatConfig
from duplexbench.agents._reference import VERSION as REFERENCE_VERSION
from duplexbench.agents._reference import ReferenceDialogue
from duplexbench.agents._reference.chat import RoutedBrain
from duplexbench.agents._reference.phrasing import PHRASINGS
from duplexbench.agents._registry import AgentSpec, Channel, register_agent


class OracleAgent:
    """Plays the item's reference trajectory, one turn per user utterance."""

    def __init__(self) -> None:
        self._session: AgentSession | None = None
        self._next = 0

    def start(self, session: AgentSession) -> None:
        if session.privileged is None:
            raise AgentError("the oracle needs the item's reference trajectory")
        self._session = session
        self._next = 0

    def respond(self, observation: AgentInput) -> AgentTurn:
        assert self._session is not None and self._session.privileged is not None
        if observation.user_text is None:
            return AgentTurn()  # tool results arrived; the reference turn already spoke
        turns = self._session.privileged.reference.turns
        if self._next >= len(turns):
            return AgentTurn()
        turn = turns[self._next]
        if turn.expect is not None:
            heard = self._session.privileged.last_user_plans()
            if turn.expect not in heard:
                raise AgentError(
                    f"reference turn {self._next} expects user plan {turn.expect!r} "
                    f"but the user's last plans were {heard}"
                )
        self._next += 1
        calls = tuple(
            AgentToolCall(c.name, dict(c.arguments), f"ref-{self._next}-{i}")
            for i, c in enumerate(turn.tool_calls)
        )
        return AgentTurn(say=turn.say, tool_calls=calls, end_call=turn.end_call)

    def close(self) -> None:
        self._session = None


class NoopAgent:
    """Never speaks, never acts."""

    def start(self, session: AgentSession) -> None:
        return None

    def respond(self, observation: AgentInput) -> AgentTurn:
        return AgentTurn()

    def close(self) -> None:
        return None


class ShortcutAgent:
    """Commits at once: on its first turn it calls every tool that needs no
    arguments (marking work ready, committing actions) without asking anything,
    then hangs up. A cheating baseline every sound item must fail."""

    def __init__(self) -> None:
        self._tools: tuple[str, ...] = ()
        self._done = False

    def start(self, session: AgentSession) -> None:
        self._tools = tuple(t.name for t in session.tools if not t.parameters.get("required"))
        self._done = False

    def respond(self, observation: AgentInput) -> AgentTurn:
        if self._done or observation.user_text is None:
            return AgentTurn()
        self._done = True
        calls = tuple(
            AgentToolCall(name, {}, f"shortcut-{i}") for i, name in enumerate(self._tools)
        )
        return AgentTurn(say="All done. Goodbye!", tool_calls=calls, end_call=True)

    def close(self) -> None:
        return None


@register_agent(
    "oracle",
    description="Follows the item's reference trajectory (upper bound).",
    privileged=True,
    channels=("text", "audio"),
)
def _oracle(spec: AgentSpec, channel: Channel) -> TextAgent | StepAgent:
    return OracleAgent() if channel == "text" else AudioOracle()


@register_agent(
    "listener",
    description=f"Diagnostic (version {LISTENER_VERSION}): knows the item's plan, never a caller "
    "value; hears every value through the channel and asks for spellings (not a valid result).",
    privileged=True,
    channels=("text", "audio"),
)
def _listener(spec: AgentSpec, channel: Channel) -> TextAgent | StepAgent:
    if spec.options:
        raise ValueError(f"the listener takes no options, got {sorted(spec.options)}")
    if channel == "text":
        return ListenerBrain(audio=False)
    return CascadeAgent(ListenerBrain(audio=True), endpoint_ms=LISTENER_ENDPOINT_MS)


@register_agent(
    "noop", description="Never speaks or acts (lower bound).", channels=("text", "audio")
)
def _noop(spec: AgentSpec, channel: Channel) -> TextAgent | StepAgent:
    return NoopAgent() if channel == "text" else SilentAgent()


@register_agent(
    "reference",
    description=f"Offline cascade (version {REFERENCE_VERSION}): VAD -> whisper -> rule-based "
    "dialogue manager -> piper.",
    channels=("text", "audio"),
)
def _reference(spec: AgentSpec, channel: Channel) -> TextAgent | StepAgent:
    options = dict(spec.options)
    try:
        year = int(options.pop("year", "2026"))
        endpoint = int(options.pop("endpoint_ms", "700"))
        barge_in = int(options.pop("barge_in_ms", "600"))
        phrasing = options.pop("phrasing", "names")
        if phrasing not in PHRASINGS:
            raise ValueError(f"unknown phrasing {phrasing!r}: one of {', '.join(PHRASINGS)}")
        listen = options.pop("listen", "careful")
        if listen not in ("careful", "plain"):
            raise ValueError(f"unknown listen {listen!r}: careful or plain")
        dialogue = ReferenceDialogue(year=year, phrasing=phrasing, careful=listen == "careful")
    except ValueError as exc:
        raise ValueError(f"bad option for the reference agent: {exc}") from None
    brain: TextAgent = _llm_brain(options) if "llm" in options else RoutedBrain(dialogue)
    if options and not isinstance(brain, ChatCompletionsAgent):
        raise ValueError(f"unknown option(s) for the reference agent: {sorted(options)}")
    if channel == "text":
        return brain
    return CascadeAgent(brain, endpoint_ms=endpoint, barge_in_ms=barge_in)


def _llm_brain(options: dict[str, str]) -> TextAgent:
    """`llm=openai:MODEL` (+ the `text` agent's options): an LLM replaces the rule-based brain."""
    provider, _, model = options.pop("llm").partition(":")
    if provider != "openai" or not model:
        raise ValueError("reference: llm must be openai:MODEL (any OpenAI-compatible endpoint)")
    chat = AgentSpec("text", model, options, f"text:{model}")
    return ChatCompletionsAgent(ChatConfig.from_spec(chat))


@register_agent(
    "ideal-floor",
    description="Action items: does exactly what each condition's floor rule asks (test ceiling).",
    privileged=True,
    channels=("audio",),
)
def _ideal_floor(spec: AgentSpec, channel: Channel) -> StepAgent:
    return IdealFloorAgent()


@register_agent("silent", description="Listens, never speaks.", channels=("text", "audio"))
def _silent(spec: AgentSpec, channel: Channel) -> TextAgent | StepAgent:
    return NoopAgent() if channel == "text" else SilentAgent()


@register_agent(
    "shortcut",
    description="Commits at once without collecting anything or asking (must fail every item).",
    channels=("text",),
)
def _shortcut(spec: AgentSpec, channel: Channel) -> TextAgent:
    return ShortcutAgent()


@register_agent(
    "echo", description="Repeats each user turn back; never yields.", channels=("audio",)
)
def _echo(spec: AgentSpec, channel: Channel) -> StepAgent:
    return EchoAgent()


import duplexbench.agents._providers.text_chat as _text_chat  # noqa: E402,F401  (registers text)
