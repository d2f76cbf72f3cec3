"""What every fuzz suite shares: the example count, hypothesis settings, a hang guard.

`DUPLEXBENCH_FUZZ_EXAMPLES` (default 40) sets hypothesis's `max_examples`
for every property; `time_guard` turns a case that runs too long into a
failure (SIGALRM: the tests run in the main thread) instead of a hang;
`json_strategies` builds random JSON-like documents around a list of nasty
strings (each fuzzer tunes sizes and adds its own nasties).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any, Protocol, TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("DUPLEXBENCH_FUZZ_EXAMPLES", "40"))
CASE_SECONDS = 20

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


T = TypeVar("T")


class Draw(Protocol):
    """A draw function: `@st.composite`'s `draw` or a test's `data.draw` (hypothesis's own
    `st.DrawFn` does not take `DataObject.draw`: it asks for a `__signature__`)."""

    def __call__(self, strategy: st.SearchStrategy[T], /) -> T: ...


class Hang(Exception):
    """A fuzz case ran past its time guard."""


@contextmanager
def time_guard(seconds: float = CASE_SECONDS) -> Iterator[None]:
    """Raise `Hang` in the block once it has run `seconds`."""

    def fire(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"case ran past {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


NASTY = ("", "\x00", "\u202e", "\ufeff", "\ud800", "\udfff", "\U0001f600", "x" * 300, "null", "{}")
"""Strings that break naive code: empty, NUL, RTL override, BOM, lone surrogates, emoji, long."""


@dataclass(frozen=True)
class JsonStrategies:
    text: st.SearchStrategy[str]
    scalars: st.SearchStrategy[Any]
    documents: st.SearchStrategy[Any]


def json_strategies(
    *,
    nasty: Sequence[str] = NASTY,
    text_size: int = 30,
    int_bound: int = 10**30,
    extra_scalars: Sequence[st.SearchStrategy[Any]] = (),
    keys: st.SearchStrategy[Any] | None = None,
    list_size: int = 4,
    dict_size: int = 5,
    max_leaves: int = 20,
) -> JsonStrategies:
    """Text (random or nasty), scalars (None, bools, ints, floats with NaN/inf, text) and
    documents (scalars nested in lists and dicts whose keys come from `keys`, default text)."""
    text = st.one_of(st.text(max_size=text_size), st.sampled_from(list(nasty)))
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.integers(min_value=-int_bound, max_value=int_bound),
        st.floats(allow_nan=True, allow_infinity=True),
        text,
        *extra_scalars,
    )
    key_strategy = text if keys is None else keys
    documents = st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=list_size),
            st.dictionaries(key_strategy, inner, max_size=dict_size),
        ),
        max_leaves=max_leaves,
    )
    return JsonStrategies(text, scalars, documents)


def paths_of(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path (keys and indexes) into a JSON-like document, the empty one first."""
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += paths_of(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += paths_of(value, (*prefix, i))
    return out


def get(node: Any, path: tuple[Any, ...]) -> Any:
    """The value at `path` in a JSON-like document."""
    for part in path:
        node = node[part]
    return node
