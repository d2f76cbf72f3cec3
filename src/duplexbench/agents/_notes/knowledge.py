"""Reading a value for a field out of knowledge-search results (heuristic)."""

from __future__ import annotations

import re
from typing import Any

from duplexbench.agents._notes.schema import FieldInfo
from duplexbench.agents._notes.understand import best_choice
from duplexbench.values import parse_date

_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
_SENTENCE_END = re.compile(r"[.;!?](?=\s|$)")


def _sentences(results: list[dict[str, Any]]) -> list[str]:
    """Clauses of the top-ranked document (the query names the field, so the best match
    is the field's own table; a number from another table would be a wrong value)."""
    out: list[str] = []
    for doc in results[:1]:
        out += [s.strip() for s in _SENTENCE_END.split(str(doc.get("text", ""))) if s.strip()]
    return out


def _number_near(sentences: list[str], context: list[str]) -> float | None:
    """The number that most closely follows the context terms within one sentence."""
    best: tuple[float, float] | None = None
    for sentence in sentences:
        lowered = sentence.casefold()
        for match in _NUMBER.finditer(sentence):
            score = 0.0
            for term in context:
                pos = lowered.rfind(term.casefold(), 0, match.start())
                if pos >= 0:
                    score += 1.0 / (1 + match.start() - pos - len(term))
            if score > 0 and (best is None or score > best[0]):
                best = (score, float(match.group(0).replace(",", "")))
    return None if best is None else best[1]


def value_from_results(info: FieldInfo, results: list[dict[str, Any]], context: list[str]) -> Any:
    """A value for the field read from the top documents, or None."""
    sentences = _sentences(results)
    if info.kind in ("number", "integer"):
        return _number_near(sentences, context)
    if info.kind == "enum":
        return best_choice(" ".join(sentences), info.choices)
    if info.kind == "date":
        for sentence in sentences:
            found = parse_date(sentence)
            if found is not None:
                return found.isoformat()
    return None
