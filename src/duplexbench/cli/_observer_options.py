"""The simulated user's act observer options shared by `run`, `campaign run` and
`observer-eval` (docs/simulator.md)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from duplexbench.users import ObserverConfig

F = TypeVar("F", bound=Callable[..., Any])


def observer_options(func: F) -> F:
    """Add --observer, --observer-model, --observer-base-url, --observer-cache."""
    options = [
        click.option(
            "--observer",
            "observer_kind",
            type=click.Choice(["semantic", "rules"]),
            default="semantic",
            show_default=True,
            help="How the simulated caller understands the agent: `semantic` (field names, "
            "then the bundled sentence-embedding matcher with dialogue-act cues) or `rules` "
            "(field names and aliases only; the pre-2026-12 behaviour). Recorded in the run; "
            "runs with different observers are never pooled.",
        ),
        click.option(
            "--observer-model",
            help="Add an LLM layer: an OpenAI-compatible model asked where the layers before "
            "it abstain (needs --observer-base-url). Its answers are cached; an unreachable "
            "endpoint or a garbled answer makes the episode an error, never a fallback.",
        ),
        click.option("--observer-base-url", help="OpenAI-compatible endpoint of --observer-model."),
        click.option(
            "--observer-cache",
            type=click.Path(dir_okay=False, path_type=Path),
            help="Answer cache (JSONL) of --observer-model; default RUN_DIR/observer-cache.jsonl.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def observer_from(kwargs: dict[str, Any]) -> ObserverConfig:
    """The ObserverConfig of the options (removed from `kwargs`)."""
    kind = kwargs.pop("observer_kind", "semantic")
    model = kwargs.pop("observer_model", None)
    base_url = kwargs.pop("observer_base_url", None)
    cache = kwargs.pop("observer_cache", None)
    if model is None and (base_url or cache):
        raise click.UsageError("--observer-base-url/--observer-cache need --observer-model")
    if model is not None and not base_url:
        raise click.UsageError(
            "--observer-model needs --observer-base-url (an OpenAI-compatible endpoint)"
        )
    return ObserverConfig(
        kind=kind,
        llm_model=model,
        llm_base_url=base_url,
        llm_cache=str(cache) if cache else None,
    )
