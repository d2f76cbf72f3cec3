"""The role card: what a person taking the caller's seat is told, and when.

A human caller plays the item's user side: their persona and goal, the facts
they hold (when to volunteer each, when to give it), the approvals they give
and the duplex events the item scripts (a correction, a revocation, ...). The
card says all of that in plain words, and each line carries a state so the
page can show what is still to come:

- a fact the caller holds from the start is `known` (say it up front, or
  give it when asked) and `done` once said;
- a fact an event reveals (reveal `on_event`, e.g. a corrected total) and its
  event line are `later` until the event is due (its trigger holds), then
  `now`, then `done` once the caller has acted on it;
- an approval is `known` (give the go-ahead when asked, with its conditions)
  and `done` once granted and not taken back, or once called off for good.

The card is built from the user side only: persona, goal, facts, approvals,
events and their triggers. It never reads the gold, the reference dialogue or
the artifact fields' gold values, and never prints a tool name: a caller must
not learn the expected outcome or the agent's procedure. Given the whole
`WorkflowItem` instead of its `UserSpec`, `role_card` also reads the artifact
field descriptions (examples such as "e.g. CC-100" cut off) and tool
descriptions, which are what the agent is told anyway, for better wording.

A fact is named by a short label, its field's name or its slot's id in words
(`onboarding.legal_name` -> "legal name"), and its line adds, in parentheses,
what its description says beyond the label, addressed to the person (never
"the caller"): "Your reference number (for the existing vendor onboarding
form): R F 9 9 9 8". The card also tells the person how to repeat, spell and
read out digits when the agent asks.

`due_events` is the same trigger test as the simulator's (`trigger_anchor` of
`_policy.py`), over the call's history, so the card says "now" exactly when the
simulated caller would act.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from duplexbench.items import ApprovalSpec, DuplexEvent, Fact, Persona, UserSpec, WorkflowItem
from duplexbench.users._observer.slots import plain_description, slot_words
from duplexbench.users._policy import Seen, trigger_anchor

LineKind = Literal["fact", "event", "approval", "note"]
LineState = Literal["known", "now", "done", "later"]

_WITHDRAWING = ("revocation", "cancellation")
_ACT_WHEN = {
    "ASK": "when the agent asks for your {}",
    "CONFIRM": "when the agent checks your {} with you",
    "CHECK": "when the agent asks whether your {} is right",
    "UNCLEAR": "when the agent is unsure whether you mean your {}",
}
_BARE_ACT_WHEN = {
    "READBACK": "when the agent reads your details back to you",
    "CLOSE": "when the agent wraps up the call",
    "OTHER": "when the agent next speaks",
}
_DONE_WORDS = {
    "correction": "corrected your {}",
    "revocation": "taken back your earlier go-ahead",
    "cancellation": "called off the request",
    "barge_in": "cut in",
    "clarification": "asked your question",
    "backchannel": "shown you are listening",
}
"""What an event leaves done, for an approval's `after` condition."""
_NOTES = (
    (
        "note:unknown",
        "If the agent asks for something that is not on this card, say you don't know.",
    ),
    (
        "note:spell",
        "The agent may ask you to repeat something, to spell a value or to read digits "
        "one at a time: repeat it if asked. If the agent asks you to spell something, "
        "say it letter by letter, with words for letters that sound alike: "
        "'D as in David'. Read numbers and codes one digit at a time if asked "
        "('four, four, seven, one').",
    ),
    ("note:end", "When the agent has finished, say goodbye."),
)
_PARENS = re.compile(r"\s*\([^)]*\)")
_ID = re.compile(r"\bid\b")
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
_CALLERS = re.compile(r"\bthe caller's\s+", re.IGNORECASE)
_CALLER = re.compile(r"\b(?:the )?caller's\b|\bthe caller(?:\s+(\w+))?", re.IGNORECASE)
_FILED_UNDER = re.compile(r"^(.+?) (?:is|are) (?:filed|registered|kept|listed|held) under$")
_WORDS = re.compile(r"[^\W_]+")
_VERB_FOR_YOU = {"is": "are", "was": "were", "has": "have", "does": "do"}
_CLAUSE_WORDS = (
    "the a an this that these those its their his her our your you it they we he she "
    "someone people where when which who whose"
)
_CLAUSE_STARTS = frozenset(_CLAUSE_WORDS.split())
"""Words that open a relative clause with its own subject ("... the account is on")."""
_PHRASE_WORDS = (
    "of for on in to with at from by about under over into per applied included used "
    "assigned given offered charged sent made taken listed held stuck kept"
)
_PHRASE_STARTS = frozenset(_PHRASE_WORDS.split())
"""Words that open a phrase that can stand alone as context ("of the building")."""
_FILLER_WORDS = "the a an of for in on to your and or with at by"
_FILLER = frozenset(_FILLER_WORDS.split())
"""Words that add nothing to a label ("date of the expense" is the expense date)."""


