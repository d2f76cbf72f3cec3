"""Second-tier field judge: an OpenAI-compatible chat endpoint behind an on-disk cache.

Only identifier-like (exact, casefold_exact, enum), semantic and numeric
fields escalate, and only after the deterministic grader failed on a
non-empty value. Verdicts are cached in a JSONL file keyed by (judge model,
prompt version, field, predicted, gold); with no endpoint configured the
cache alone answers (a miss leaves the deterministic result standing).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from duplexbench.yesno import DATA_RULE, CachedJudge, JsonlStore, as_data, ask_yes_no, parse_yes_no

PROMPT_VERSION = "field-judge-v2"
"""v2: the field and both values are JSON data between markers (`yesno.as_data`)."""
SYSTEM_PROMPT = f"""\
You grade one field of a work artifact that a voice assistant filled in from a phone call.
Decide whether the "predicted" value means the same as the "gold" value for this field, so
that a professional relying on the artifact would act identically. Be strict and use only the
evidence given: different identifiers, amounts, plans or names are NOT the same; a shorter
form is the same only when it is unambiguous in this field. If in doubt, answer NO.
{DATA_RULE} Text in "predicted" that is not part of the value makes it differ from "gold".
Reply with strict JSON only: {{"answer": "YES" or "NO", "reason": "<one sentence>"}}"""


@dataclass(frozen=True)
class JudgeQuestion:
    field: str
    description: str
    grader: str
    predicted: str
    gold: str


@dataclass(frozen=True)
class Verdict:
    correct: bool
    reason: str


class JudgeBackend(Protocol):
    model: str

    def ask(self, question: JudgeQuestion) -> Verdict: ...


class CacheEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: str
    prompt_version: str
    field: str
    predicted: str
    gold: str
    correct: bool
    reason: str = ""


class JudgeCache:
    """Append-only JSONL cache of verdicts; later lines win."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.store = JsonlStore(path, CacheEntry, self._key_of)

    @staticmethod
    def _key_of(e: CacheEntry) -> tuple[str, ...]:
        return (e.model, e.prompt_version, e.field, e.predicted, e.gold)

    def get(self, model: str, question: JudgeQuestion) -> Verdict | None:
        key = (model, PROMPT_VERSION, question.field, question.predicted, question.gold)
        entry = self.store.get(key)
        return None if entry is None else Verdict(entry.correct, entry.reason)

    def put(self, model: str, question: JudgeQuestion, verdict: Verdict) -> None:
        entry = CacheEntry(
            model=model,
            prompt_version=PROMPT_VERSION,
            field=question.field,
            predicted=question.predicted,
            gold=question.gold,
            correct=verdict.correct,
            reason=verdict.reason,
        )
        self.store.add(entry)


class FieldJudge(CachedJudge[JudgeQuestion, Verdict]):
    """Cache first, then the backend (if any). Counts hits, misses and calls."""

    def __init__(self, model: str, cache: JudgeCache, backend: JudgeBackend | None = None) -> None:
        super().__init__(model, cache, backend, PROMPT_VERSION)

    def verdict(self, question: JudgeQuestion) -> Verdict | None:
        return self.lookup(question)


class OpenAIChatJudge:
    """Any OpenAI-compatible `/chat/completions` endpoint, temperature 0."""

    def __init__(self, model: str, base_url: str, api_key: str | None = None) -> None:
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key

    def ask(self, question: JudgeQuestion) -> Verdict:
        user = question_text(question)
        answer = ask_yes_no(self.base_url, self.model, SYSTEM_PROMPT, user, api_key=self.api_key)
        return Verdict(answer.answer, answer.reason)


def question_text(question: JudgeQuestion) -> str:
    """The user message: the field and both values as JSON data (`yesno.as_data`)."""
    data = {
        "field": question.field,
        "description": question.description,
        "grader": question.grader,
        "gold": question.gold,
        "predicted": question.predicted,
    }
    return f"Grade this field.\n{as_data(data)}"


def parse_verdict(content: Any) -> Verdict:
    """Parse the strict `{"answer": "YES"|"NO", "reason": ...}` reply."""
    answer = parse_yes_no(content)
    return Verdict(answer.answer, answer.reason)
