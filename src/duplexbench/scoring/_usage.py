"""Usage accounting: audio in and out, provider tokens, and a cost estimate.

Audio in is the user channel streamed to the agent (the whole call); audio
out is the agent speech delivered. Tokens are what providers reported
(`agent.usage`). The cost estimate uses a price table the user can edit
(`campaign/prices.yaml`, or `--prices FILE`): per agent name and model,
USD per million tokens and per minute of audio. Without a matching price the
cost is null, never a guess.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from duplexbench.trace import AgentUsage, AgentUtterance, EpisodeAudio, TraceEvent

TOKEN_KINDS = ("input_tokens", "output_tokens", "input_audio_tokens", "output_audio_tokens")


class Usage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    audio_in_s: float = 0.0
    audio_out_s: float = 0.0
    tokens: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(TOKEN_KINDS, 0))


def episode_usage(events: Sequence[TraceEvent]) -> Usage:
    usage = Usage()
    for event in events:
        if isinstance(event, AgentUsage):
            for kind in TOKEN_KINDS:
                usage.tokens[kind] += getattr(event.data, kind)
        elif isinstance(event, AgentUtterance):
            usage.audio_out_s += (event.data.end_ms - event.data.start_ms) / 1000
        elif isinstance(event, EpisodeAudio):
            usage.audio_in_s = event.data.duration_ms / 1000
    usage.audio_out_s = round(usage.audio_out_s, 3)
    return usage


class Price(BaseModel):
    """USD prices of one agent/model; missing entries count as 0."""

    model_config = ConfigDict(extra="forbid")
    input_tokens_per_million: float = 0.0
    output_tokens_per_million: float = 0.0
    input_audio_tokens_per_million: float = 0.0
    output_audio_tokens_per_million: float = 0.0
    audio_in_per_minute: float = 0.0
    audio_out_per_minute: float = 0.0


def price_for(table: Mapping[str, Price], agent: str) -> Price | None:
    """The most specific entry: `name:model`, then `name`."""
    head = agent.partition("?")[0]
    return table.get(head) or table.get(head.partition(":")[0])


def cost(usage: Usage, price: Price | None) -> float | None:
    if price is None:
        return None
    per_token = (
        usage.tokens["input_tokens"] * price.input_tokens_per_million
        + usage.tokens["output_tokens"] * price.output_tokens_per_million
        + usage.tokens["input_audio_tokens"] * price.input_audio_tokens_per_million
        + usage.tokens["output_audio_tokens"] * price.output_audio_tokens_per_million
    ) / 1e6
    per_minute = (
        usage.audio_in_s * price.audio_in_per_minute
        + usage.audio_out_s * price.audio_out_per_minute
    ) / 60
    return round(per_token + per_minute, 6)


def usage_block(usages: Sequence[Usage], price: Price | None) -> dict[str, Any]:
    """Sum over a run's episodes."""
    total = Usage()
    for u in usages:
        total.audio_in_s += u.audio_in_s
        total.audio_out_s += u.audio_out_s
        for kind in TOKEN_KINDS:
            total.tokens[kind] += u.tokens[kind]
    return {
        "audio_in_s": round(total.audio_in_s, 3),
        "audio_out_s": round(total.audio_out_s, 3),
        "tokens": total.tokens,
        "cost_usd": cost(total, price),
    }
