"""The `text` control agent against a local scripted /chat/completions server."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from duplexbench.agents import AgentError, AgentInput, AgentSession, get_agent
from duplexbench.agents._cascade import CascadeAgent
from duplexbench.agents._protocol import ToolResultMessage, ToolSpec
from duplexbench.agents._providers.text_chat import ChatCompletionsAgent, ChatConfig
from duplexbench.items._load import item_checksum, load_item
from duplexbench.orchestrator._text_loop import EpisodeSetup, TextEpisode
from duplexbench.trace._events import ToolCall
from support.fixtures import FIXTURES

ITEM = FIXTURES / "airline-rebooking.yaml"
KEY = "sk-text-test-secret"


def _say(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    fn = {"name": name, "arguments": json.dumps(arguments)}
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": call_id, "type": "function", "function": fn}],
    }


CONVERSATION = [
    _say("I can help with that. What is your reservation code?"),
    _call("c1", "get_reservation", {"id": "R7QX2L"}),
    _say("I see you are booked on DB120 on May 2. Which flight would you like instead?"),
    _call("c2", "get_flight", {"id": "DB124"}),
    _say("DB124 on May 3 has seats. How many checked bags will you have?"),
    _say("Shall I change the reservation to DB124 on May 3 with 2 bags?"),
    _call(
        "c3",
        "change_reservation",
        {"id": "R7QX2L", "fields": {"flight": "DB124", "date": "2026-05-03", "bags": 2}},
    ),
    _say("Done, you are rebooked on DB124 on May 3 with two bags. Goodbye!"),
]


class ChatServer:
    """Plays `replies` in order; `failures` HTTP statuses are answered first."""

    def __init__(
        self, replies: list[dict[str, Any]], failures: list[int] | None = None, delay: float = 0
    ) -> None:
        self.replies = list(replies)
        self.delay = delay
        self.failures = list(failures or [])
        self.requests: list[dict[str, Any]] = []
        self.auth: list[str | None] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(body)
                server.auth.append(self.headers.get("Authorization"))
                time.sleep(server.delay)  # the server is slow on purpose: client timeouts
                if self.path != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                elif server.failures:
                    status = server.failures.pop(0)
                    self._send(status, {"error": {"message": f"scripted outage {status}"}})
                else:
                    message = server.replies.pop(0) if server.replies else _say("Goodbye!")
                    usage = {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
                    choice = {"index": 0, "message": message, "finish_reason": "stop"}
                    self._send(200, {"choices": [choice], "usage": usage})

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client timed out and left

            def log_message(self, format: str, *args: Any) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve() -> Iterator[Any]:
    servers: list[ChatServer] = []

    def start(
        replies: list[dict[str, Any]], failures: list[int] | None = None, delay: float = 0
    ) -> ChatServer:
        servers.append(ChatServer(replies, failures, delay))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def _agent(url: str) -> ChatCompletionsAgent:
    info, spec = get_agent(
        f"text:test-model?base_url={url}&api_key_env=TEXT_TEST_KEY&temperature=0&backoff=0.01"
    )
    agent = info.create(spec, "text")
    assert isinstance(agent, ChatCompletionsAgent)
    return agent


def _episode(agent: ChatCompletionsAgent) -> Any:
    item = load_item(ITEM)
    setup = EpisodeSetup(item, item_checksum(item), "tests", "text:test-model", "text", 0, 0)
    return TextEpisode(setup, agent).run()


def test_a_full_episode_with_tool_calls(serve: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEXT_TEST_KEY", KEY)
    server = serve(CONVERSATION)
    agent = _agent(server.url)
    record = _episode(agent)
    assert record.status == "ok" and record.end_reason == "user_ended", record.error
    calls = [e.data for e in record.events if isinstance(e, ToolCall)]
    assert [(c.call_id, c.name) for c in calls] == [
        ("c1", "get_reservation"),
        ("c2", "get_flight"),
        ("c3", "change_reservation"),
    ]
    assert calls[0].arguments == {"id": "R7QX2L"}
    assert record.state.database["reservations"]["R7QX2L"]["flight"] == "DB124"
    first, second, third = server.requests[:3]
    assert first["model"] == "test-model" and first["temperature"] == 0
    assert first["messages"][0]["role"] == "system"
    assert first["messages"][1]["role"] == "user"
    assert {t["function"]["name"] for t in first["tools"]} == {
        "get_reservation",
        "get_flight",
        "change_reservation",
    }
    assert second["messages"][-1]["role"] == "user" and "7" in second["messages"][-1]["content"]
    assistant, tool = third["messages"][-2:]
    assert assistant["tool_calls"][0]["id"] == "c1"
    assert tool["role"] == "tool" and tool["tool_call_id"] == "c1"
    assert json.loads(tool["content"])["ok"] is True
    assert set(server.auth) == {f"Bearer {KEY}"} and len(server.requests) == len(CONVERSATION)
    assert agent.usage() == {
        "prompt_tokens": 100 * len(server.requests),
        "completion_tokens": 10 * len(server.requests),
        "requests": len(server.requests),
    }


def test_a_500_is_retried(serve: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEXT_TEST_KEY", KEY)
    server = serve(CONVERSATION, failures=[500, 503])
    record = _episode(_agent(server.url))
    assert record.status == "ok", record.error
    assert len(server.requests) == len(CONVERSATION) + 2  # two outages, then the script


def test_repeated_500s_make_the_episode_an_error(
    serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEXT_TEST_KEY", KEY)
    server = serve(CONVERSATION, failures=[500, 500, 500])
    record = _episode(_agent(server.url))
    assert record.status == "error" and record.end_reason == "error"
    assert "HTTP 500" in record.error and "scripted outage" in record.error
    assert "3 attempts" in record.error and KEY not in record.error
    assert len(server.requests) == 3


def test_backoff_schedule_and_timeouts(serve: Any) -> None:
    waits: list[float] = []
    server = serve([], failures=[502, 502, 502])
    agent = ChatCompletionsAgent(ChatConfig("m", base_url=server.url), sleep=waits.append)
    agent.start(AgentSession("Be brief.", (), "x", 0))
    with pytest.raises(AgentError, match="HTTP 502"):
        agent.respond(AgentInput(0, "hello"))
    assert waits == [0.5, 1.0] and len(server.requests) == 3

    slow = serve([_say("late")], delay=0.3)
    config = ChatConfig("m", base_url=slow.url, timeout_s=0.05, retries=1, backoff_s=0)
    agent = ChatCompletionsAgent(config)
    agent.start(AgentSession("Be brief.", (), "x", 0))
    with pytest.raises(AgentError, match="timed out"):
        agent.respond(AgentInput(0, "hello"))
    assert len(slow.requests) == 2


def test_client_errors_are_not_retried(serve: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEXT_TEST_KEY", KEY)
    server = serve(CONVERSATION, failures=[401])
    agent = _agent(server.url)
    agent.start(AgentSession("Be brief.", (), "x", 0))
    with pytest.raises(AgentError, match="HTTP 401"):
        agent.respond(AgentInput(0, "hello"))
    assert len(server.requests) == 1 and KEY not in repr(agent)


def test_unanswered_calls_get_a_placeholder_result(serve: Any) -> None:
    server = serve([_call("c1", "get_flight", {"id": "DB1"}), _say("Ok.")])
    agent = ChatCompletionsAgent(ChatConfig("m", base_url=server.url))
    tool = ToolSpec("get_flight", "Look up a flight.", {"type": "object", "properties": {}})
    agent.start(AgentSession("Be brief.", (tool,), "x", 0))
    turn = agent.respond(AgentInput(0, "hi"))
    assert turn.tool_calls[0].arguments == {"id": "DB1"} and turn.say == ""
    assert agent.respond(AgentInput(1, "hello?")).say == "Ok."
    tool_message, user = server.requests[-1]["messages"][-2:]
    assert tool_message["tool_call_id"] == "c1" and "no_result" in tool_message["content"]
    assert user == {"role": "user", "content": "hello?"}
    assert server.auth == [None, None]  # no api_key_env: no Authorization header
    late = ToolResultMessage("zz", "get_flight", {"ok": True})
    assert agent.respond(AgentInput(2, None, (late,))).empty  # not a call it made: no request
    assert agent.respond(AgentInput(3, None)).empty and len(server.requests) == 2


def test_tool_calls_without_ids_or_string_arguments(serve: Any) -> None:
    bare = {"function": {"name": "get_flight", "arguments": {"id": "DB1"}}}
    server = serve([{"role": "assistant", "content": "Checking.", "tool_calls": [bare]}])
    agent = ChatCompletionsAgent(ChatConfig("m", base_url=server.url))
    agent.start(AgentSession("Be brief.", (), "x", 0))
    turn = agent.respond(AgentInput(0, "hi"))
    [call] = turn.tool_calls
    assert turn.say == "Checking." and call.arguments == {"id": "DB1"} and call.call_id
    result = ToolResultMessage(call.call_id, "get_flight", {"ok": True, "result": 1})
    agent.respond(AgentInput(1, None, (result,)))
    assistant, tool = server.requests[-1]["messages"][-2:]
    assert assistant["tool_calls"][0]["id"] == call.call_id == tool["tool_call_id"]
    assert assistant["tool_calls"][0]["function"]["arguments"] == '{"id": "DB1"}'


def test_spec_needs_a_model_and_known_options() -> None:
    info, spec = get_agent("text?base_url=http://x/v1")
    with pytest.raises(ValueError, match="model"):
        info.create(spec, "text")
    _, bad = get_agent("text:m?colour=blue")
    with pytest.raises(ValueError, match="unknown option"):
        info.create(bad, "text")


def test_reference_agent_with_an_llm_brain(serve: Any) -> None:
    """`reference?llm=openai:MODEL`: the cascade keeps its ASR/TTS, the LLM decides."""
    server = serve([_say("Hello, what is your reservation code?")])
    info, spec = get_agent(f"reference?llm=openai:brain-model&base_url={server.url}&temperature=0")
    brain = info.create(spec, "text")
    assert isinstance(brain, ChatCompletionsAgent)
    record = _episode(brain)
    assert server.requests[0]["model"] == "brain-model"
    said = [e.data.text for e in record.events if e.type == "agent.utterance"]
    assert said[0] == "Hello, what is your reservation code?"
    voiced = info.create(spec, "audio")
    assert isinstance(voiced, CascadeAgent) and isinstance(voiced.brain, ChatCompletionsAgent)
    with pytest.raises(ValueError, match="openai:MODEL"):
        info.create(get_agent("reference?llm=claude")[1], "text")
