"""The baseline agents every sound item must defeat: shortcut and silent."""

from __future__ import annotations

from duplexbench.agents._builtin import NoopAgent, ShortcutAgent
from duplexbench.agents._registry import get_agent
from duplexbench.trace._events import ActionBlocked, ToolCall
from support.fixtures import fixture_item
from support.helpers import run_and_score


def test_the_shortcut_agent_commits_at_once_and_fails() -> None:
    item = fixture_item("order-revocation")
    record, score = run_and_score(item, ShortcutAgent())
    calls = [e.data.name for e in record.events if isinstance(e, ToolCall)]
    assert calls == ["mark_order_ready", "place_order"]  # every tool needing no arguments
    assert any(isinstance(e, ActionBlocked) for e in record.events)  # no approval
    assert score.ws == 0 and not score.gates["AV"]


def test_silent_has_a_text_channel_that_does_nothing() -> None:
    info, spec = get_agent("silent")
    agent = info.create(spec, "text")
    assert isinstance(agent, NoopAgent)
    record, score = run_and_score(fixture_item("meeting-scheduling"), agent)
    assert not any(isinstance(e, ToolCall) for e in record.events) and score.ws == 0