@dataclass(frozen=True)
class CardLine:
    """One instruction to the human caller."""

    id: str
    """`fact:<fact_id>`, `event:<event_id>`, `approval:<approval_id>` or `note:<name>`."""
    kind: LineKind
    text: str
    state: LineState


@dataclass(frozen=True)
class RoleCard:
    persona: Persona
    goal: str
    lines: tuple[CardLine, ...]

    def to_message(self) -> dict[str, object]:
        """The card as the caller's page receives it (JSON-ready)."""
        persona = self.persona
        return {
            "type": "card",
            "persona": {
                "name": persona.name,
                "verbosity": persona.verbosity,
                "behavior": persona.behavior,
            },
            "goal": self.goal,
            "lines": [
                {"id": ln.id, "kind": ln.kind, "text": ln.text, "state": ln.state}
                for ln in self.lines
            ],
        }


@dataclass(frozen=True)
class CardProgress:
    """What has happened so far, for the lines' states."""

    revealed: frozenset[str] = frozenset()
    """Fact ids the caller has said."""
    fired: frozenset[str] = frozenset()
    """Event ids the caller has acted on."""
    due: frozenset[str] = frozenset()
    """Event ids whose trigger holds but the caller has not acted on yet."""
    granted: frozenset[str] = frozenset()
    revoked: frozenset[str] = frozenset()


@dataclass(frozen=True)
class CallHistory:
    """The call so far, as event triggers read it."""

    t_ms: int
    acts: tuple[str, ...] = ()
    """Agent acts heard so far (`ASK:total_amount`, `REQUEST_APPROVAL:submit_expense`, ...)."""
    tools: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()
    """`artifact.field` written by the agent."""
    said_plans: tuple[str, ...] = ()
    """Plan ids the caller's utterances were read as."""
    granted: tuple[str, ...] = ()
    fired: tuple[str, ...] = ()


def event_anchors(user: UserSpec, history: CallHistory) -> dict[str, str]:
    """Event id -> the anchor of its trigger, for each event not yet fired whose trigger
    holds (the simulator's test; an approval request counts whether or not the agent
    read back the key values first: the person judges that)."""
    seen = Seen(
        history.t_ms,
        acts=frozenset(history.acts),
        tools=frozenset(history.tools),
        fields=frozenset(history.fields),
        said=frozenset(history.said_plans),
        granted=frozenset(history.granted),
    )
    anchors: dict[str, str] = {}
    for event in user.events:
        anchor = None if event.id in history.fired else trigger_anchor(event, seen)
        if anchor is not None:
            anchors[event.id] = anchor
    return anchors


def due_events(user: UserSpec, history: CallHistory) -> list[str]:
    """Ids of the events whose trigger holds and that have not fired, in item order."""
    return list(event_anchors(user, history))


def _lower_first(text: str) -> str:
    """ "Employee ID" -> "employee ID"; an acronym ("PPO plan") keeps its capitals."""
    if len(text) > 1 and text[:2].isupper():
        return text
    return text[:1].lower() + text[1:]


def _named(ref: str) -> str:
    """A slot or field id in words: "employee_id" -> "employee ID"."""
    return _ID.sub("ID", slot_words(ref))


def _clause(description: str) -> str:
    """A tool description as a clause: remarks in parentheses and the final stop dropped."""
    return _lower_first(_PARENS.sub("", description).strip().rstrip("."))


