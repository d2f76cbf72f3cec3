"""`serve-agent`'s responses: agent events -> server events (the session: `session_settings.py`).

A `ResponseWriter` turns what a local agent returns from a step into the
events a Realtime client expects: the first transcript, audio or tool call
opens a response (`response.created`); speech goes into an assistant
`message` item (`output_item.added`, `content_part.added`, then
`output_audio_transcript.delta` and `output_audio.delta` in 200 ms chunks of
24 kHz PCM16); a tool call closes the open message and becomes a
`function_call` item (`output_item.added`, `function_call_arguments.done`,
`output_item.done`); `ResponseDone` closes the response (`response.done` with
a synthetic usage block) and `SpeechCancelled` closes it as `cancelled`.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from duplexbench.agents._events import (
    AgentEvent,
    AgentFailure,
    AudioDelta,
    EndCall,
    ResponseDone,
    SpeechCancelled,
    ToolCallRequest,
    TranscriptDelta,
)
from duplexbench.agents._providers import openai_realtime_protocol as rt
from duplexbench.agents._serve.conversation_items import Conversation
from duplexbench.audio import AudioFormatError, resample, to_mono

Message = rt.Message
Send = Callable[..., Awaitable[None]]
"""`send(event_type, **fields)`: sends one server event."""
CHUNK_SAMPLES = rt.WIRE_RATE // 5  # 200 ms of audio per output delta


class ServerEvents:
    """Builds server events with fresh ids (`event_N`, `resp_N`, `item_N`)."""

    def __init__(self) -> None:
        self._n = 0

    def new_id(self, prefix: str) -> str:
        self._n += 1
        return f"{prefix}_{self._n:06d}"

    def event(self, event_type: str, **fields: Any) -> Message:
        return {"type": event_type, "event_id": self.new_id("event"), **fields}

    def error(
        self, code: str, message: str, *, kind: str = "invalid_request_error", cause: Any = None
    ) -> Message:
        body = {"type": kind, "code": code, "message": message, "param": None}
        body["event_id"] = cause if isinstance(cause, str) else None
        return self.event(rt.ERROR, error=body)


def response_object(
    response_id: str, status: str, output: list[Message], usage_block: Message | None = None
) -> Message:
    return {
        "id": response_id,
        "object": "realtime.response",
        "status": status,
        "status_details": None
        if status != "cancelled"
        else {"type": "cancelled", "reason": "client_cancelled"},
        "output": output,
        "output_modalities": ["audio"],
        "usage": usage_block,
    }


def usage_block(input_ms: int, output_ms: int, words: int) -> Message:
    """A synthetic usage block: audio at 10 tokens/s in and 20 tokens/s out, a token per word."""
    audio_in, audio_out = input_ms // 100, output_ms // 50
    return {
        "total_tokens": audio_in + audio_out + words,
        "input_tokens": audio_in,
        "output_tokens": audio_out + words,
        "input_token_details": {"audio_tokens": audio_in, "text_tokens": 0, "cached_tokens": 0},
        "output_token_details": {"audio_tokens": audio_out, "text_tokens": words},
    }


class AgentFault(Exception):
    """The local agent failed or produced something that cannot be sent."""


@dataclass
class _Response:
    id: str
    output: list[Message] = field(default_factory=list)
    message: Message | None = None
    transcript: list[str] = field(default_factory=list)
    audio_samples: int = 0
    words: int = 0


class ResponseWriter:
    """Writes one session's responses; `calls` maps each call id to its tool name."""

    def __init__(self, send: Send, ids: ServerEvents, conversation: Conversation) -> None:
        self.send, self.ids, self.conversation = send, ids, conversation
        self.out: _Response | None = None
        self.requested_at_ms: int | None = None
        """When the client's `response.create` opened the active response (else None)."""
        self.calls: dict[str, str] = {}
        self.input_ms = 0
        """User audio heard since the last response (for the usage block)."""
        self.end_calls = 0
        self.last_response: str | None = None

    @property
    def active(self) -> bool:
        return self.out is not None

    async def write(self, events: Sequence[AgentEvent]) -> None:
        """Send the server events for a step's agent events; AgentFault if they are unusable."""
        for event in events:
            if isinstance(event, TranscriptDelta):
                out, item = await self._open_message()
                out.transcript.append(event.text)
                out.words += len(event.text.split())
                await self.send(rt.TRANSCRIPT_DELTA, **self._where(out, item), delta=event.text)
            elif isinstance(event, AudioDelta):
                await self._audio(event)
            elif isinstance(event, ToolCallRequest):
                await self._call(event)
            elif isinstance(event, ResponseDone):
                await self.finish("completed")
            elif isinstance(event, SpeechCancelled):
                # the agent stops talking: its audio may all be with the client already, so
                # also clear the client's output buffer (the GA event WebRTC clients get)
                last = self.out.id if self.out is not None else self.last_response
                await self.finish("cancelled")
                await self.send(rt.OUTPUT_AUDIO_CLEARED, response_id=last)
            elif isinstance(event, EndCall):
                self.end_calls += 1
            elif isinstance(event, AgentFailure):
                raise AgentFault(event.message)

    def _where(self, out: _Response, item: Message) -> Message:
        return {
            "response_id": out.id,
            "item_id": item["id"],
            "output_index": out.output.index(item),
            "content_index": 0,
        }

    async def open(self, at_ms: int) -> None:
        """Open a response at the client's request (`response.create`); what the agent says
        next goes into it, and `idle` closes it empty when the agent says nothing."""
        await self._response()
        self.requested_at_ms = at_ms

    async def idle(self, now_ms: int, wait_ms: int) -> None:
        """Close a requested response with no output after `wait_ms` of input audio."""
        out, since = self.out, self.requested_at_ms
        if out is not None and since is not None and not out.output and now_ms - since >= wait_ms:
            await self.finish("completed")

    async def _response(self) -> _Response:
        if self.out is None:
            self.out = _Response(self.ids.new_id("resp"))
            await self.send(
                rt.RESPONSE_CREATED, response=response_object(self.out.id, "in_progress", [])
            )
        return self.out

    async def _open_message(self) -> tuple[_Response, Message]:
        out = await self._response()
        if out.message is None:
            out.message = {
                "id": self.ids.new_id("item"),
                "object": "realtime.item",
                "type": "message",
                "role": "assistant",
                "status": "in_progress",
                "content": [],
            }
            out.output.append(out.message)
            where = self._where(out, out.message)
            await self.send(
                rt.OUTPUT_ITEM_ADDED,
                response_id=out.id,
                output_index=where["output_index"],
                item=out.message,
            )
            await self.conversation.added(out.message)
            await self.send(
                rt.CONTENT_PART_ADDED, **where, part={"type": "audio", "transcript": ""}
            )
        return out, out.message

    async def _audio(self, event: AudioDelta) -> None:
        try:
            wire = resample(to_mono(np.asarray(event.pcm)), event.sample_rate, rt.WIRE_RATE)
        except AudioFormatError as exc:
            raise AgentFault(f"agent audio: {exc}") from None
        out, item = await self._open_message()
        out.audio_samples += len(wire)
        for start in range(0, len(wire), CHUNK_SAMPLES):
            chunk = rt.encode_pcm16(wire[start : start + CHUNK_SAMPLES])
            await self.send(rt.AUDIO_DELTA, **self._where(out, item), delta=chunk)

    async def _close_message(self, out: _Response, status: str) -> None:
        item, out.message = out.message, None
        if item is None:
            return
        where, text = self._where(out, item), "".join(out.transcript)
        part = {"type": "output_audio", "transcript": text}
        await self.send(rt.AUDIO_DONE, **where)
        await self.send(rt.TRANSCRIPT_DONE, **where, transcript=text)
        await self.send(rt.CONTENT_PART_DONE, **where, part={"type": "audio", "transcript": text})
        item.update(status=status, content=[part])
        await self.send(
            rt.OUTPUT_ITEM_DONE, response_id=out.id, output_index=where["output_index"], item=item
        )
        await self.conversation.done(item)
        out.transcript = []

    async def _call(self, event: ToolCallRequest) -> None:
        out = await self._response()
        await self._close_message(out, "completed")
        call_id = event.call_id or self.ids.new_id("call")
        arguments = (
            event.arguments if isinstance(event.arguments, str) else json.dumps(event.arguments)
        )
        item = {
            "id": self.ids.new_id("item"),
            "object": "realtime.item",
            "type": "function_call",
            "status": "in_progress",
            "name": event.name,
            "call_id": call_id,
            "arguments": "",
        }
        out.output.append(item)
        index = len(out.output) - 1
        await self.send(
            rt.OUTPUT_ITEM_ADDED, response_id=out.id, output_index=index, item=dict(item)
        )
        await self.conversation.added(dict(item))
        item.update(status="completed", arguments=arguments)
        await self.send(
            rt.ARGUMENTS_DONE,
            response_id=out.id,
            item_id=item["id"],
            output_index=index,
            call_id=call_id,
            name=event.name,
            arguments=arguments,
        )
        await self.send(rt.OUTPUT_ITEM_DONE, response_id=out.id, output_index=index, item=item)
        await self.conversation.done(item)
        self.calls[call_id] = event.name

    async def finish(self, status: str) -> None:
        """End the active response (if any) with `completed` or `cancelled`."""
        out, self.out = self.out, None
        self.requested_at_ms = None
        if out is None:
            return
        self.last_response = out.id
        await self._close_message(out, "completed" if status == "completed" else "incomplete")
        usage = usage_block(self.input_ms, out.audio_samples * 1000 // rt.WIRE_RATE, out.words)
        self.input_ms = 0
        await self.send(
            rt.RESPONSE_DONE, response=response_object(out.id, status, out.output, usage)
        )
