"""The reference agent's rule-based dialogue manager (a TextAgent).

It works only from what any agent sees: the instructions, the tool schemas,
tool results and the caller's words. It asks for one missing field at a time,
reads each answer by the field's type and writes it at once, takes
corrections ("actually, it's 200") by updating the field and confirming it,
looks a value up in the knowledge tool when the caller cannot give it, marks
the artifact ready, asks before the consequential action and acts only on a
yes, stands down on a no or a revocation, and says goodbye.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from duplexbench.agents._notes.kinds import Target, ear_of
from duplexbench.agents._notes.knowledge import value_from_results
from duplexbench.agents._notes.reading import read_plain
from duplexbench.agents._notes.schema import FieldInfo, ToolMap, classify, fields_of
from duplexbench.agents._notes.tables import keyed_value, table_topic
from duplexbench.agents._notes.understand import (
    about,
    best_choice,
    is_correction,
    is_no,
    is_unknown,
    is_yes,
    old_value,
    parse_value,
    spoken,
)
from duplexbench.agents._protocol import (
    AgentError,
    AgentInput,
    AgentSession,
    AgentToolCall,
    AgentTurn,
)
from duplexbench.agents._reference.careful import HOLD, Careful
from duplexbench.agents._reference.phrasing import Phrasing, PhrasingName
from duplexbench.agents._reference.records import (
    RECORD,
    Policy,
    policy_of,
    record_id,
    record_noun,
    record_values,
    refined,
)
from duplexbench.speech import Transcript

MAX_ATTEMPTS = 2
_KINDS = frozenset(
    {"string", "number", "integer", "boolean", "list", "interval", "enum", "date", "phone"}
)
"""The field types it reads (`_notes/schema.py`); any other is an agent error."""
_CONFIRM_ONLY = re.compile(
    r"^\W*(?:(?:yes|yeah|yep)\W+)?(?:that'?s\s+)?(?:correct|right|exactly)\W*$", re.I
)
"""A confirmation of values read back, which is no go-ahead ("Yes, correct.")."""
_RECORD = FieldInfo("reference number", "string", "the record's id")
"""The caller's record id, as careful listening hears it (a code)."""
NAMED = Phrasing("names")
"""Clarifications name the field, whatever the phrasing."""
_WHICH_ONE = re.compile(
    r"\b(do you mean|which one do you|which do you mean|what do you mean)\b", re.I
)


@dataclass
class _State:
    values: dict[str, Any] = field(default_factory=dict)
    pending: str | None = None
    attempts: dict[str, int] = field(default_factory=dict)
    lookup: list[str] = field(default_factory=list)
    looked_up: set[str] = field(default_factory=set)
    skipped: set[str] = field(default_factory=set)
    to_confirm: list[str] = field(default_factory=list)
    confirming: str | None = None
    asked_approval: bool = False
    approved: bool = False
    declined: bool = False
    done: bool = False
    last_written: str | None = None
    record_done: bool = False
    clarify: bool = False
    """The caller asked which detail was meant: say it by its name next."""
    read_back: dict[str, Any] | None = None
    """The values as last read back before asking for the go-ahead."""
    waiting: bool = False
    """Audio: the caller began a spelling and paused; the agent says nothing."""
    confirmed: bool = False
    """The caller confirmed the read-back without the go-ahead: ask only the question."""
    ask: str | None = None
    """Audio: the repair or read-back to ask next about the pending field."""
    record_id: str | None = None
    on_file: dict[str, Any] = field(default_factory=dict)
    """A changed record's values before the changes (grounded service tasks)."""


