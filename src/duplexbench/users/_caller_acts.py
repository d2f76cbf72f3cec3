"""Reading a human caller: a transcript of their words as the simulator's plans.

When a person takes the caller's seat, their utterances must leave the same
trace as the simulated caller's: facts revealed (with the rule and cause that
allowed them), duplex events fired, approvals granted and revoked. The
`CallerReader` turns one ASR transcript, with what the caller had heard, into
`Plan`s whose effects the episode applies exactly as for the simulator. It is
deterministic and local (no network, no model): a fixed phrase lexicon (the
constants below) matched on whole words of a normalised transcript (lower
case, punctuation and apostrophes dropped), because an ASR transcript has no
punctuation or casing guarantees, and the caller's values spotted with the
`values` package (`_spoken.py`).

Rules, in the order they apply:

- **Opening.** The first utterance of the call is an `open` plan revealing the
  `volunteer` facts it mentions (the simulator's opening carries them too).
- **Withdrawal.** A stop or cancel phrase ("stop", "cancel that", "don't
  submit", "I changed my mind") fires a revocation or cancellation event whose
  approval is granted or whose trigger holds; while the event is due a plain
  "no" does too (the card told the caller to call it off right then, and a
  "no" to the request is that). Like the simulator's, it ends the turn for
  approvals: no approval, decline or confirmation follows in the same
  utterance.
- **Facts.** A fact (any version) whose value the transcript states is
  revealed by `answer:<fact>`. A version an event reveals (a correction)
  fires that event instead (`event:<event>`, with its act, anchor and
  revocation) when the event is due or the version supersedes a value already
  said; saying an old value again is only a repeat. After the agent confirmed
  or read back, a current value said with a "no" is a `fix:<fact>` correction.
  A correction, like an event, means no approval in the same turn.
- **Other events.** A due clarification fires on a question ("why", "what do
  you mean"), a due backchannel on a listening token ("mm-hm", "okay"), and a
  due barge-in on the caller's next words, whatever they are: the card told
  them to cut in right then.
- **Approvals.** Only after the agent asked (`REQUEST_APPROVAL:<action>` heard
  since the caller's last turn): a negative ("no", "don't", "not yet",
  "wait") declines; an affirmative ("yes", "go ahead", "submit it") approves,
  within `max_grants` and once the `after` events fired (else no approval
  plan), as the simulator does; an approval still in force is a `confirm`.
- **Confirmation.** An affirmative after `CONFIRM:`/`READBACK` with no
  approval request pending is `confirm`.
- **Ending.** "bye", "goodbye", "that's all" (at the end) is `end`.
- Anything else is a `say` plan with act `other` and no effects, so every
  utterance is logged with what it was read as.

Reveals record why they were allowed: `opening`, `ASK:<slot>` when the agent
asked for it, `readback` after a confirmation, the event id, `unprompted` when
the caller offered it unasked, `repeat` when already said (not logged again).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from duplexbench.items import ApprovalSpec, DuplexEvent, Fact, UserSpec
from duplexbench.users._policy import EVENT_ACTS, Plan, Reveal
from duplexbench.users._role_card import CallHistory, event_anchors
from duplexbench.users._spoken import Spoken, hear, phrases

AFFIRMATIVE = phrases(
    "yes|yeah|yep|yup|sure|okay|ok|alright|all right|go ahead|please do|do it|submit it|"
    "that's fine|fine|correct|right|that's right|absolutely|of course|sounds good|approved|"
    "i approve|proceed|please proceed|go for it|perfect|confirmed|you may|you can|no problem|"
    "no worries|i don't mind|why not"
)
"""Agreement; an approval's own aliases ("place the order") count for that approval too."""
NOT_NEGATIVE = phrases("no problem|no worries|i don't mind|why not|not a problem")
"""Agreement phrases with a negative word in them, blanked before negatives are sought."""
NEGATIVE = phrases(
    "no|nope|nah|don't|do not|not yet|not now|wait|hold on|hold off|stop|cancel|never mind|"
    "rather not|wrong|incorrect|that's not right"
)
WITHDRAW = phrases(
    "stop|cancel|cancel that|cancel it|hold on|hold off|wait don't|take it back|take that back|"
    "take back|changed my mind|change my mind|scratch that|call it off|call off|undo|"
    "don't do it|don't go ahead|do not go ahead"
)
"""Taking back a go-ahead; "don't <verb>" of the approval's action counts too."""
CLARIFY = phrases(
    "why|what do you mean|what does that mean|what for|how come|can you explain|"
    "what is that|what's that|sorry what|pardon"
)
BACKCHANNEL = phrases("mm|mhm|mm hm|mmhmm|uh huh|hmm|okay|ok|yeah|right|i see|got it|sure")
"""A listening token: the whole utterance is made of these."""
END_ANYWHERE = phrases("bye|goodbye|good bye|bye bye|take care|have a good day|have a nice day")
END_AT_END = phrases("that's all|that's everything|that's all i need|nothing else")
"""Ending only when they close the utterance ("that's all correct" is no goodbye)."""

