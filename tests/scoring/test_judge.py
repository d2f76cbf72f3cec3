"""The field judge: cache keys, escalation rules, and a real local HTTP endpoint."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from duplexbench.scoring._judge import (
    FieldJudge,
    JudgeCache,
    JudgeQuestion,
    OpenAIChatJudge,
    Verdict,
    parse_verdict,
)
from duplexbench.yesno import JudgeUnavailable
from support.chat_endpoint import ChatHandler as _Handler
from support.chat_endpoint import serve_chat

Q = JudgeQuestion("form.plan", "Plan name", "enum", "basic", "vision basic")


@pytest.fixture
def endpoint() -> Iterator[str]:
    yield from serve_chat()


def test_openai_compatible_endpoint_and_cache(
    endpoint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUPLEXBENCH_JUDGE_API_KEY", "sk-test")
    _Handler.replies = ['{"answer": "YES", "reason": "same plan"}']
    cache_path = tmp_path / "cache.jsonl"
    judge = FieldJudge("m1", JudgeCache(cache_path), OpenAIChatJudge("m1", endpoint))
    assert judge.verdict(Q) == Verdict(True, "same plan")
    request = _Handler.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["body"]["temperature"] == 0 and request["body"]["model"] == "m1"
    assert request["auth"] == "Bearer sk-test"
    # second time: the cache answers, no request
    assert judge.verdict(Q) == Verdict(True, "same plan")
    assert (judge.calls, judge.hits) == (1, 1)
    # a new process reads the cache file
    again = FieldJudge("m1", JudgeCache(cache_path))
    assert again.verdict(Q) is not None
    # another model or another field does not share the verdict
    assert FieldJudge("m2", JudgeCache(cache_path)).verdict(Q) is None
    other = JudgeQuestion("form.other", "", "enum", "basic", "vision basic")
    assert again.verdict(other) is None


def test_bad_reply_leaves_the_field_deterministic(endpoint: str, tmp_path: Path) -> None:
    _Handler.replies = ["maybe?"]
    judge = FieldJudge("m1", JudgeCache(tmp_path / "c.jsonl"), OpenAIChatJudge("m1", endpoint))
    assert judge.verdict(Q) is None
    assert len(judge.failures) == 1
    assert not (tmp_path / "c.jsonl").exists()


def test_unreachable_endpoint(tmp_path: Path) -> None:
    judge = FieldJudge("m1", JudgeCache(None), OpenAIChatJudge("m1", "http://127.0.0.1:9"))
    assert judge.verdict(Q) is None and judge.failures


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"answer": "NO", "reason": "different"}', Verdict(False, "different")),
        ('```json\n{"answer": "yes"}\n```', Verdict(True, "")),
    ],
)
def test_parse_verdict(content: str, expected: Verdict) -> None:
    assert parse_verdict(content) == expected


@pytest.mark.parametrize("content", ["", "YES", '{"answer": "PERHAPS"}', "[1]"])
def test_parse_verdict_rejects(content: str) -> None:
    with pytest.raises(JudgeUnavailable):
        parse_verdict(content)


def test_corrupt_cache_line_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text('{"model": "m"}\n')
    with pytest.raises(ValueError, match=":1: bad judge cache line"):
        JudgeCache(path)
