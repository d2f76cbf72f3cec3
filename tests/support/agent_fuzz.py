"""Shared machinery of the protocol fuzzers (tests/agents/test_fuzz_{adapters,text_agent,serve}.py).

Random JSON (`documents`), nasty strings and bad audio fields (`bad_audio`:
invalid base64, odd-length PCM, non-strings, 4 MB deltas); `mutated(samples)`
copies a valid message and applies 1-4 random edits (drop a key, change its
type, a huge or nasty string, bad audio, another event type, wrap in a list).
"""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

from hypothesis import strategies as st

from support.fuzzing import NASTY, get, json_strategies, paths_of

_JSON = json_strategies()
text, scalars, documents = _JSON.text, _JSON.scalars, _JSON.documents


def b64(n_bytes: int) -> str:
    return base64.b64encode(bytes(n_bytes)).decode("ascii")


ENORMOUS = [b64(4 << 20), b64((4 << 20) + 1)]  # 4 MB of audio (87 s at 24 kHz); odd length
bad_audio: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(
        ["%%%", "A", "AAA", "AAAA", "AAA=", "====", " QUFB", "QUFB\n", "\u00e9" * 4, "\ud800"]
    ),
    st.sampled_from([None, 0, 1.5, True, [], {}, ["AAAA"], "", *ENORMOUS]).map(copy.deepcopy),
    st.binary(max_size=64).map(lambda b: base64.b64encode(b).decode("ascii")),
    text,
)


def is_pcm16(audio: Any) -> bool:
    """Whether `audio` is valid base64 of whole PCM16 samples."""
    if not isinstance(audio, str) or not audio.isascii():
        return False
    try:
        return len(base64.b64decode(audio, validate=True)) % 2 == 0
    except ValueError:
        return False


EDITS = ["drop", "replace", "huge", "nasty", "audio", "retype", "wrap"]


@st.composite
def mutated(draw: st.DrawFn, samples: list[dict[str, Any]]) -> Any:
    data = copy.deepcopy(draw(st.sampled_from(samples)))
    types = sorted({s["type"] for s in samples if "type" in s}) or ["x"]
    for _ in range(draw(st.integers(1, 4))):
        paths = [p for p in paths_of(data) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = get(data, path[:-1]), path[-1]
        edit = draw(st.sampled_from(EDITS))
        if edit == "drop":
            del parent[key]
        elif edit == "replace":
            parent[key] = draw(documents)
        elif edit == "huge":
            size = draw(st.sampled_from([1000, 200_000]))
            parent[key] = draw(st.sampled_from(["x", "\u00e9", "9"])) * size
        elif edit == "nasty":
            parent[key] = draw(st.sampled_from(NASTY))
        elif edit == "audio":
            parent[key] = draw(bad_audio)
        elif edit == "retype" and isinstance(data, dict):
            data["type"] = draw(st.sampled_from(types))
        else:
            parent[key] = [parent[key]]
    return data


def shaped(samples: list[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects with the protocol's own keys (and event types) holding random values."""
    keys = {str(p[-1]) for m in samples for p in paths_of(m) if p and isinstance(p[-1], str)}
    kinds = sorted({m["type"] for m in samples if "type" in m})
    objects = st.dictionaries(st.sampled_from(sorted(keys)), documents, max_size=4)
    if not kinds:
        return objects
    return st.builds(lambda d, t: {**d, "type": t}, objects, st.sampled_from(kinds))


def encode(message: Any, ascii_only: bool = True) -> str:
    return json.dumps(message, ensure_ascii=ascii_only)


DEEP_LISTS = "[" * 10_000 + "]" * 10_000
DEEP_MAPS = '{"a":' * 10_000 + "1" + "}" * 10_000