class ReferenceDialogue:
    def __init__(
        self, year: int = 2026, phrasing: PhrasingName = "names", careful: bool = True
    ) -> None:
        self.year = year
        self.phrasing = Phrasing(phrasing)
        self.tools = ToolMap()
        self.policy: Policy = "ask"
        self.s = _State()
        self._calls = 0
        self.changes = False
        self.listens_carefully = careful
        """`listen=plain`: in audio too, the words heard are the value (version 3's way)."""
        self.careful: Careful | None = None
        """Audio only (the cascade handed a transcript over): careful listening."""
        self.transcript: Transcript | None = None

    def start(self, session: AgentSession) -> None:
        self.tools = classify(session.tools)
        self.policy = policy_of(session.instructions)
        self.s = _State()
        self.careful, self.transcript = None, None
        self.changes = self.tools.update is None and self.tools.record_update is not None
        """A grounded service task: collect the changes to a record, then apply them all
        with the record tool as the consequential action."""
        if self.changes and self.tools.record_update is not None:
            self.tools.fields = fields_of(self.tools.record_update)
            self.tools.commit = self.tools.record_update
        self._check_schema(session)

    def _check_schema(self, session: AgentSession) -> None:
        """An item it cannot work is an agent error naming what is missing, never a
        silent run that writes nonsense."""
        if self.tools.update is None and self.tools.record_update is None:
            names = ", ".join(t.name for t in session.tools)
            raise AgentError(
                "reference agent: no tool writes fields (an update tool taking `fields`, "
                f"or a record tool taking `id` and `fields`); the tools are: {names}"
            )
        unknown = [f"{f.name} ({f.kind})" for f in self.tools.fields if f.kind not in _KINDS]
        if unknown:
            raise AgentError(f"reference agent: fields of a type it cannot read: {unknown}")

    def close(self) -> None:
        return None

    def heard(self, transcript: Transcript) -> None:
        """The cascade's hook (audio): the whole transcript, with the ASR's confidence,
        of the turn `respond` gets next; the agent listens carefully from now on."""
        self.transcript = transcript
        if self.careful is None and self.listens_carefully:
            self.careful = Careful(self.year)

    # ------------------------------------------------------------ turns

    def respond(self, observation: AgentInput) -> AgentTurn:
        if self.s.done:
            return AgentTurn()
        calls: list[AgentToolCall] = []
        prefix = ""
        for result in observation.tool_results:
            prefix += self._after_tool(result.name, result.output, calls)
        if self.s.done:
            return AgentTurn(prefix.strip(), tuple(calls), end_call=True)
        if observation.user_text is not None:
            calls += self._understand(observation.user_text)
        elif not prefix and not calls:
            return AgentTurn()  # results of plain writes: nothing new to say
        if calls and any(c.name in self._pending_result_tools() for c in calls):
            return AgentTurn(prefix.strip(), tuple(calls))  # wait for the lookup or commit
        turn = self._next()
        say = f"{prefix} {turn.say}".strip()
        return AgentTurn(say, tuple(calls) + turn.tool_calls, turn.end_call)

    def _pending_result_tools(self) -> set[str]:
        tools = [self.tools.search, self.tools.commit, *self.tools.lookup]
        return {t.name for t in tools if t is not None}

    def _call(self, name: str, arguments: dict[str, Any]) -> AgentToolCall:
        self._calls += 1
        return AgentToolCall(name, arguments, f"ref-dm-{self._calls}")

    def _write(self, name: str, value: Any) -> list[AgentToolCall]:
        if self.changes and value is not None:  # applied at the end, with the approval
            held = self.s.on_file.get(name)
            lower = isinstance(held, str) and held == held.lower() and isinstance(value, str)
            self.s.values[name] = value.lower() if lower else value
            self.s.last_written = name
            return []
        if self.tools.update is None or value is None or self.s.values.get(name) == value:
            return []
        self.s.values[name] = value
        self.s.last_written = name
        return [self._call(self.tools.update.name, {"fields": {name: value}})]

    # ------------------------------------------------------------ understanding

    def _field(self, name: str | None) -> FieldInfo | None:
        return next((f for f in self.tools.fields if f.name == name), None)

    def _mentioned(self, text: str) -> FieldInfo | None:
        lowered = text.casefold()
        hits = [f for f in self.tools.fields if f.words in lowered]
        return max(hits, key=lambda f: len(f.words), default=None)

    def _holding(self, old: str | None) -> FieldInfo | None:
        """The field whose current value the caller is taking back ("..., not 10")."""
        if not old:
            return None
        for name, value in self.s.values.items():
            if spoken(value).casefold() == old.casefold():
                return self._field(name)
        return None

    def _understand(self, text: str) -> list[AgentToolCall]:
        s = self.s
        calls: list[AgentToolCall] = []
        if self.careful and s.pending == RECORD and self.careful.listening(_RECORD.name):
            return self._record(text)  # a repair or a read-back's answer
        if self.careful and s.pending not in (None, RECORD) and self.careful.listening(s.pending):
            return self._answer(s.pending, text)
        if s.pending is not None and _WHICH_ONE.search(text):
            s.clarify = True  # "Sorry, do you mean the tax id or the reference number?"
            return calls
        if s.asked_approval and not s.approved:
            self._approval_answer(text)
        if is_correction(text):
            named = self._mentioned(text)
            target = named or self._holding(old_value(text)) or self._field(s.last_written)
            if target is not None:
                before = len(calls)
                said = about(text, target.words) if named else text
                calls += self._write(target.name, self._read(target, said))
                if len(calls) > before and target.name not in s.to_confirm:
                    s.to_confirm.append(target.name)
                    s.declined = False
        elif s.confirming is not None:
            s.confirming = None
        if s.pending == RECORD and not calls:
            calls += self._record(text)
        elif s.pending is not None and not calls:
            calls += self._answer(s.pending, text)
        calls += self._volunteered(text)
        return calls

    def _approval_answer(self, text: str) -> None:
        """Yes or no to the approval question, sentence by sentence: "No, the X is Y"
        is a correction, not a refusal; any refusal or correction holds the action, and
        a hold with a correction ("don't submit it, I need the X to be Y") is asked
        again once the value is changed."""
        s = self.s
        sentences = [p for p in re.split(r"(?<=[.!?])\s+", text) if p.strip()]
        refused = any(is_no(p) and not is_correction(p) for p in sentences)
        corrected = any(is_correction(p) for p in sentences)
        if refused or corrected:  # "Hold on, don't submit it. I need the X to be Y.":
            s.declined, s.asked_approval = refused and not corrected, False  # ask again
        elif any(is_yes(p) and not _CONFIRM_ONLY.match(p) for p in sentences):
            s.approved = True
        elif any(is_yes(p) for p in sentences):
            s.confirmed = True  # "Yes, correct.": the read-back, not the go-ahead

    def _record(self, text: str) -> list[AgentToolCall]:
        """The caller's reference number: look the record up (two tries at most)."""
        rid = record_id(text)
        if self.careful is not None:  # audio: spelled and read back like any code
            value = self.careful.hear(_RECORD, text, self.transcript, path=("id",))
            if value is HOLD:
                self.s.waiting = True
                return []
            if value is None:
                self.s.ask = self.careful.question(_RECORD)
                if self.s.ask is not None:
                    return []
                value = self.careful.value(_RECORD.name)
            rid = re.sub(r"[^A-Z0-9]", "", str(value or "").upper()) or rid
        self.s.attempts[RECORD] = self.s.attempts.get(RECORD, 0) + 1
        if rid is None and self.s.attempts[RECORD] < MAX_ATTEMPTS:
            return []
        self.s.pending, self.s.record_done, self.s.record_id = None, True, rid
        return [self._call(t.name, {"id": rid}) for t in self.tools.lookup[:1]] if rid else []

    def _read(self, info: FieldInfo, text: str) -> Any:
        """The field's value in the caller's words, read as a person taking notes
        (`agents/_notes/reading.py`: fillers, side speech, questions and hedges left
        out, emails and codes written, numbers with their scale), else by type."""
        tool = self.tools.update.name if self.tools.update else ""
        target = Target(tool, ("fields", info.name), info, ear_of(info))
        value = read_plain(target, text, self.year, [info.words])
        return value if value is not None else parse_value(info, text, self.year)

    def _answer(self, name: str, text: str) -> list[AgentToolCall]:
        info = self._field(name)
        assert info is not None
        if self.careful is not None and not is_unknown(text):
            return self._hear(info, text)
        value = None if is_unknown(text) else self._read(info, text)
        if value is not None:
            self.s.pending = None
            return self._write(name, value)
        self.s.attempts[name] = self.s.attempts.get(name, 0) + 1
        if is_unknown(text) or self.s.attempts[name] >= MAX_ATTEMPTS:
            self.s.pending = None
            if self.tools.search is not None and name not in self.s.looked_up:
                self.s.lookup.append(name)
            else:
                self.s.skipped.add(name)
        return []

    def _hear(self, info: FieldInfo, text: str) -> list[AgentToolCall]:
        """Audio: one reading of the field; written once it settles, else the next turn
        asks the repair or read-back `Careful` has for it."""
        assert self.careful is not None
        value = self.careful.hear(info, text, self.transcript)
        if value is HOLD:
            self.s.waiting = True  # the start of a spelling: wait for the rest
            return []
        if value is None:
            self.s.ask = self.careful.question(info)
            if self.s.ask is not None:
                return []
            value = self.careful.value(info.name)  # repairs ran out: the best reading
        self.s.pending = None
        return self._write(info.name, value)

    def _volunteered(self, text: str) -> list[AgentToolCall]:
        """Enum values the caller mentioned in passing (e.g. "after the birth of ...")."""
        calls: list[AgentToolCall] = []
        for info in self.tools.fields:
            if info.kind != "enum" or info.name in self.s.values:
                continue
            choice = best_choice(text, info.choices)
            if choice and all(w in text.casefold() for w in choice.casefold().split()):
                calls += self._write(info.name, choice)
        return calls

    # ------------------------------------------------------------ tool results

    def _after_tool(self, name: str, output: dict[str, Any], calls: list[AgentToolCall]) -> str:
        tools = self.tools
        if any(name == t.name for t in tools.lookup) and self.changes:
            self.s.on_file = record_values(output)  # what to change, not the changes
            tools.fields = refined(tools.fields, self.s.on_file)
            return "I found your record." if output.get("ok") else "I could not find that record."
        if any(name == t.name for t in tools.lookup):
            known = {f.name for f in tools.fields}
            for key, value in record_values(output).items():
                if key in known and key not in self.s.values:
                    calls += self._write(key, value)  # on file; the caller may still change it
            return "I found your record." if output.get("ok") else "I could not find that record."
        if tools.search is not None and name == tools.search.name and self.s.lookup:
            field_name = self.s.lookup.pop(0)
            self.s.looked_up.add(field_name)
            info = self._field(field_name)
            results = output.get("result", {}).get("results", []) if output.get("ok") else []
            value = self._looked_up(info, results) if info else None
            if value is None:
                self.s.skipped.add(field_name)
                return ""
            calls += self._write(field_name, value)
            return self.phrasing.found(info, field_name, spoken(value))
        if tools.commit is not None and name == tools.commit.name:
            if output.get("ok"):
                self.s.done = True
                return "It is done. Thank you, goodbye!"
            self.s.approved = self.s.asked_approval = False
            if output.get("error", {}).get("code") != "not_authorized":
                self.s.done = True  # not ready (fields missing): nothing more to try
                return "I could not complete it, some information is missing. Goodbye!"
        return ""

    def _looked_up(self, info: FieldInfo, results: list[dict[str, Any]]) -> Any:
        """The field's value in the search results: the row of a keyed table whose keys
        are values the caller gave (`_notes/tables.py`), else the number or choice after
        the chosen options in the top document."""
        target = Target("", ("fields", info.name), info, ear_of(info))
        for doc in results:
            if table_topic(doc, self.tools.fields) != info:
                continue  # another field's table ("Early payment discount table")
            keyed = keyed_value(str(doc.get("text", "")), self._known, target)
            if keyed is not None:
                return keyed
        if self.changes:
            return None  # a record's other values are not to be guessed from a document
        return value_from_results(info, results, self._context())

    def _known(self, words: str) -> Any:
        """The value written for the field named `words` ("risk tier"), or None."""
        said = " ".join(words.casefold().split())
        info = next((f for f in self.tools.fields if f.words.casefold() == said), None)
        value = self.s.values.get(info.name) if info else None
        return spoken(value) if value is not None else None

    def _context(self) -> list[str]:
        """Chosen options (enum values): what documents are usually keyed by."""
        enums = {f.name for f in self.tools.fields if f.kind == "enum"}
        return [str(v) for n, v in self.s.values.items() if n in enums]

    # ------------------------------------------------------------ what next

    def _next(self) -> AgentTurn:
        s, tools = self.s, self.tools
        if s.approved and tools.commit is not None:
            calls = [self._call(tools.ready.name, {})] if tools.ready else []
            return AgentTurn("", (*calls, self._commit(tools.commit.name)))
        if tools.lookup and not s.record_done and s.pending is None:
            s.pending = RECORD
        if s.waiting:
            s.waiting = False
            return AgentTurn()  # the caller is spelling: say nothing
        if s.pending is not None:
            ask, s.ask = s.ask, None
            return AgentTurn(ask or self._question(s.pending))
        missing = [
            f
            for f in tools.fields
            if f.name not in s.values and f.name not in s.skipped and f.name not in s.lookup
        ]
        if missing:
            s.pending = missing[0].name
            return AgentTurn(self._question(s.pending))
        if s.lookup and tools.search is not None:
            info = self._field(s.lookup[0])
            query = " ".join([info.words if info else s.lookup[0], *self._context()])
            return AgentTurn(
                "Let me look that up.", (self._call(tools.search.name, {"query": query}),)
            )
        if s.to_confirm:
            name = s.to_confirm.pop(0)
            s.confirming = name
            info = self._field(name)
            value = spoken(s.values[name])
            if info is None:
                return AgentTurn(f"Just to confirm, the {name} is {value}?")
            return AgentTurn(self.phrasing.confirm(info, value))
        return self._wrap_up()

    def _wrap_up(self) -> AgentTurn:
        s, tools = self.s, self.tools
        ready = (self._call(tools.ready.name, {}),) if tools.ready else ()
        if self.policy == "notes" or (self.policy == "ready" and not s.declined):
            s.done = True
            calls = ready if self.policy == "ready" else ()
            return AgentTurn("Everything is noted. Thank you, goodbye!", calls, end_call=True)
        if tools.commit is None or s.declined:
            s.done = True
            calls = ready if tools.commit is None and not s.declined else ()
            prefix = "Okay, I will not go ahead." if s.declined else "Everything is filled in."
            return AgentTurn(f"{prefix} Thank you, goodbye!", calls, end_call=True)
        if self.policy == "commit":
            return AgentTurn("", (*ready, self._commit(tools.commit.name)))
        s.asked_approval = True
        action = tools.commit.name.replace("_", " ")
        before, s.read_back = s.read_back, dict(s.values)
        changed = [n for n, v in s.values.items() if before is not None and before.get(n) != v]
        names = changed or ([] if s.confirmed and before == s.values else list(s.values))
        s.confirmed = False
        pairs = [(self._field(n), n, spoken(s.values[n])) for n in names]
        # ready before asking: a "no" leaves it ready for review, a "yes" commits
        # after a correction, only what changed: the rest was read back already
        return AgentTurn(self.phrasing.readback(pairs, action, bool(changed)), ready)

    def _commit(self, name: str) -> AgentToolCall:
        """The consequential action; for a record, the changes with its id."""
        if not self.changes:
            return self._call(name, {})
        return self._call(name, {"id": self.s.record_id or "", "fields": dict(self.s.values)})

    def _question(self, name: str) -> str:
        clarify, self.s.clarify = self.s.clarify, False
        if name == RECORD:
            noun = record_noun(self.tools.lookup[0].description) if self.tools.lookup else ""
            return (NAMED if clarify else self.phrasing).record_question(noun)
        info = self._field(name)
        if info is None:
            return f"What is the {name}?"
        if clarify:
            return f"I mean the {info.words}. {NAMED.question(info, 0)}"
        return self.phrasing.question(info, self.tools.fields.index(info))


def describe(turn: AgentTurn) -> str:
    """One line for debugging: speech and tool calls."""
    calls = "; ".join(f"{c.name}({json.dumps(c.arguments)})" for c in turn.tool_calls)
    return f"{turn.say} [{calls}]"
