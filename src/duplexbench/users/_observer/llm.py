"""The optional LLM layer: an OpenAI-compatible model names the slots a question is about.

Asked only where the layers before it abstained (no slot named, the caller's
value not heard, the semantic matcher unsure). The prompt lists the item's
slots with their descriptions and gives the agent's sentence; the reply is
strict JSON `{"slots": [ids], "unsure": bool}` (an empty list: the sentence
asks for none of them). Answers are cached in a JSONL file (default
RUN_DIR/observer-cache.jsonl) keyed by model, prompt version, item and
sentence, so a rerun with the cache needs no endpoint and gives the same
acts.

Failures are never silent: an unreachable endpoint, a reply that is not the
expected JSON, or a slot id the item does not have raises
:class:`ObserverUnavailable`, and the episode ends as an error (a harness
error, retried by policy). There is no fallback to another observer.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from duplexbench.items import WorkflowItem
from duplexbench.users._observer.slots import Slot
from duplexbench.yesno import JsonlStore, JudgeUnavailable, ask_json

PROMPT_VERSION = "1"
SYSTEM = """\
You play the caller on a phone call with an assistant who fills in a form for you.
Decide which of the listed details the assistant's sentence asks you to give, or to
confirm. List every detail it asks for (several if it asks for several). If it asks
for none of them (small talk, an acknowledgement, a statement), list none. If it
clearly asks for one detail but you cannot tell which of two, list those two and set
"unsure" to true.
Reply with strict JSON only: {"slots": ["<id>", ...], "unsure": true or false}"""


class ObserverUnavailable(RuntimeError):
    """The LLM observer could not answer (the episode becomes an error)."""


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: str
    key: str
    slots: list[str]
    unsure: bool


def prompt(slots: tuple[Slot, ...], sentence: str) -> str:
    lines = [f"- {s.id}: {s.description or s.words}" for s in slots]
    return "DETAILS:\n" + "\n".join(lines) + f"\n\nASSISTANT SAID: {sentence}"


class LLMLayer:
    name = "llm"

    def __init__(
        self,
        item: WorkflowItem,
        slots: tuple[Slot, ...],
        model: str,
        base_url: str | None,
        cache: str | None,
    ) -> None:
        if not base_url:
            raise ObserverUnavailable("the LLM observer needs a base URL")
        self.item_id = item.id
        self.slots_ = slots
        self.ids = {s.id for s in slots}
        self.model = model
        self.base_url = base_url
        path = Path(cache) if cache else None
        self.cache = JsonlStore(path, _Answer, lambda a: (a.model, a.key))
        self.calls = 0

    def _key(self, sentence: str) -> str:
        parts = [PROMPT_VERSION, self.item_id, sentence]
        return hashlib.sha256(json.dumps(parts).encode()).hexdigest()

    def slots(self, raw: str, named: frozenset[str]) -> tuple[list[str], bool]:
        key = self._key(raw)
        cached = self.cache.get((self.model, key))
        if cached is None:
            cached = self._ask(raw, key)
            self.cache.add(cached)
        return list(cached.slots), cached.unsure and len(cached.slots) == 2

    def _ask(self, raw: str, key: str) -> _Answer:
        self.calls += 1
        try:
            reply = ask_json(self.base_url, self.model, SYSTEM, prompt(self.slots_, raw))
        except JudgeUnavailable as exc:
            raise ObserverUnavailable(f"LLM observer {self.model}: {exc}") from None
        slots, unsure = reply.get("slots"), reply.get("unsure", False)
        if not isinstance(slots, list) or not all(isinstance(s, str) for s in slots):
            raise ObserverUnavailable(f"LLM observer {self.model}: `slots` is not a list of ids")
        unknown = [s for s in slots if s not in self.ids]
        if unknown:
            raise ObserverUnavailable(
                f"LLM observer {self.model}: answered slots the item does not have: {unknown[:3]}"
            )
        if not isinstance(unsure, bool):
            raise ObserverUnavailable(f"LLM observer {self.model}: `unsure` is not true/false")
        return _Answer(model=self.model, key=key, slots=list(dict.fromkeys(slots)), unsure=unsure)