_WITHDRAWING = ("revocation", "cancellation")


@dataclass(frozen=True)
class Heard:
    """What the caller had heard and done when they spoke."""

    t_ms: int
    agent_acts: tuple[str, ...]
    """Acts in the agent's speech since the caller's previous turn."""
    history: CallHistory


@dataclass(frozen=True)
class _Turn:
    """One utterance in context: its words, what it states, what is due."""

    words: Spoken
    heard: Heard
    stated: tuple[Fact, ...]
    anchors: dict[str, str]
    revealed: frozenset[str]

    def has(self, lexicon: tuple[str, ...]) -> bool:
        return self.words.has(lexicon)

    def negative(self) -> bool:
        return self.words.has(NEGATIVE, unless=NOT_NEGATIVE)

    def acts(self, kind: str) -> list[str]:
        return [a.partition(":")[2] for a in self.heard.agent_acts if a.partition(":")[0] == kind]


class CallerReader:
    """Reads a human caller's utterances as plans, one call at a time (it remembers the
    facts it has read as said, which plan ids alone cannot tell for an opening)."""

    def __init__(self, user: UserSpec) -> None:
        self.user = user
        self._revealed: set[str] = set()
        self._turns = 0

    def read(self, transcript: str, heard: Heard) -> list[Plan]:
        """The plans one utterance is read as (at least one)."""
        history = replace(
            heard.history,
            t_ms=heard.t_ms,
            acts=tuple(dict.fromkeys((*heard.history.acts, *heard.agent_acts))),
        )
        said = {
            p.partition(":")[2] for p in history.said_plans if p.startswith(("answer:", "fix:"))
        }
        words = hear(transcript)
        turn = _Turn(
            words,
            heard,
            tuple(f for f in self.user.facts if words.states(f)),
            event_anchors(self.user, history),
            frozenset(self._revealed | said),
        )
        plans: list[Plan] = []
        if not history.said_plans and self._turns == 0:
            plans.append(self._opening(turn))
        plans += self._events(turn)
        plans += self._facts(turn, plans)
        blocked = any(p.event is not None or p.act == "correct" for p in plans)
        if not blocked:
            plans += self._approvals(turn)
        if turn.has(END_ANYWHERE) or turn.words.ends_with(END_AT_END):
            plans.append(Plan("end", "end"))
        plans = list({p.plan_id: p for p in plans}.values()) or [Plan("say", "other")]
        self._turns += 1
        self._revealed.update(r.fact for p in plans for r in p.reveals)
        return plans

    # ------------------------------------------------------------ reveals

    def _reveal(self, fact: Fact, because: str, turn: _Turn) -> Reveal:
        seen = fact.id in turn.revealed
        return Reveal(
            fact.id, self.user.slot_of(fact.id), fact.reveal, "repeat" if seen else because
        )

    def _because(self, fact: Fact, turn: _Turn) -> str:
        slot = self.user.slot_of(fact.id)
        event = self._event_of(fact)
        if event is not None and event.id in turn.heard.history.fired:
            return event.id
        if slot in turn.acts("ASK"):
            return f"ASK:{slot}"
        return "readback" if slot in turn.acts("CONFIRM") or turn.acts("READBACK") else "unprompted"

    def _event_of(self, fact: Fact) -> DuplexEvent | None:
        return next((e for e in self.user.events if fact.id in e.reveals), None)

    def _opening(self, turn: _Turn) -> Plan:
        facts = [f for f in turn.stated if f.reveal == "volunteer"]
        reveals = tuple(self._reveal(f, "opening", turn) for f in facts)
        return Plan("open", "open", tuple(f.id for f in facts), reveals)

    def _event_plan(self, event: DuplexEvent, turn: _Turn) -> Plan:
        facts = [f for f in turn.stated if f.id in event.reveals]
        return Plan(
            f"event:{event.id}",
            EVENT_ACTS[event.kind],
            tuple(f.id for f in facts),
            tuple(self._reveal(f, event.id, turn) for f in facts),
            event=event,
            anchor=turn.anchors.get(event.id, "caller"),
            revokes=event.revokes,
        )

    # ------------------------------------------------------------ rules

    def _events(self, turn: _Turn) -> list[Plan]:
        """Withdrawals, and the due events a phrase (or any words: a barge-in) fires."""
        fired = set(turn.heard.history.fired)
        out: list[Plan] = []
        for event in self.user.events:
            if event.id in fired:
                continue
            due = event.id in turn.anchors
            if event.kind in _WITHDRAWING and event.revokes is not None:
                granted = event.revokes in turn.heard.history.granted
                said = self._withdraws(event.revokes, turn) or (due and turn.negative())
                if (granted or due) and said:
                    out.append(self._event_plan(event, turn))
                    break
            elif due and self._fires(event, turn):
                out.append(self._event_plan(event, turn))
        return out

    def _withdraws(self, approval_id: str, turn: _Turn) -> bool:
        spec = next((a for a in self.user.approvals if a.id == approval_id), None)
        verbs = {w.split()[0] for w in (spec.aliases if spec else [])}
        verbs |= {spec.action.split("_")[0]} if spec else set()
        named = phrases("|".join(f"don't {v}|do not {v}" for v in sorted(verbs)))
        return turn.has(WITHDRAW) or turn.has(named)

    @staticmethod
    def _fires(event: DuplexEvent, turn: _Turn) -> bool:
        if event.kind == "clarification":
            return turn.has(CLARIFY)
        if event.kind == "backchannel":
            return turn.words.only(BACKCHANNEL)
        return event.kind == "barge_in"

    def _facts(self, turn: _Turn, plans: list[Plan]) -> list[Plan]:
        """Answers, corrections and fixes for the values the transcript states."""
        taken = {self.user.slot_of(f) for p in plans for f in p.facts}  # "12, not 10": one
        slots: dict[str, list[Fact]] = {}
        for fact in turn.stated:
            if (slot := self.user.slot_of(fact.id)) not in taken:
                slots.setdefault(slot, []).append(fact)
        fired = set(turn.heard.history.fired)
        out: list[Plan] = []
        for slot, facts in slots.items():
            fresh = [f for f in facts if f.id not in turn.revealed]
            fact = fresh[-1] if fresh else facts[-1]
            event = self._event_of(fact)
            superseding = any(v.id in turn.revealed for v in self.user.versions(slot))
            pending = event is not None and event.id not in fired and fact.id not in turn.revealed
            if event is not None and pending and (event.id in turn.anchors or superseding):
                out.append(self._event_plan(event, turn))
                continue
            confirmed = slot in turn.acts("CONFIRM") or bool(turn.acts("READBACK"))
            if fact.id in turn.revealed and confirmed and turn.negative():
                reveal = self._reveal(fact, "readback", turn)
                out.append(Plan(f"fix:{fact.id}", "correct", (fact.id,), (reveal,)))
                continue
            reveal = self._reveal(fact, self._because(fact, turn), turn)
            out.append(Plan(f"answer:{fact.id}", "answer", (fact.id,), (reveal,)))
        return out

    def _approvals(self, turn: _Turn) -> list[Plan]:
        """Approve, decline or confirm, only in answer to what the agent just asked."""
        requests = list(dict.fromkeys(turn.acts("REQUEST_APPROVAL")))
        specs = [s for a in requests for s in self.user.approvals if s.action == a]
        negative = turn.negative()
        if specs and negative:
            return [Plan(f"decline:{s.id}", "decline") for s in specs]
        agreed = [
            s for s in specs if turn.has(AFFIRMATIVE) or turn.has(phrases("|".join(s.aliases)))
        ]
        if requests:
            return [plan for s in agreed if (plan := self._approve(s, turn)) is not None]
        confirming = turn.acts("CONFIRM") or turn.acts("READBACK")
        if confirming and turn.has(AFFIRMATIVE) and not negative:
            return [Plan("confirm", "confirm")]
        return []

    def _approve(self, spec: ApprovalSpec, turn: _Turn) -> Plan | None:
        history = turn.heard.history
        if spec.id in history.granted:
            return Plan("confirm", "confirm")  # still in force: the simulator confirms too
        cancelled = any(
            e.kind == "cancellation" and e.revokes == spec.id and e.id in history.fired
            for e in self.user.events
        )
        grants = history.said_plans.count(f"approve:{spec.id}")
        ready = all(e in history.fired for e in spec.after) and not cancelled
        if not ready or grants >= spec.max_grants:
            return None
        return Plan(f"approve:{spec.id}", "approve", approval=spec)
