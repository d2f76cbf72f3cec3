"""Usage accounting and cost estimates from the price table."""

from __future__ import annotations

from pathlib import Path

import pytest

from duplexbench.campaign._prices import DEFAULT_PRICES, load_prices
from duplexbench.scoring._usage import Price, Usage, cost, price_for, usage_block


def test_packaged_price_table_loads() -> None:
    table = load_prices()
    assert DEFAULT_PRICES.exists() and "openai-realtime:gpt-realtime" in table
    assert price_for(table, "openai-realtime:gpt-realtime?voice=marin") is not None
    assert price_for(table, "gemini-live:some-model") is table["gemini-live"]
    assert price_for(table, "unknown-agent") is None


def test_cost_per_token_and_per_minute() -> None:
    usage = Usage(audio_in_s=120, audio_out_s=60)
    usage.tokens.update(input_audio_tokens=1_000_000, output_tokens=500_000)
    price = Price(
        input_audio_tokens_per_million=32, output_tokens_per_million=16, audio_in_per_minute=0.5
    )
    assert cost(usage, price) == pytest.approx(32 + 8 + 1.0)
    assert cost(usage, None) is None


def test_usage_block_sums_episodes() -> None:
    a, b = Usage(audio_in_s=10, audio_out_s=4), Usage(audio_in_s=5, audio_out_s=1)
    a.tokens["output_audio_tokens"] = 100
    block = usage_block([a, b], Price(audio_in_per_minute=6))
    assert block["audio_in_s"] == 15 and block["audio_out_s"] == 5
    assert block["tokens"]["output_audio_tokens"] == 100 and block["cost_usd"] == 1.5


def test_bad_price_tables_are_reported(tmp_path: Path) -> None:
    bad = tmp_path / "prices.yaml"
    bad.write_text("openai-realtime:\n  per_call: 3\n")
    with pytest.raises(ValueError, match=r"prices\.yaml"):
        load_prices(bad)
    bad.write_text("- 1\n")
    with pytest.raises(ValueError, match="maps agent names"):
        load_prices(bad)
