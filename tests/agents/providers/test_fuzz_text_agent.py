"""Property-based fuzzing of the `text` agent's chat-completions parser.

`ChatCompletionsAgent` reads its endpoint's replies through a fake `urlopen`
that returns the fuzzed bodies: random bytes, random JSON, mutated valid
replies (tool calls, usage), 10,000-deep nesting, and HTTP error statuses
with such bodies. Each case runs up to two turns (the second answers the
first's tool calls) and must end in `AgentTurn`s with string text and call
ids and usage counts >= 0, or in an `AgentError` naming the agent; any other
exception, or a case past `CASE_SECONDS`, fails.

Cases by default (`DUPLEXBENCH_FUZZ_EXAMPLES`, default 40):
`test_replies` N cases (1-2 bodies), `test_http_errors` N cases, and the
regression tests (`test_regression_*`). The file runs in about 2 s.
"""

from __future__ import annotations

import io
import urllib.error
from contextlib import nullcontext
from email.message import Message
from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duplexbench.agents._protocol import AgentError, AgentInput, AgentSession, ToolResultMessage
from duplexbench.agents._providers.text_chat import ChatCompletionsAgent, ChatConfig
from duplexbench.testing._conformance import TOOL
from support.agent_fuzz import DEEP_LISTS, documents, encode, mutated
from support.fuzzing import FUZZ, time_guard

CALL = {"id": "c1", "type": "function", "function": {"name": TOOL.name, "arguments": "{}"}}
SAMPLES: list[dict[str, Any]] = [
    {
        "choices": [{"message": {"role": "assistant", "content": "On it.", "tool_calls": [CALL]}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 2},
    },
    {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Bye."}}]},
]
Body = bytes | tuple[int, bytes]  # a 200 body, or an HTTP error status and its body


def chat(bodies: list[Body]) -> str:
    """Two turns of the `text` agent on these HTTP bodies: `ok` or `error` (an AgentError)."""
    queue = list(bodies)

    def urlopen(request: Any, timeout: float) -> Any:
        body = queue.pop(0) if queue else encode(SAMPLES[1]).encode()
        if isinstance(body, tuple):
            status, content = body
            raise urllib.error.HTTPError(
                request.full_url, status, "x", Message(), io.BytesIO(content)
            )
        return nullcontext(io.BytesIO(body))

    agent = ChatCompletionsAgent(ChatConfig("m", retries=0), sleep=lambda s: None)
    agent.start(AgentSession("Be helpful.", (TOOL,), "fuzz", 0))
    observation = AgentInput(0, "hello")
    with time_guard(), mock.patch("urllib.request.urlopen", urlopen):
        try:
            for _ in range(2):
                turn = agent.respond(observation)
                assert isinstance(turn.say, str)
                for call in turn.tool_calls:
                    assert isinstance(call.name, str) and isinstance(call.call_id, str)
                results = [ToolResultMessage(c.call_id or "", c.name, {}) for c in turn.tool_calls]
                observation = AgentInput(1, None, tuple(results))
        except AgentError as exc:
            assert str(exc).startswith("text agent (m): ")
            return "error"
    assert all(type(n) is int and n >= 0 for n in agent.usage().values())
    return "ok"


body = st.one_of(
    st.binary(max_size=200),
    documents.map(lambda d: encode(d).encode()),
    mutated(SAMPLES).map(lambda d: encode(d).encode()),
    st.sampled_from([DEEP_LISTS.encode(), b'{"choices": [{"message": {"tool_calls": 7}}]}']),
)


@FUZZ
@given(bodies=st.lists(body, min_size=1, max_size=2))
def test_replies(bodies: list[Body]) -> None:
    assert chat(bodies) in ("ok", "error")


@FUZZ
@given(status=st.sampled_from([400, 401, 404, 422, 429, 500, 503]), content=body)
def test_http_errors(status: int, content: bytes) -> None:
    assert chat([(status, content)]) == "error"


# --- regressions for the fixes -------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        b'{"choices": [{"message": {"content": "hi", "tool_calls": 7}}]}',
        b'{"choices": [{"message": {"content": "hi", "tool_calls": {"a": 1}}}]}',
        DEEP_LISTS.encode(),
    ],
)
def test_regression_malformed_replies_are_agent_errors(content: bytes) -> None:
    assert chat([content]) == "error"  # were TypeError / RecursionError
    assert chat([(500, content)]) == "error"  # the error body is read for its message


@pytest.mark.parametrize("count", [-5, "\x00", 1.5, [3], "9" * 40, float("nan")])
def test_regression_malformed_usage_counts_as_zero(count: Any) -> None:
    reply = {**SAMPLES[1], "usage": {"prompt_tokens": count, "completion_tokens": 3}}
    assert chat([encode(reply).encode()]) == "ok"  # was ValueError / OverflowError


def test_regression_deeply_nested_arguments_pass_through_raw() -> None:
    call = {**CALL, "function": {"name": TOOL.name, "arguments": "[" * 10_000}}
    reply = encode({"choices": [{"message": {"content": "", "tool_calls": [call]}}]}).encode()
    assert chat([reply]) == "ok"  # was RecursionError
