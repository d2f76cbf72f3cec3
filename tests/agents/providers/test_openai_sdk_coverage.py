"""Every server event type the `openai` SDK knows is handled or deliberately ignored."""

from __future__ import annotations

import contextlib
import typing
from typing import Any

import pytest

from duplexbench.agents._providers.openai_realtime import OpenAIRealtimeAgent, RealtimeOptions

ga = pytest.importorskip("openai.types.realtime", reason="openai SDK with the GA realtime types")
beta = pytest.importorskip("openai.types.beta.realtime", reason="openai SDK with beta types")


def _event_types(union: Any) -> set[str]:
    members = typing.get_args(union)
    if typing.get_origin(union) is typing.Annotated:
        members = typing.get_args(members[0])
    types: set[str] = set()
    for member in members:
        types |= set(typing.get_args(member.model_fields["type"].annotation))
    return types


@pytest.mark.parametrize("module", [ga, beta], ids=["GA", "beta"])
def test_every_sdk_server_event_is_handled_or_ignored(module: Any) -> None:
    types = _event_types(module.RealtimeServerEvent)
    assert len(types) > 30  # the union was read, not an empty shell
    agent = OpenAIRealtimeAgent(RealtimeOptions())
    unknown = []
    for kind in sorted(types):
        before = sum(agent.unknown_events.values())
        with contextlib.suppress(Exception):  # a handled type may need fields: it was read
            agent.on_message({"type": kind})
        if sum(agent.unknown_events.values()) > before:
            unknown.append(kind)
    assert unknown == [], "server events neither handled nor in IGNORED_SERVER_EVENTS"
