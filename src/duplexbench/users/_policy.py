"""The user policy (flow engine): reacts to observed agent acts with semantic plans.

Independent of the channel: it sees acts, tool calls, the sentences heard and
media time, and returns plans that carry only facts their reveal rule allows.
Every reveal is recorded with the rule and the cause that allowed it.

Turn rules (docs/simulator.md):

- Authored events fire first. A revocation or cancellation ends the turn:
  nothing follows it, above all no approval; after a revocation a new
  approval needs a new request in a later agent turn, after a cancellation
  the user declines the action for good.
- Asked for several facts at once, the user gives at most `max_answers`
  (persona-dependent) and says which are left.
- Unsure which of two slots the agent means (`UNCLEAR`), the user asks.
- A confirmation without a value (`CHECK`) gets "what do you have?".
- A wrong value read back gets a correction; a correction, like an event,
  means no approval in the same turn.
- An approval whose item lists key slots (`approvals[].readback`) is given
  only once the agent has read back their current values; otherwise the user
  asks for the read-back. The approval records what was read back.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from duplexbench.items import DuplexEvent, Fact, WorkflowItem
from duplexbench.users._observer import ActObserver
from duplexbench.users._observer.repairs import is_repair
from duplexbench.users._plan import Plan, Reveal
from duplexbench.users._readback import ReadbackChecker
from duplexbench.users._repairs import REPAIR_PLAN_ACTS, RepairDesk, RepairTraits

__all__ = ["EVENT_ACTS", "Observation", "Plan", "Reveal", "Seen", "UserPolicy", "trigger_anchor"]

IDLE_NUDGES = 2
"""Silent agent turns the user nudges before hanging up (`agent_idle`)."""
MAX_ANSWERS = 2
"""Facts a caller gives in one turn when asked for several (terse callers: 1)."""

EVENT_ACTS = {
    "correction": "correct",
    "barge_in": "barge_in",
    "revocation": "revoke",
    "cancellation": "cancel",
    "clarification": "clarify",
    "backchannel": "backchannel",
}
_WITHDRAWING = ("revocation", "cancellation")


@dataclass(frozen=True)
class Seen:
    """What an event trigger is checked against: media time, the agent's acts, tool calls
    and fields written, the plans the user finished saying and the approvals granted."""

    t_ms: int
    acts: Collection[str] = ()
    tools: Collection[str] = ()
    fields: Collection[str] = ()
    said: Collection[str] = ()
    granted: Collection[str] = ()


def trigger_anchor(
    event: DuplexEvent, seen: Seen, answerable: Callable[[str], bool] | None = None
) -> str | None:
    """The anchor (`at_ms:5000`, `act:ASK:total`, ...) of an event whose trigger holds, else
    None. One function for the simulator and the human caller's card, so the two agree;
    `answerable` may hold back an act anchor (the simulator: a request it would answer)."""
    trig = event.trigger
    if trig.at_ms is not None and seen.t_ms >= trig.at_ms:
        return f"at_ms:{trig.at_ms}"
    if (
        trig.act is not None
        and trig.act in seen.acts
        and (answerable is None or answerable(trig.act))
    ):
        return f"act:{trig.act}"
    if trig.tool is not None and trig.tool in seen.tools:
        return f"tool:{trig.tool}"
    if trig.field is not None and trig.field in seen.fields:
        return f"field:{trig.field}"
    if trig.after_plan is not None and trig.after_plan in seen.said:
        return f"after_plan:{trig.after_plan}"
    if trig.approval is not None and trig.approval in seen.granted:
        return f"approval:{trig.approval}"
    return None


@dataclass(frozen=True)
class Observation:
    """What the user noticed during the agent's last turn: acts, tool calls and the
    artifact fields written (`artifact.field`)."""

    t_ms: int
    acts: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()
    agent_spoke: bool = False
    heard: tuple[str, ...] = ()
    """Agent sentences heard since the user's last turn (to check read-back values)."""


@dataclass
class _State:
    revealed: dict[str, Reveal] = field(default_factory=dict)
    fired: set[str] = field(default_factory=set)
    finished: set[str] = field(default_factory=set)
    grants: dict[str, int] = field(default_factory=dict)
    live: set[str] = field(default_factory=set)
    cancelled: set[str] = field(default_factory=set)
    """Approvals a cancellation withdrew for good."""
    idle: int = 0
    ended: bool = False
    end_reason: str = ""


