"""One strict yes/no question to an OpenAI-compatible chat endpoint.

Every judge in duplexbench (workflow fields, action follow-through, corpus
candidates, the LLM cue controller) asks the same way: temperature 0, a
system prompt, one user message, and a strict JSON reply
`{"answer": "YES"|"NO", "reason": ...}`. A failed request or a reply out of
format raises :class:`JudgeUnavailable`; callers decide what that means
(usually: no verdict, the deterministic result stands).
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

API_KEY_ENV = "DUPLEXBENCH_JUDGE_API_KEY"


class JudgeUnavailable(Exception):
    """The endpoint failed or answered out of format."""


@dataclass(frozen=True)
class YesNo:
    answer: bool
    reason: str


def parse_yes_no(content: Any) -> YesNo:
    """Parse the strict `{"answer": "YES"|"NO", "reason": ...}` reply."""
    try:
        obj = json.loads(str(content).strip().removeprefix("```json").removesuffix("```"))
        answer = str(obj["answer"]).strip().upper()
    except (ValueError, KeyError, TypeError):
        raise JudgeUnavailable("judge reply is not the expected JSON") from None
    if answer not in ("YES", "NO"):
        raise JudgeUnavailable(f"judge answered {answer!r}, not YES or NO")
    return YesNo(answer == "YES", str(obj.get("reason", "")))


def ask_yes_no(
    base_url: str,
    model: str,
    system: str,
    user: str,
    *,
    api_key: str | None = None,
    timeout_s: float = 60.0,
) -> YesNo:
    """POST one question to `{base_url}/chat/completions` and parse the answer."""
    key = api_key or os.environ.get(API_KEY_ENV) or ""
    body = {
        "model": model,
        "temperature": 0,
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
    }
    request = urllib.request.Request(
        f"{base_url.rstrip('/')}/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            payload = json.loads(response.read())
        content = payload["choices"][0]["message"]["content"]
    except (urllib.error.URLError, OSError, KeyError, IndexError, ValueError, TypeError) as exc:
        raise JudgeUnavailable(f"judge request failed: {type(exc).__name__}") from None
    return parse_yes_no(content)
