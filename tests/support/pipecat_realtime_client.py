"""A pipecat pipeline around `OpenAIRealtimeLLMService`, as a pipecat user builds one,
pointed at `duplexbench serve-agent` (tests/agents/test_serve.py).

Caller audio goes in as `InputAudioRawFrame`s; the context aggregators keep the
conversation (pipecat's function calling runs through them); a sink at the end
collects the bot's audio and text, the function calls the registered handler
ran, and every `ErrorFrame`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
from pipecat.adapters.llm.schemas.tools_schema import ToolsSchema
from pipecat.frames.frames import (
    EndFrame,
    ErrorFrame,
    Frame,
    InputAudioRawFrame,
    LLMContextFrame,
    TextFrame,
    TTSAudioRawFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.task import PipelineParams
from pipecat.pipeline.worker import PipelineWorker
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import LLMContextAggregatorPair
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.services.llm_service import FunctionCallParams
from pipecat.services.openai.realtime.llm import OpenAIRealtimeLLMService
from pipecat.workers.runner import WorkerRunner

from duplexbench.agents._protocol import ToolSpec

RATE = 16_000
CHUNK = RATE // 50  # 20 ms


@dataclass
class Conversation:
    calls: list[dict[str, Any]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    audio_ms: float = 0.0
    errors: list[str] = field(default_factory=list)


class Sink(FrameProcessor):
    """Collects what the bot says; ends the call once `until` has been said and played."""

    def __init__(self, got: Conversation, until: str) -> None:
        super().__init__()
        self.got, self.until = got, until
        self.done = asyncio.Event()

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, TTSAudioRawFrame):
            self.got.audio_ms += len(frame.audio) / 2 * 1000 / frame.sample_rate
        elif isinstance(frame, TextFrame):
            self.got.text.append(frame.text)
        elif isinstance(frame, ErrorFrame):
            self.got.errors.append(frame.error)
        if self.until in "".join(self.got.text) and self.got.audio_ms > 0:
            self.done.set()
        await self.push_frame(frame, direction)


def _tools(tool: ToolSpec) -> ToolsSchema:
    params = tool.parameters
    schema = FunctionSchema(
        name=tool.name,
        description=tool.description,
        properties=params.get("properties", {}),
        required=params.get("required", []),
    )
    return ToolsSchema(standard_tools=[schema])


async def converse(
    url: str, tool: ToolSpec, result: dict[str, Any], user: list[Any], until: str
) -> Conversation:
    """Say `user` (16 kHz int16 pieces) then silence until the bot has said `until`."""
    got = Conversation()
    settings = OpenAIRealtimeLLMService.Settings(model="x", system_instruction="Be helpful.")
    llm = OpenAIRealtimeLLMService(api_key="test", base_url=url, settings=settings)

    async def lookup(params: FunctionCallParams) -> None:
        got.calls.append(dict(params.arguments))
        await params.result_callback(result)

    llm.register_function(tool.name, lookup)
    context = LLMContext(tools=_tools(tool))
    aggregators = LLMContextAggregatorPair(context)
    sink = Sink(got, until)
    pipeline = Pipeline([aggregators.user(), llm, sink, aggregators.assistant()])
    params = PipelineParams(audio_in_sample_rate=RATE, audio_out_sample_rate=24_000)
    worker = PipelineWorker(pipeline, params=params)
    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    running = asyncio.create_task(runner.run())
    await worker.queue_frame(LLMContextFrame(context))
    audio = np.concatenate(user).astype("<i2")
    for start in range(0, len(audio), CHUNK):
        await worker.queue_frame(
            InputAudioRawFrame(audio[start : start + CHUNK].tobytes(), RATE, 1)
        )
        await asyncio.sleep(0.002)  # pacing: the caller's 20 ms chunks, one every 2 ms
    silence = np.zeros(CHUNK, dtype="<i2").tobytes()
    while not sink.done.is_set():  # the agent steps on the caller's audio: keep the line open
        await worker.queue_frame(InputAudioRawFrame(silence, RATE, 1))
        await asyncio.sleep(0.005)  # pacing: a 20 ms chunk of silence every 5 ms, until done
    await worker.queue_frame(EndFrame())
    await running
    return got