def _for_you(verb: str) -> str:
    """A verb after "the caller" as it goes after "you": "gives" -> "give"."""
    low = verb.casefold()
    if low in _VERB_FOR_YOU:
        return _VERB_FOR_YOU[low]
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if low.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return verb[:-2]
    if low.endswith("s") and not low.endswith(("ss", "us", "is")) and len(low) > 3:
        return verb[:-1]
    return verb


def _addressed(text: str) -> str:
    """A description said to the person: "the caller's existing memo" -> "the existing
    memo", "the order the caller gives them" -> "the order you give them"."""
    text = _CALLERS.sub("the ", text)

    def replace(match: re.Match[str]) -> str:
        if match.group(0).casefold().endswith("caller's"):
            return "your"
        verb = match.group(1)
        return "you" if verb is None else f"you {_for_you(verb)}"

    return _CALLER.sub(replace, text)


def _adds_to(label: str, text: str) -> bool:
    """Whether ``text`` says more than ``label``: a word that is neither the label's nor
    filler ("date of the expense" adds nothing to "expense date")."""
    known = {w.casefold() for w in _WORDS.findall(label)} | _FILLER
    return any(w.casefold() not in known for w in _WORDS.findall(text))


def _after_label(label: str, text: str) -> str | None:
    """What ``text`` says after naming ``label`` (up to two words may come before it:
    "full legal name the vendor company is registered under" -> "the vendor company is
    registered under"), or None when it does not start by naming it."""
    words, named = text.split(), label.casefold().split()
    for skip in range(3):
        head = [w.casefold() for w in words[skip : skip + len(named)]]
        if head == named and len(words) > skip + len(named):
            return " ".join(words[skip + len(named) :])
    return None


def _context(label: str, description: str) -> str:
    """The description as the context shown after a fact's label, "" when it adds
    nothing: "reference number the existing memo is filed under" -> "for the existing
    memo", "service plan the account is on" -> "the one the account is on", "total floor
    area of the building" -> "of the building"; else the description itself."""
    text = _ARTICLE.sub("", _addressed(_PARENS.sub("", description)).strip().rstrip(".,;"))
    if not text or not _adds_to(label, text):
        return ""
    rest = _after_label(label, text)
    if rest is None:
        return _lower_first(text)
    if (filed := _FILED_UNDER.match(rest)) is not None:
        return f"for {filed.group(1)}"
    first = rest.split()[0].casefold()
    if first in _CLAUSE_STARTS:
        return f"the one {rest}"
    return rest if first in _PHRASE_STARTS else _lower_first(text)


