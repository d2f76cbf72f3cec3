"""The editable price table behind usage cost estimates."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from duplexbench.items import ItemError, read_document
from duplexbench.scoring import Price

DEFAULT_PRICES = Path(__file__).with_name("prices.yaml")


def load_prices(path: str | Path | None = None) -> dict[str, Price]:
    """The price table at `path` (default: the packaged `prices.yaml`)."""
    source = Path(path) if path is not None else DEFAULT_PRICES
    try:
        data = read_document(source)
    except ItemError as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(data, dict):
        raise ValueError(f"{source}: a price table maps agent names to prices")
    try:
        return {str(k): Price.model_validate(v or {}) for k, v in data.items()}
    except ValidationError as exc:
        raise ValueError(f"{source}: {exc}") from None
