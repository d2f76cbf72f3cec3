"""`text`: the text-channel control agent, any OpenAI-compatible `/chat/completions` endpoint.

Spec: `text:MODEL?base_url=http://127.0.0.1:8000/v1&api_key_env=OPENAI_API_KEY&temperature=0`.

The agent keeps the whole conversation as chat messages: the session
instructions as the system message, each user utterance as a user message,
each reply as an assistant message (with its `tool_calls`) and each tool
result as a `tool` message (JSON of the workbench's `{"ok": ...}` result).
The session's tools go out as function tools. A reply's `content` is spoken
and its tool calls are run; the harness then calls `respond` again with the
results, as the Chat Completions tool loop expects.

HTTP uses the standard library: a timeout per request and a bounded retry on
5xx, 429, timeouts and connection errors (`retries` extra attempts, waiting
`backoff`, then twice as long, ...). A final failure raises `AgentError` (the
episode is an agent error, scored as a failure). Token usage is summed on the instance
(`usage()`). Without `api_key_env` no Authorization header is sent (local
servers); the key never appears in an error or a repr.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from duplexbench.agents._events import token_count
from duplexbench.agents._protocol import (
    AgentError,
    AgentInput,
    AgentSession,
    AgentToolCall,
    AgentTurn,
)
from duplexbench.agents._providers.secrets import api_key, redact
from duplexbench.agents._registry import AgentSpec, Channel, register_agent

if TYPE_CHECKING:
    import urllib.error

DEFAULT_BASE_URL = "http://127.0.0.1:8000/v1"
RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
OPTIONS = (
    "base_url",
    "api_key_env",
    "temperature",
    "max_tokens",
    "timeout",
    "retries",
    "backoff",
)
NO_RESULT = {"ok": False, "error": {"code": "no_result", "message": "the call was not run"}}


@dataclass(frozen=True)
class ChatConfig:
    model: str
    base_url: str = DEFAULT_BASE_URL
    api_key_env: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    timeout_s: float = 60.0
    retries: int = 2
    backoff_s: float = 0.5

    @classmethod
    def from_spec(cls, spec: AgentSpec) -> ChatConfig:
        opts = dict(spec.options)
        unknown = sorted(set(opts) - set(OPTIONS))
        if unknown:
            raise ValueError(
                f"text: unknown option(s) {', '.join(unknown)}; known: {', '.join(OPTIONS)}"
            )
        if not spec.model:
            raise ValueError("text: the spec needs a model, e.g. text:gpt-4o-mini?base_url=...")
        try:
            return cls(
                model=spec.model,
                base_url=opts.get("base_url") or DEFAULT_BASE_URL,
                api_key_env=opts.get("api_key_env") or None,
                temperature=float(opts["temperature"]) if "temperature" in opts else None,
                max_tokens=int(opts["max_tokens"]) if "max_tokens" in opts else None,
                timeout_s=float(opts.get("timeout", "60")),
                retries=max(0, int(opts.get("retries", "2"))),
                backoff_s=max(0.0, float(opts.get("backoff", "0.5"))),
            )
        except ValueError as exc:
            raise ValueError(f"text: bad number: {exc}") from None


class _Retryable(Exception):
    """A failure worth another attempt (server error, rate limit, timeout, network)."""


class ChatCompletionsAgent:
    """A `TextAgent` backed by an OpenAI-compatible chat-completions endpoint."""

    def __init__(self, config: ChatConfig, *, sleep: Callable[[float], None] = time.sleep):
        self.config = config
        self._sleep = sleep
        self._key: str | None = None
        self.messages: list[dict[str, Any]] = []
        self.tools: list[dict[str, Any]] = []
        self._pending: list[str] = []  # tool call ids of the last reply awaiting results
        self._usage = {"prompt_tokens": 0, "completion_tokens": 0, "requests": 0}

    def __repr__(self) -> str:
        c = self.config
        return (
            f"ChatCompletionsAgent(model={c.model!r}, base_url={c.base_url!r}, "
            f"api_key_env={c.api_key_env!r})"
        )

    def usage(self) -> dict[str, int]:
        """Tokens the endpoint reported so far (summed) and the requests made."""
        return dict(self._usage)

    # ------------------------------------------------------------ TextAgent

    def start(self, session: AgentSession) -> None:
        self._key = api_key(self.config.api_key_env) if self.config.api_key_env else None
        self.messages = [{"role": "system", "content": session.instructions}]
        self.tools = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.parameters,
                },
            }
            for t in session.tools
        ]
        self._pending = []

    def respond(self, observation: AgentInput) -> AgentTurn:
        results = {r.call_id: r for r in observation.tool_results}
        answered = bool(self._pending)
        for call_id in self._pending:  # every call of the last reply gets a tool message
            result = results.pop(call_id, None)
            output = result.output if result is not None else NO_RESULT
            self.messages.append(
                {"role": "tool", "tool_call_id": call_id, "content": json.dumps(output)}
            )
        self._pending = []
        if observation.user_text is not None:
            self.messages.append({"role": "user", "content": observation.user_text})
        elif not answered:
            return AgentTurn()  # nothing new to answer
        message = self._complete()
        raw_calls = message.get("tool_calls") or []
        if not isinstance(raw_calls, list):
            raise self._error(f"tool_calls is not a list: {raw_calls!r}"[:300])
        wire = [self._normalize(c, i) for i, c in enumerate(raw_calls)]
        reply: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
        if wire:
            reply["tool_calls"] = wire
        self.messages.append(reply)
        calls = tuple(_tool_call(c) for c in wire)
        self._pending = [c["id"] for c in wire]
        return AgentTurn(say=str(message.get("content") or ""), tool_calls=calls)

    def close(self) -> None:
        return None

    # ------------------------------------------------------------ HTTP

    def _normalize(self, call: Any, index: int) -> dict[str, Any]:
        """A tool call as it goes back into the history: an id and string arguments."""
        if not isinstance(call, dict) or not isinstance(call.get("function"), dict):
            raise self._error(f"malformed tool call from the endpoint: {call!r}"[:300])
        fn = dict(call["function"])
        if not isinstance(fn.get("arguments"), str):
            fn["arguments"] = json.dumps(fn.get("arguments") or {})
        call_id = str(call.get("id") or f"call_{self._usage['requests']}_{index}")
        return {"id": call_id, "type": "function", "function": fn}

    def _body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.config.model, "messages": self.messages}
        if self.tools:
            body["tools"] = self.tools
        if self.config.temperature is not None:
            body["temperature"] = self.config.temperature
        if self.config.max_tokens is not None:
            body["max_tokens"] = self.config.max_tokens
        return body

    def _complete(self) -> dict[str, Any]:
        """POST the conversation; the first choice's message (retrying what is transient)."""
        attempts = self.config.retries + 1
        reason = ""
        for attempt in range(attempts):
            if attempt:
                self._sleep(self.config.backoff_s * 2 ** (attempt - 1))
            try:
                data = self._post(self._body())
            except _Retryable as exc:
                reason = str(exc)
                continue
            self._usage["requests"] += 1
            usage = data.get("usage")
            if isinstance(usage, dict):
                self._usage["prompt_tokens"] += token_count(usage.get("prompt_tokens"))
                self._usage["completion_tokens"] += token_count(usage.get("completion_tokens"))
            try:
                message = data["choices"][0]["message"]
            except (KeyError, IndexError, TypeError):
                raise self._error(f"response without choices[0].message: {data!r}"[:300]) from None
            if not isinstance(message, dict):
                raise self._error("choices[0].message is not an object")
            return message
        raise self._error(f"gave up after {attempts} attempts: {reason}")

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        import http.client  # noqa: PLC0415 - HTTP loads only when the agent posts (start-up)
        import urllib.error  # noqa: PLC0415
        import urllib.request  # noqa: PLC0415

        url = self.config.base_url.rstrip("/") + "/chat/completions"
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        request = urllib.request.Request(
            url, data=json.dumps(body).encode("utf-8"), headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=self.config.timeout_s) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            detail = _error_detail(exc)
            if exc.code in RETRY_STATUS:
                raise _Retryable(f"HTTP {exc.code}: {detail}") from None
            raise self._error(f"HTTP {exc.code}: {detail}") from None
        except TimeoutError as exc:
            raise _Retryable(f"timed out after {self.config.timeout_s:g} s: {exc}") from None
        except (urllib.error.URLError, http.client.HTTPException, ConnectionError) as exc:
            raise _Retryable(f"cannot reach {url}: {getattr(exc, 'reason', exc)}") from None
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):  # RecursionError: nested too deeply
            raise self._error(f"the endpoint did not return JSON: {raw[:120]!r}") from None
        if not isinstance(data, dict):
            raise self._error("the endpoint returned JSON that is not an object")
        return data

    def _error(self, reason: str) -> AgentError:
        return AgentError(redact(f"text agent ({self.config.model}): {reason}", [self._key]))


def _tool_call(call: dict[str, Any]) -> AgentToolCall:
    raw = call["function"]["arguments"]
    try:
        arguments: Any = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError):  # RecursionError: nested too deeply
        arguments = raw  # the workbench rejects it and tells the model
    return AgentToolCall(str(call["function"].get("name", "")), arguments, call["id"])


def _error_detail(exc: urllib.error.HTTPError) -> str:
    try:
        body = exc.read().decode("utf-8", "replace")
    except Exception:
        return str(exc.reason)
    try:
        error = json.loads(body).get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])[:300]
    except (ValueError, AttributeError, RecursionError):
        pass
    return body[:300] or str(exc.reason)


@register_agent(
    "text",
    description="Control agent on the text channel: any OpenAI-compatible /chat/completions.",
    channels=("text",),
)
def _factory(spec: AgentSpec, channel: Channel) -> ChatCompletionsAgent:
    return ChatCompletionsAgent(ChatConfig.from_spec(spec))
