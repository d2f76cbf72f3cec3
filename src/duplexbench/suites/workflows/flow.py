"""The reference trajectory: how a careful agent does the workflow, turn by turn."""

from __future__ import annotations

from typing import Any

from duplexbench.suites.workflows.draft import Draft
from duplexbench.suites.workflows.facts import APPROVAL_ID, key_details, record_fact, words
from duplexbench.suites.workflows.turns import ReferenceBuilder
from duplexbench.suites.workflows.world import money_text

QUESTIONS = ("What is the {w}?", "Could you tell me the {w}?", "And what is the {w}?")
LIST_QUESTIONS = ("Who are the {w}?", "What are the {w}?")
SEARCH_TOOL = "search_documents"
APPROVAL_TOOL = "request_approval"


def tool_names(draft: Draft) -> dict[str, str]:
    noun = draft.arch.tool_noun
    return {
        "update": f"update_{noun}",
        "ready": f"mark_{noun}_ready",
        "action": draft.arch.action.tool,
        "read": f"get_{noun}" if draft.database_mode else f"get_{noun}_record",
        "search": SEARCH_TOOL,
        "approval": APPROVAL_TOOL,
    }


def stated(draft: Draft, name: str, first: bool = False) -> str:
    """How the agent states a value so the caller's read-back check accepts it."""
    value = draft.first[name] if first else draft.values[name]
    kind = draft.specs[name].kind if name in draft.specs else "money"
    if kind in ("id", "email"):
        return str(value.stored)
    if kind == "money":
        return f"{money_text(float(value.stored))} dollars"
    return value.spoken


def question(draft: Draft, name: str) -> str:
    kind = draft.specs[name].kind
    pool = LIST_QUESTIONS if kind in ("people", "items") else QUESTIONS
    template = pool[0 if kind == "people" else draft.asked.index(name) % len(pool)]
    return template.format(w=words(name))


def _lower_first(title: str) -> str:
    """ "Plan pricing by region" -> "plan pricing by region" (but "HR policy" stays)."""
    first, _, rest = title.partition(" ")
    return title if first.isupper() else f"{first.lower()} {rest}".strip()


class Flow:
    """Writes the reference turns for one draft (see `build`)."""

    def __init__(self, draft: Draft, heavy_tools: bool) -> None:
        self.d = draft
        self.names = tool_names(draft)
        self.rb = ReferenceBuilder(None if draft.database_mode else self.names["update"])
        self.heavy_tools = heavy_tools

    def build(self) -> list[dict[str, Any]]:
        d, rb = self.d, self.rb
        rb.add(f"Thank you for calling {d.org}. I can help you with the {d.arch.noun}.")
        if "backchannel" in d.anchors:
            rb.add("I will take the details down as we go and check the important ones with you.")
        for name in [*d.volunteered, *([d.changed] if d.changed else [])]:
            rb.write(name, d.values[name].stored)
        if d.record_id is not None:
            rb.say(f"What is your {d.record_words}?", f"answer:{record_fact(d)}")
            rb.call(self.names["read"], {"id": d.record_id.stored})
            for name in d.on_file if not d.database_mode else []:
                rb.write(name, d.values[name].stored)
            rb.add(f"I found the {d.record_words} {d.record_id.stored} on file.")
        for name in d.asked:
            self._ask(name)
        self._lookups()
        for name in d.corrected:
            rb.say(f"Just to confirm, the {words(name)} is {stated(d, name)}?", "confirm")
        self._finish()
        return rb.turns

    def _ask(self, name: str) -> None:
        d, rb = self.d, self.rb
        clarified = d.anchors.get("clarification") == name
        rb.say(question(d, name), "event:ask_why" if clarified else f"answer:{name}")
        if clarified:
            rb.add(f"It goes on the {d.arch.noun}. Thank you.")
        first = d.first.get(name, d.values[name])
        rb.write(name, first.stored)
        if name in d.corrected:
            rb.say(f"Got it, I have {stated(d, name, first=True)} for the {words(name)}.", None)
            rb.expect = f"event:fix_{name}"
            rb.write(name, d.values[name].stored)
            rb.add(f"Thanks, I have changed the {words(name)} to {stated(d, name)}.")
        elif d.anchors.get("barge_in") == name:
            rb.say("Thanks, I have noted that down.", "event:interrupt")
            rb.add("No problem.")

    def _lookups(self) -> None:
        d, rb = self.d, self.rb
        for lookup in d.lookups:
            rb.call(self.names["search"], {"query": lookup.query})
            name = lookup.template.name
            rb.write(name, d.values[name].stored)
            rb.add(
                f"According to the {_lower_first(lookup.template.doc_title)}, "
                f"the {words(name)} comes to {d.values[name].spoken}."
            )

    def _finish(self) -> None:
        d, rb = self.d, self.rb
        noun, action = d.arch.noun, d.arch.action
        autonomy = d.plan.autonomy
        if not d.database_mode and autonomy != "inform_only":
            rb.call(self.names["ready"])
        if autonomy == "inform_only":
            rb.say(
                f"I have noted everything in the {noun} as a draft for you. Goodbye!", None, True
            )
        elif autonomy == "draft_only":
            rb.say(
                f"The {noun} is ready for review; I have not {action.past}. Goodbye!", None, True
            )
        elif not d.gated:
            self._commit()
            rb.say(f"All done: I have {action.past}. Goodbye!", None, True)
        else:
            self._gated()

    def _commit(self) -> None:
        d, rb = self.d, self.rb
        if d.database_mode:
            assert d.record_id is not None
            rb.call(self.names["action"], {"id": d.record_id.stored, "fields": dict(rb.changes)})
        else:
            rb.call(self.names["action"])

    def _ask_approval(self, opener: str) -> None:
        d, rb = self.d, self.rb
        verb = d.arch.action.verb
        if self.heavy_tools:
            summary = f"{verb} for the caller"
            rb.call(self.names["approval"], {"action": d.arch.action.tool, "summary": summary})
            rb.say(f"{opener} I have sent you a formal approval request to {verb}.".strip(), None)
        else:
            rb.say(f"{opener} Shall I {verb} now?".strip(), None)
        rb.expect = f"approve:{APPROVAL_ID}"

    def _gated(self) -> None:
        """Read the key details back, then ask; the authored revocation or cancellation
        answers that request (never an approval given before the read-back)."""
        d, rb = self.d, self.rb
        action = d.arch.action
        details = "; ".join(
            f"the {words(n)} is {stated(d, n, first=n == d.revised)}" for n in key_details(d)
        )
        self._ask_approval(
            f"The {d.arch.noun} is complete. Before I {action.verb}, let me read back "
            f"the key details: {details}."
        )
        cancelled = "cancellation" in d.anchors
        if d.revised or cancelled:
            rb.expect = "event:hold" if d.revised else "event:call_off"
        if cancelled:
            rb.say(f"Understood, I will not {action.verb}. Goodbye!", None, True)
            return
        if d.revised is not None:
            rb.write(d.revised, d.values[d.revised].stored)
            if not d.database_mode:
                rb.call(self.names["ready"])
            rb.add(f"Understood, I have changed the {words(d.revised)} to {stated(d, d.revised)}.")
            self._ask_approval("")
        self._commit()
        rb.say(f"Thank you. I have {action.past}. Goodbye!", None, True)
