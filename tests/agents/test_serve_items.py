"""serve-agent's conversation items and requests, as a Realtime client sees them.

Every server event received here is validated against the `openai` SDK's GA
server-event union, so what serve-agent sends is what clients built on the
SDK's types can parse (serve-agent speaks GA event names in every session; a
session configured with beta names also gets `conversation.item.created`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import websockets
from pydantic import TypeAdapter

from duplexbench.agents import openai_realtime_protocol as rt
from duplexbench.agents.serve import RealtimeServer, ServeConfig

ga = pytest.importorskip("openai.types.realtime", reason="openai SDK (clients extra)")
GA_EVENTS: TypeAdapter[Any] = TypeAdapter(ga.RealtimeServerEvent)
TOOL = {"type": "function", "name": "lookup", "description": "", "parameters": {}}


def _speech(ms: int) -> str:
    t = np.arange(rt.WIRE_RATE * ms // 1000) / rt.WIRE_RATE
    buzz = sum(np.sin(2 * np.pi * 140 * k * t) / k for k in range(1, 6))
    return rt.encode_pcm16((buzz * (0.6 + 0.4 * np.sin(8 * np.pi * t)) * 5000).astype(np.int16))


def _silence(ms: int) -> str:
    return rt.encode_pcm16(np.zeros(rt.WIRE_RATE * ms // 1000, dtype=np.int16))


class Client:
    """A raw WebSocket client that checks every event against the SDK's types."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.events: list[dict[str, Any]] = []

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            event = json.loads(await asyncio.wait_for(self.ws.recv(), 5))
            GA_EVENTS.validate_python(event)  # the SDK can parse it
            self.events.append(event)
            if done(event):
                return event

    async def of_type(self, kind: str) -> dict[str, Any]:
        return await self.until(lambda e: e["type"] == kind)


async def _session(url: str, session: dict[str, Any]) -> Client:
    ws = await websockets.connect(url + "/realtime?model=x")
    client = Client(ws)
    await client.of_type(rt.SESSION_CREATED)
    await client.send(type=rt.SESSION_UPDATE, session=session)
    await client.of_type(rt.SESSION_UPDATED)
    return client


def _items(client: Client, kind: str) -> list[dict[str, Any]]:
    return [e["item"] for e in client.events if e["type"] == kind]


def test_every_item_is_announced_and_can_be_retrieved_and_deleted() -> None:
    async def go() -> Client:
        async with RealtimeServer(ServeConfig(agent="echo", port=0)) as server:
            client = await _session(server.url, {"type": "realtime", "tools": [TOOL]})
            for chunk in (_speech(800), _silence(1500)):
                await client.send(type=rt.APPEND, audio=chunk)
            await client.of_type(rt.RESPONSE_DONE)  # echo repeats the user's turn
            output = {"type": "function_call_output", "call_id": "c1", "output": "{}"}
            await client.send(type=rt.ITEM_CREATE, item=output)
            created = await client.of_type("conversation.item.done")
            item_id = created["item"]["id"]
            await client.send(type="conversation.item.retrieve", item_id=item_id)
            retrieved = await client.of_type("conversation.item.retrieved")
            assert retrieved["item"]["call_id"] == "c1"
            await client.send(type="conversation.item.delete", item_id=item_id)
            assert (await client.of_type("conversation.item.deleted"))["item_id"] == item_id
            await client.send(type="conversation.item.retrieve", item_id=item_id, event_id="e9")
            error = await client.of_type(rt.ERROR)
            assert error["error"]["code"] == "invalid_value" and error["error"]["event_id"] == "e9"
            await client.send(
                type=rt.ITEM_TRUNCATE, item_id="nope", content_index=0, audio_end_ms=5
            )
            assert (await client.of_type(rt.ERROR))["error"]["code"] == "invalid_value"
            await client.ws.close()
        return client

    client = asyncio.run(asyncio.wait_for(go(), 20))
    added, done = (
        _items(client, "conversation.item.added"),
        _items(client, "conversation.item.done"),
    )
    assert [i["id"] for i in added] == [i["id"] for i in done]  # each added item completes
    roles = [(i["type"], i.get("role")) for i in done]
    assert roles[:2] == [("message", "user"), ("message", "assistant")]
    assert roles[-1] == ("function_call_output", None)
    assert done[0]["content"][0]["type"] == "input_audio"
    committed = next(e for e in client.events if e["type"] == rt.COMMITTED)
    assert committed["item_id"] == done[0]["id"]
    assert not _items(client, rt.ITEM_CREATED)  # GA names only in a GA session


def test_response_create_is_always_answered() -> None:
    async def go() -> Client:
        async with RealtimeServer(ServeConfig(agent="silent", port=0)) as server:
            client = await _session(server.url, {"type": "realtime"})
            await client.send(type=rt.RESPONSE_CREATE)
            created = await client.of_type(rt.RESPONSE_CREATED)
            await client.send(type=rt.RESPONSE_CREATE, event_id="e2")  # one is active
            error = await client.of_type(rt.ERROR)
            assert error["error"]["code"] == "conversation_already_has_active_response"
            await client.send(type=rt.APPEND, audio=_silence(3200))  # the agent stays silent
            done = await client.of_type(rt.RESPONSE_DONE)
            assert done["response"]["id"] == created["response"]["id"]
            assert done["response"]["status"] == "completed" and done["response"]["output"] == []
            await client.send(type="input_audio_buffer.clear")
            await client.of_type("input_audio_buffer.cleared")
            await client.send(type=rt.COMMIT, event_id="e3")  # nothing in the buffer
            error = await client.of_type(rt.ERROR)
            assert error["error"]["code"] == "input_audio_buffer_commit_empty"
            await client.send(type=rt.APPEND, audio=_silence(200))
            await client.send(type=rt.COMMIT)
            committed = await client.of_type(rt.COMMITTED)
            done_item = await client.of_type("conversation.item.done")
            assert done_item["item"]["id"] == committed["item_id"]
            bad = {"type": "transcription"}
            await client.send(type=rt.SESSION_UPDATE, session=bad)
            assert (await client.of_type(rt.ERROR))["error"]["code"] == "invalid_value"
            await client.send(type=rt.SESSION_UPDATE, session={"instructions": "x"})
            await client.of_type(rt.SESSION_UPDATED)  # untyped, but the session stays GA
            await client.send(type=rt.APPEND, audio=_silence(200))
            await client.send(type=rt.COMMIT)
            await client.of_type("conversation.item.added")
            await client.ws.close()
        return client

    asyncio.run(asyncio.wait_for(go(), 20))


def test_a_beta_session_gets_created_events() -> None:
    async def go() -> Client:
        async with RealtimeServer(ServeConfig(agent="echo", port=0)) as server:
            client = await _session(server.url, {"instructions": "hi"})
            await client.send(type=rt.APPEND, audio=_speech(800))
            await client.send(type=rt.APPEND, audio=_silence(1500))
            await client.of_type(rt.RESPONSE_DONE)
            await client.ws.close()
        return client

    client = asyncio.run(asyncio.wait_for(go(), 20))
    created = _items(client, rt.ITEM_CREATED)
    assert [(i["type"], i["role"]) for i in created] == [
        ("message", "user"),
        ("message", "assistant"),
    ]
    assert not _items(client, "conversation.item.added")