class _Words:
    """How the card names facts, slots, actions, tools and fields."""

    def __init__(self, user: UserSpec, item: WorkflowItem | None) -> None:
        self.user = user
        self.item = item

    def field(self, ref: str) -> str:
        """A field by its name in words: "expense.cost_center" -> "cost center"."""
        return _named(ref)

    def field_description(self, ref: str) -> str:
        """The field's description without its example ("" when the item has none)."""
        artifact_id, _, name = ref.partition(".")
        if not name and self.item is not None:  # a bare field name: search every artifact
            found = [a.field(ref) for a in self.item.artifacts]
            spec = next((f for f in found if f is not None), None)
        else:
            artifact = self.item.artifact(artifact_id) if self.item is not None else None
            spec = artifact.field(name) if artifact is not None else None
        return plain_description(spec.description) if spec is not None else ""

    def _versions(self, fact_id: str) -> tuple[Fact | None, Fact | None]:
        return self.user.fact(fact_id), self.user.fact(self.user.slot_of(fact_id))

    def fact(self, fact_id: str) -> str:
        """A fact (any version) by a short label: its field's name in words, else its
        slot's id in words ("reference_number" -> "reference number")."""
        for candidate in self._versions(fact_id):
            if candidate is not None and candidate.field:
                return self.field(candidate.field)
        return _named(self.user.slot_of(fact_id))

    def context(self, fact_id: str) -> str:
        """What the fact's description (its slot's, else its field's) adds to its label,
        addressed to the person ("" when nothing)."""
        versions = self._versions(fact_id)
        described = next((c.description for c in versions if c and c.description), "")
        if not described:
            linked = next((c.field for c in versions if c and c.field), None)
            described = self.field_description(linked) if linked else ""
        return _context(self.fact(fact_id), plain_description(described))

    def slot(self, ref: str) -> str:
        return self.fact(ref) if self.user.fact(ref) is not None else self.field(ref)

    def action(self, action: str) -> str:
        spec = next((a for a in self.user.approvals if a.action == action), None)
        return spec.aliases[0] if spec is not None and spec.aliases else slot_words(action)

    def approval(self, approval_id: str) -> str:
        spec = next((a for a in self.user.approvals if a.id == approval_id), None)
        return self.action(spec.action) if spec is not None else slot_words(approval_id)

    def tool(self, name: str) -> str:
        if any(a.action == name for a in self.user.approvals):
            return f"goes ahead and does this: {self.action(name)}"
        tool = self.item.tool(name) if self.item is not None else None
        if tool is not None and tool.description:
            return f"has done this: {_clause(tool.description)}"
        return f"has used its {slot_words(name)} step"

    def act(self, act: str) -> str:
        kind, _, ref = act.partition(":")
        if kind == "REQUEST_APPROVAL":
            return f"when the agent asks for your go-ahead to {self.action(ref)}"
        if kind in _ACT_WHEN and ref:
            return _ACT_WHEN[kind].format(self.slot(ref))
        return _BARE_ACT_WHEN.get(kind, f"when the agent does this: {slot_words(act).lower()}")

    def plan(self, plan_id: str) -> str:
        kind, _, ref = plan_id.partition(":")
        if kind == "answer":
            return f"give your {self.fact(ref)}"
        if kind == "event":
            event = next((e for e in self.user.events if e.id == ref), None)
            return "act on the step before" if event is None else self.done(event)
        if kind in ("approve", "decline"):
            verb = "give your go-ahead" if kind == "approve" else "say no"
            return f"{verb} to {self.approval(ref)}"
        fixed = {"open": "open the call", "confirm": "confirm what the agent read back"}
        return fixed.get(plan_id, "reply")

    def done(self, event: DuplexEvent) -> str:
        """What the caller has done once the event fired (past participle phrase)."""
        first = event.reveals[0] if event.reveals else ""
        return _DONE_WORDS[event.kind].format(self.fact(first) if first else "details")

    def when(self, event: DuplexEvent) -> str:
        trig = event.trigger
        if trig.at_ms is not None:
            return f"about {round(trig.at_ms / 1000)} seconds into the call"
        if trig.act is not None:
            return self.act(trig.act)
        if trig.after_plan is not None:
            return f"right after you {self.plan(trig.after_plan)}"
        if trig.tool is not None:
            return f"after the agent {self.tool(trig.tool)}"
        if trig.field is not None:
            return f"after the agent writes down your {self.field(trig.field)}"
        return f"after you give your go-ahead to {self.approval(trig.approval or '')}"

    def values(self, event: DuplexEvent) -> str:
        """What the event's facts say: "your total is 200 dollars, not 240 dollars"."""
        parts = []
        for fact_id in event.reveals:
            fact = self.user.fact(fact_id)
            if fact is None:
                continue
            old = self.user.fact(fact.supersedes) if fact.supersedes else None
            was = f", not {old.spoken}" if old is not None else ""
            parts.append(f"your {self.fact(fact_id)} is {fact.spoken}{was}")
        return "; ".join(parts)

    def action_of(self, event: DuplexEvent) -> str:
        """The event's instruction as an infinitive phrase."""
        values = self.values(event)
        told = f", and say {values}" if values else ""
        if event.kind == "correction":
            return f"correct it: {values}" if values else "correct what you said"
        if event.kind == "revocation":
            approval = self.approval(event.revokes) if event.revokes else "go ahead"
            return f"take back your go-ahead to {approval}: tell the agent to stop{told}"
        if event.kind == "cancellation":
            approval = self.approval(event.revokes) if event.revokes else "go ahead"
            return f"call off {approval} for good: tell the agent to cancel it{told}"
        if event.kind == "clarification":
            return f"ask the agent what they mean or why they need it{told}"
        return f'cut in (for example "sorry, one moment"){told}'