class UserPolicy:
    def __init__(
        self,
        item: WorkflowItem,
        observer: ActObserver | None = None,
        max_answers: int = MAX_ANSWERS,
        repairs: RepairTraits | None = None,
    ) -> None:
        self.item = item
        self.user = item.user
        self.s = _State()
        self.readback = ReadbackChecker(observer or ActObserver(item))
        self.max_answers = max(1, max_answers)
        self.repairs = RepairDesk(
            self.user, self._plan, self._current_version, self._has_said, repairs
        )

    def fit_caller(self, max_answers: int, repairs: RepairTraits) -> None:
        """Take on an audio caller's persona: facts per turn and repair behaviour."""
        self.max_answers = max(1, max_answers)
        self.repairs.traits = repairs

    @property
    def rate(self) -> float:
        """The caller's speech rate now, a factor of its persona's speed."""
        return self.repairs.rate

    @property
    def ended(self) -> bool:
        return self.s.ended

    @property
    def end_reason(self) -> str:
        return self.s.end_reason

    def revealed(self) -> dict[str, Reveal]:
        return dict(self.s.revealed)

    # ------------------------------------------------------------ reveals

    def _reveal(self, fact: Fact, because: str) -> Reveal:
        reveal = Reveal(fact.id, self.user.slot_of(fact.id), fact.reveal, because)
        new = fact.id not in self.s.revealed
        self.s.revealed.setdefault(fact.id, reveal)
        return reveal if new else Reveal(fact.id, reveal.slot, fact.reveal, "repeat")

    def _current_version(self, slot: str) -> Fact | None:
        """The version of a slot the user may say now (latest revealed, else the first)."""
        versions = self.user.versions(slot)
        revealed = [f for f in versions if f.id in self.s.revealed]
        if revealed:
            return revealed[-1]
        first = versions[0] if versions else None
        return first if first is not None and first.reveal != "on_event" else None

    def _has_said(self, slot: str) -> bool:
        return any(f.id in self.s.revealed for f in self.user.versions(slot))

    def _said(self) -> dict[str, Fact]:
        """Slot -> the current version of every fact the user has said."""
        current: dict[str, Fact] = {}
        for fact_id in self.s.revealed:
            slot = self.user.slot_of(fact_id)
            version = self._current_version(slot)
            if version is not None:
                current[slot] = version
        return current

    # ------------------------------------------------------------ plans

    def _plan(self, plan_id: str, act: str, facts: list[Fact], because: str, **kw: object) -> Plan:
        reveals = tuple(self._reveal(f, because) for f in facts)
        kw.setdefault("speed", self.repairs.rate)
        return Plan(plan_id, act, tuple(f.id for f in facts), reveals, **kw)  # type: ignore[arg-type]  # kw: Plan's optional fields

    def opening(self) -> list[Plan]:
        volunteered = [f for f in self.user.facts if f.reveal == "volunteer"]
        return [self._plan("open", "open", volunteered, "opening")]

    def react(self, obs: Observation) -> list[Plan]:
        """Plans for the user's next turn, given what the agent just did."""
        if self.s.ended:
            return []
        self.readback.hear(list(obs.heard), self._said())
        plans = self._fire_events(obs)
        if not any(p.event is not None and p.event.kind in _WITHDRAWING for p in plans):
            only = bool(obs.acts) and all(is_repair(a) for a in obs.acts) and not obs.tools
            plans += self.repairs.answer(obs.acts, only, plans)
            if self.repairs.gave_up:
                self.s.ended, self.s.end_reason = True, "user_ended"
                return plans
            plans += self._answer_acts(obs, plans)
        if not plans:
            plans = self._fill(obs)
        if any(p.act in {"answer", "approve", *REPAIR_PLAN_ACTS} for p in plans):
            self.s.idle = 0
        self.repairs.remember(plans)
        return plans

    def _answer_acts(self, obs: Observation, plans: list[Plan]) -> list[Plan]:
        acts = list(dict.fromkeys(obs.acts))
        out: list[Plan] = []
        asked = [a.partition(":")[2] for a in acts if a.startswith("ASK:")]
        out += self._answers(asked)
        unclear = [a.partition(":")[2] for a in acts if a.startswith("UNCLEAR:")]
        if len(unclear) >= 2 and not asked:
            out.append(self._plan("which_slot", "clarify", [], "UNCLEAR", slots=tuple(unclear[:2])))
        for act in acts:
            kind, _, ref = act.partition(":")
            if kind in ("CONFIRM", "READBACK"):
                if any(p.event is not None or p.act in ("confirm", "correct") for p in plans + out):
                    continue  # one confirmation per turn; a correction or event replaces it
                confirmed = tuple(a.partition(":")[2] for a in acts if a.startswith("CONFIRM:"))
                out += self._fixes(obs, confirmed) or [self._plan("confirm", "confirm", [], act)]
            elif kind == "CHECK" and not any(p.act == "what_value" for p in out):
                out.append(self._plan("what_value", "what_value", [], act, slots=(ref,)))
            elif kind == "CLOSE":
                self.s.ended, self.s.end_reason = True, "user_ended"
                out.append(self._plan("end", "end", [], act))
                break
        requests = [a.partition(":")[2] for a in acts if a.startswith("REQUEST_APPROVAL:")]
        corrected = any(p.event is not None or p.act == "correct" for p in plans + out)
        if requests and not corrected and not self.s.ended:
            out += [self._approval(action) for action in dict.fromkeys(requests)]
        if any(p.act == "ask_readback" for p in out):  # not "yes, that's right" to a read-back
            out = [p for p in out if p.act != "confirm"]  # that missed what the user needs
        return out

    def _answers(self, asked: list[str]) -> list[Plan]:
        """Answer up to `max_answers` asked slots; an unknown one once; name the rest."""
        out: list[Plan] = []
        left: list[str] = []
        unknown = False
        for slot in dict.fromkeys(asked):
            fact = self._current_version(slot)
            if fact is None:
                if not unknown:
                    out.append(self._plan("unknown", "unknown", [], f"ASK:{slot}"))
                    unknown = True
            elif sum(p.act == "answer" for p in out) < self.max_answers:
                out.append(self._plan(f"answer:{fact.id}", "answer", [fact], f"ASK:{slot}"))
            else:
                left.append(slot)
        if left:
            out.append(self._plan("more_later", "more_later", [], "ASK", slots=tuple(left)))
        return out

    def _fill(self, obs: Observation) -> list[Plan]:
        if obs.agent_spoke or obs.tools:
            self.s.idle = 0
            return [self._plan("ack", "ack", [], "")]
        self.s.idle += 1
        if self.s.idle > IDLE_NUDGES:
            self.s.ended, self.s.end_reason = True, "agent_idle"
            return [self._plan("end", "end", [], "")]
        return [self._plan("nudge", "nudge", [], "")]

    def _triggered(self, event: DuplexEvent, obs: Observation) -> str | None:
        seen = Seen(
            obs.t_ms,
            acts=obs.acts,
            tools=obs.tools,
            fields=obs.fields,
            said=frozenset(self.s.finished),
            granted=frozenset(a for a, n in self.s.grants.items() if n > 0),
        )
        return trigger_anchor(event, seen, self._request_answerable)

    def _request_answerable(self, act: str) -> bool:
        """An event anchored to an approval request fires only on a request the user
        would answer: the read-back the item requires has been given."""
        kind, _, action = act.partition(":")
        if kind != "REQUEST_APPROVAL":
            return True
        spec = next((a for a in self.user.approvals if a.action == action), None)
        return spec is None or not self.readback.uncovered(spec.readback, self._said())

    def utterance_finished(self, plan_ids: list[str]) -> None:
        """The user finished saying these plans (anchor of `after_plan` triggers)."""
        self.s.finished.update(plan_ids)

    def due_barge_ins(self, obs: Observation) -> list[Plan]:
        """Barge-in events whose trigger holds now: the user speaks them at once
        (after the trigger's `offset_ms`), even while the agent is talking."""
        if self.s.ended:
            return []
        self.readback.hear(list(obs.heard), self._said())
        plans = self._fire_events(obs, barge_in_only=True)
        self.repairs.remember(plans)
        return plans

    def has_timed_events(self) -> bool:
        return any(
            e.trigger.at_ms is not None and e.id not in self.s.fired for e in self.user.events
        )

    def _fire_events(self, obs: Observation, barge_in_only: bool = False) -> list[Plan]:
        plans = []
        for event in self.user.events:
            if barge_in_only and event.delivery != "barge_in":
                continue
            anchor = None if event.id in self.s.fired else self._triggered(event, obs)
            if anchor is None:
                continue
            self.s.fired.add(event.id)
            facts = [f for fid in event.reveals if (f := self.user.fact(fid)) is not None]
            if event.revokes is not None:
                self.s.live.discard(event.revokes)
                if event.kind == "cancellation":
                    self.s.cancelled.add(event.revokes)
            plans.append(
                self._plan(
                    f"event:{event.id}",
                    EVENT_ACTS[event.kind],
                    facts,
                    event.id,
                    event=event,
                    anchor=anchor,
                    revokes=event.revokes,
                )
            )
        return plans

    def _fixes(self, obs: Observation, confirmed: tuple[str, ...] = ()) -> list[Plan]:
        """Corrections of values the agent read back wrong (facts the user already gave)."""
        wrong = self.readback.wrong(list(obs.heard), self._said(), confirmed)
        return [self._plan(f"fix:{f.id}", "correct", [f], "readback") for f in wrong]

    def _approval(self, action: str) -> Plan:
        spec = next((a for a in self.user.approvals if a.action == action), None)
        because = f"REQUEST_APPROVAL:{action}"
        if spec is None:
            return self._plan("unknown", "unknown", [], because)
        if spec.id in self.s.live:
            return self._plan("confirm", "confirm", [], because)
        ready = all(e in self.s.fired for e in spec.after) and spec.id not in self.s.cancelled
        if not ready or self.s.grants.get(spec.id, 0) >= spec.max_grants:
            return self._plan(f"decline:{spec.id}", "decline", [], because)
        said = self._said()
        missing = self.readback.uncovered(spec.readback, said)
        if missing:
            return self._plan("ask_readback", "ask_readback", [], because, slots=tuple(missing))
        self.s.grants[spec.id] = self.s.grants.get(spec.id, 0) + 1
        self.s.live.add(spec.id)
        read = tuple(self.readback.read_back(said))
        return self._plan(
            f"approve:{spec.id}", "approve", [], action, approval=spec, read_back=read
        )

    def backchannel(self) -> Plan:
        """A short listener response while the agent keeps the floor."""
        return self._plan("backchannel", "backchannel", [], "")

    def consumed(self, approval_id: str) -> None:
        """The approval's token was used by a commit; a new request needs a new grant."""
        self.s.live.discard(approval_id)
