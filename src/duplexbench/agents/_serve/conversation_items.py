"""`serve-agent`'s conversation: the items a Realtime client tracks, and their events.

Every item the conversation gains is announced as the service does: in a GA
session `conversation.item.added` (as it starts) then `conversation.item.done`
(when it is final); in a session configured with beta names (a
`session.update` whose `session` has no `type`) `conversation.item.created`.
Items are the user's committed audio (an `input_audio` message; its
transcript null until input transcription, when the session asks for it,
fills it in: `input_transcription.py`), the assistant's messages
and function calls of each response, and what the client creates
(`conversation.item.create`). `conversation.item.retrieve` answers
`conversation.item.retrieved`, `conversation.item.delete`
`conversation.item.deleted`; an unknown item id is an `invalid_value` error
naming it (as is a truncate of one).
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable
from typing import Any

from duplexbench.agents._providers import openai_realtime_protocol as rt

Message = rt.Message
Send = Callable[..., Awaitable[None]]
Error = Callable[[str, str, Any], Awaitable[None]]
"""`error(code, message, cause_event_id)`."""


class Conversation:
    """The items of one session, in order, and the events that announce them."""

    def __init__(self, send: Send, error: Error) -> None:
        self.send, self.error = send, error
        self.items: dict[str, Message] = {}
        self.beta = False
        """The client configured the session with beta names."""
        self.beta_named = True
        """No `session.update` so far named its type (the GA shape does)."""

    def _previous(self, item_id: str) -> str | None:
        ids = list(self.items)
        at = ids.index(item_id)
        return ids[at - 1] if at else None

    async def added(self, item: Message) -> None:
        """A new item (in progress, or already final)."""
        self.items[item["id"]] = item
        if self.beta:
            return  # announced once, when done
        event = "conversation.item.added"
        await self.send(event, previous_item_id=self._previous(item["id"]), item=copy.copy(item))

    async def done(self, item: Message) -> None:
        """The item is final (its content, status and arguments as they stay)."""
        self.items[item["id"]] = item
        previous = self._previous(item["id"])
        if self.beta:
            await self.send(rt.ITEM_CREATED, previous_item_id=previous, item=copy.copy(item))
        else:
            await self.send("conversation.item.done", previous_item_id=previous, item=item)

    async def final(self, item: Message) -> None:
        await self.added(item)
        await self.done(item)

    async def user_audio(self, item_id: str, transcript: str | None = None) -> None:
        """The user's committed audio as an item (its transcript when already known)."""
        item = {
            "id": item_id,
            "object": "realtime.item",
            "type": "message",
            "role": "user",
            "status": "completed",
            "content": [{"type": "input_audio", "transcript": transcript}],
        }
        await self.final(item)

    def transcribed(self, item_id: str, transcript: str) -> None:
        """The user audio item's transcript, once known (if the item is still there)."""
        item = self.items.get(item_id)
        if item is not None:
            item["content"] = [{**item["content"][0], "transcript": transcript}]

    async def known(self, message: Message) -> str | None:
        """The message's `item_id` when the conversation has it; else an error, None."""
        item_id = message.get("item_id")
        if isinstance(item_id, str) and item_id in self.items:
            return item_id
        text = f"Item with item_id {str(item_id)[:80]!r} not found in the conversation"
        await self.error("invalid_value", text, message.get("event_id"))
        return None

    async def retrieve(self, message: Message) -> None:
        item_id = await self.known(message)
        if item_id is not None:
            await self.send("conversation.item.retrieved", item=self.items[item_id])

    async def delete(self, message: Message) -> None:
        item_id = await self.known(message)
        if item_id is not None:
            del self.items[item_id]
            await self.send("conversation.item.deleted", item_id=item_id)