def _event_text(words: _Words, event: DuplexEvent, state: LineState) -> str:
    if event.kind == "backchannel":
        how = 'while the agent keeps talking, make a short listening sound such as "mm-hm"'
        text = f"{how} (do not take the turn)"
    else:
        how = (
            "interrupt the agent to "
            if event.delivery == "barge_in"
            else "wait until the agent finishes speaking, then "
        )
        text = how + words.action_of(event)
    if state == "now":
        return f"Now {text}."
    when = words.when(event)
    return f"{when[:1].upper()}{when[1:]}, {text}."


def _fact_line(words: _Words, fact: Fact, progress: CardProgress) -> CardLine:
    event = next((e for e in words.user.events if fact.id in e.reveals), None)
    name = words.fact(fact.id)
    state: LineState = "done" if fact.id in progress.revealed else "known"
    if fact.reveal == "on_event":
        old = words.user.fact(fact.supersedes) if fact.supersedes else None
        was = f" (not {old.spoken})" if old is not None else ""
        text = f"Later: your {name} is really {fact.spoken}{was}. Keep it until the step below."
        if state != "done":
            acting = event is not None and (event.id in progress.due or event.id in progress.fired)
            state = "now" if acting else "later"
            if acting:
                text = f"Now tell the agent: your {name} is {fact.spoken}{was}."
    else:
        context = words.context(fact.id)
        label = f"{name} ({context})" if context else name
        when = (
            "say it up front, when you say why you are calling"
            if fact.reveal == "volunteer"
            else "give it when the agent asks"
        )
        text = f"Your {label}: {fact.spoken} ({when})"
    return CardLine(f"fact:{fact.id}", "fact", text, state)


def _event_line(words: _Words, event: DuplexEvent, progress: CardProgress) -> CardLine:
    withdrawn = event.kind in _WITHDRAWING and event.revokes in progress.revoked
    state: LineState = "later"
    if event.id in progress.fired or withdrawn:
        state = "done"
    elif event.id in progress.due:
        state = "now"
    return CardLine(f"event:{event.id}", "event", _event_text(words, event, state), state)


def _approval_line(words: _Words, spec: ApprovalSpec, progress: CardProgress) -> CardLine:
    events = {e.id: e for e in words.user.events}
    text = f"Give your go-ahead when the agent asks to {words.action(spec.action)}"
    text += " (once)" if spec.max_grants == 1 else f" (up to {spec.max_grants} times)"
    conditions = [words.done(events[e]) for e in spec.after if e in events]
    if conditions:
        text += f", but only after you have {' and '.join(conditions)}"
    if spec.readback:
        details = " and ".join(f"your {words.fact(s)}" for s in spec.readback)
        text += f", and only once the agent has read back {details}"
    if conditions or spec.readback:
        text += "; if the agent asks before that, say no"
    cancelled = any(
        e.kind == "cancellation" and e.revokes == spec.id and e.id in progress.fired
        for e in words.user.events
    )
    live = spec.id in progress.granted and spec.id not in progress.revoked
    state: LineState = "done" if cancelled or live else "known"
    return CardLine(f"approval:{spec.id}", "approval", f"{text}.", state)


def role_card(source: WorkflowItem | UserSpec, progress: CardProgress | None = None) -> RoleCard:
    """The card for an item's caller at this point of the call (the start when no progress).

    Takes the item's `UserSpec`, or the whole `WorkflowItem` for the artifact fields' and
    tools' descriptions in the wording (never their gold values nor tool names)."""
    item = source if isinstance(source, WorkflowItem) else None
    user = source.user if isinstance(source, WorkflowItem) else source
    words = _Words(user, item)
    now = progress or CardProgress()
    lines = [_fact_line(words, f, now) for f in user.facts]
    lines += [_event_line(words, e, now) for e in user.events]
    lines += [_approval_line(words, a, now) for a in user.approvals]
    lines += [CardLine(line_id, "note", text, "known") for line_id, text in _NOTES]
    return RoleCard(user.persona, user.goal, tuple(lines))
