"""How the caller answers repair requests: say it again, spell it, read the digits, slow
down (docs/simulator.md, "Repairs").

The observer reads an agent's request as repair acts: `REPEAT` or `REPEAT:<slot>`,
`SPELL[:<slot>]` (with `PHONETIC` when words for letters are asked for),
`DIGITS[:<slot>]` and `SLOWER`. A request without a slot is about what the caller
said last: `REPEAT` repeats its last turn, `SPELL` and `DIGITS` the values it gave
last. The caller repeats the same facts and plans without fillers (a little slower
if its persona slows down when asked), spells in its persona's style (phonetic
words when asked), reads digits one at a time in groups, and slows down for the
rest of the call within its persona's bounds.

Patience: past `budget` repairs of one value the caller says it has said it
already, and still answers; after `GIVE_UP_AFTER` x budget agent turns in a row
that ask only for repairs, it gives up and ends the call, so no loop is endless.
Nothing is said that the caller has not revealed: a request about a slot it never
gave gets "I haven't given you that yet", one it does not hold "I don't have that
one", and a request before it gave anything "What do you need from me?".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from duplexbench.items import Fact, UserSpec
from duplexbench.trace import RepairKind
from duplexbench.users._observer.repairs import REPAIR_KINDS
from duplexbench.users._personas import DEFAULT_SPELLING, CallerPersona
from duplexbench.users._plan import Plan, Repair
from duplexbench.values import SpellingStyle

REQUEST_KINDS = tuple(k for k in REPAIR_KINDS if k != "PHONETIC")
"""Repair acts that ask for something (`PHONETIC` only qualifies `SPELL`)."""
REPAIR_PLAN_ACTS = frozenset(
    {"repeat", "spell", "digits", "slower", "patience", "not_said", "dont_have", "what_need"}
)
"""Plan acts that answer a repair request."""
SLOW_STEP = 0.1
"""Each request to slow down lowers the caller's rate by this much (down to its bound)."""
REPEAT_SLOWER = 0.9
"""A caller that slows down when asked says a repetition at this share of its rate."""
GIVE_UP_AFTER = 2
"""Agent turns in a row asking only for repairs, per unit of budget, before giving up."""
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_UTTERANCE = ""
"""The count key of repeats of a turn that held no value (a "yes", a question)."""


@dataclass(frozen=True)
class RepairTraits:
    """A caller's repair behaviour: patience per value, spelling style, slowest rate."""

    budget: int = 3
    spelling: SpellingStyle = DEFAULT_SPELLING
    slows_to: float = 1.0

    @classmethod
    def of(cls, persona: CallerPersona) -> RepairTraits:
        return cls(persona.repair_budget, persona.spelling, persona.slows_to)


@dataclass(frozen=True)
class Request:
    kind: str
    """REPEAT, SPELL, DIGITS or SLOWER."""
    slot: str
    """The slot named ("": none, what the caller said last)."""
    act: str


def repair_requests(acts: Sequence[str]) -> tuple[list[Request], bool]:
    """The repair requests among `acts` (once each) and whether phonetic spelling was
    asked for. A spelling or a reading of digits is a repetition: with one, a plain
    `REPEAT` is dropped."""
    requests: list[Request] = []
    for act in dict.fromkeys(acts):
        kind, _, slot = act.partition(":")
        if kind in REQUEST_KINDS:
            requests.append(Request(kind, slot, act))
    if any(r.kind in ("SPELL", "DIGITS") for r in requests):
        requests = [r for r in requests if r.kind != "REPEAT"]
    return requests, "PHONETIC" in acts


MakePlan = Callable[..., Plan]
"""`make(plan_id, act, facts, because, **plan_fields)`: the policy's plan builder (it
records reveals)."""


@dataclass
class _Memory:
    last_turn: list[Plan] = field(default_factory=list)
    last_facts: list[str] = field(default_factory=list)
    """The facts of the latest turn that carried any (what a bare `SPELL` is about)."""
    counts: dict[str, int] = field(default_factory=dict)
    streak: int = 0
    """Agent turns in a row that asked only for repairs."""
    rate: float = 1.0


class RepairDesk:
    """The caller's side of repairs for one episode (module docstring)."""

    def __init__(
        self,
        user: UserSpec,
        make: MakePlan,
        current: Callable[[str], Fact | None],
        revealed: Callable[[str], bool],
        traits: RepairTraits | None = None,
    ) -> None:
        self.user, self.make = user, make
        self.current, self.revealed = current, revealed
        self.traits = traits or RepairTraits()
        self.m = _Memory()
        self.gave_up = False
        self._restated: set[str] = set()

    @property
    def rate(self) -> float:
        return self.m.rate

    def remember(self, plans: Sequence[Plan]) -> None:
        """The caller is about to say `plans` (a backchannel or a sound is no turn)."""
        if not plans or all(p.act in ("backchannel", "vocal_tic", "aside") for p in plans):
            return
        self.m.last_turn = list(plans)
        facts = [f for p in plans for f in p.facts]
        if facts:
            self.m.last_facts = list(dict.fromkeys(facts))

    def answer(
        self, acts: Sequence[str], only_repairs: bool, planned: Sequence[Plan] = ()
    ) -> list[Plan]:
        """Plans answering the repair requests among `acts`; `only_repairs`: the agent's
        turn asked for nothing else (counts toward giving up); `planned`: what the caller
        says this turn already (a correction restating a value: not said twice)."""
        self._restated = {self.user.slot_of(f) for p in planned for f in p.facts}
        requests, phonetic = repair_requests(acts)
        self.m.streak = self.m.streak + 1 if requests and only_repairs else 0
        if not requests:
            return []
        if self.m.streak > GIVE_UP_AFTER * self.traits.budget:
            self.gave_up = True
            return [self.make("give_up", "end", [], "repairs")]
        out: list[Plan] = []
        slower = next((r for r in requests if r.kind == "SLOWER"), None)
        if slower is not None:
            out.append(self._slow_down(slower))
        asked = [r for r in requests if r.kind != "SLOWER"]
        if slower is not None and not asked:
            asked = [Request("REPEAT", "", slower.act)]  # "slow down": and say it again
        for request in asked:
            out += self._one(request, phonetic)
        if not out and self._restated:
            return []
        return out

    # ------------------------------------------------------------ one request

    def _slow_down(self, request: Request) -> Plan:
        self.m.rate = round(max(self.traits.slows_to, self.m.rate - SLOW_STEP), 3)
        repair = Repair("slower", request.act, rate=self.m.rate)
        return self.make("slower", "slower", [], request.act, repair=repair)

    def _one(self, request: Request, phonetic: bool) -> list[Plan]:
        if request.slot:
            fact = self.current(request.slot)
            if fact is None:
                return [self._nothing("dont_have", request, (request.slot,))]
            if not self.revealed(request.slot):
                return [self._nothing("not_said", request, (request.slot,))]
            return self._value(request, fact, phonetic)
        if request.kind == "REPEAT":
            return self._repeat_turn(request)
        facts = [f for fid in self.m.last_facts if (f := self.user.fact(fid)) is not None]
        if not facts:
            return [self._nothing("what_need", request, ())]
        return [p for fact in facts for p in self._value(request, fact, phonetic)]

    def _nothing(self, plan_id: str, request: Request, slots: tuple[str, ...]) -> Plan:
        repair = Repair("none", request.act, slot=slots[0] if slots else None, rate=self.m.rate)
        return self.make(plan_id, plan_id, [], request.act, slots=slots, repair=repair)

    def _repeat_turn(self, request: Request) -> list[Plan]:
        """`REPEAT` without a slot: the caller's last turn again, value by value."""
        if not self.m.last_turn:
            return [self._nothing("what_need", request, ())]
        out: list[Plan] = []
        for plan in self.m.last_turn:
            facts = [f for fid in plan.facts if (f := self.user.fact(fid)) is not None]
            if plan.repair is not None and plan.repair.kind in ("spell", "digits"):
                again = Request(plan.repair.kind.upper(), "", request.act)
                out += [p for f in facts for p in self._value(again, f, False, plan.repair.style)]
            elif facts:
                out += [p for f in facts for p in self._value(request, f, False)]
            elif plan.act not in ("slower", "patience"):
                out += self._again(plan, request)
        if out or self._restated:
            return out
        return [self._nothing("what_need", request, ())]

    def _again(self, plan: Plan, request: Request) -> list[Plan]:
        """A turn without values said again (its words only: no effect repeats)."""
        over, count = self._count(_UTTERANCE)
        repair = Repair("repeat", request.act, count=count, over_budget=over, rate=self.m.rate)
        original = plan.plan_id.removeprefix("again:")
        again = self.make(
            f"again:{original}", "repeat", [], request.act, slots=plan.slots, repair=repair,
            speed=self._repeat_speed(),
        )  # fmt: skip
        return [again]

    def _value(
        self, request: Request, fact: Fact, phonetic: bool, style: SpellingStyle | None = None
    ) -> list[Plan]:
        slot = self.user.slot_of(fact.id)
        if slot in self._restated:
            return []  # "Sorry, I misspoke, it's USD" already says it again
        fact = self.current(slot) or fact  # a corrected value is repaired as corrected
        over, count = self._count(slot)
        kind: RepairKind = "repeat"
        if request.kind == "DIGITS":
            kind = "digits"
        elif request.kind == "SPELL" and not _is_date(fact):
            kind = "spell"  # a date is said again slowly, not spelled
        spelled: SpellingStyle = style or ("phonetic" if phonetic else self.traits.spelling)
        repair = Repair(
            kind, request.act, slot=slot, fact=fact.id,
            style=spelled if kind == "spell" else None,
            count=count, over_budget=over, rate=self.m.rate,
        )  # fmt: skip
        plan = self.make(
            f"{kind}:{fact.id}", kind, [fact], request.act, repair=repair,
            speed=self._repeat_speed(),
        )  # fmt: skip
        if not over:
            return [plan]
        patience = self.make("patience", "patience", [], request.act, slots=(slot,), times=count)
        return [patience, plan]

    def _count(self, key: str) -> tuple[bool, int]:
        count = self.m.counts.get(key, 0) + 1
        self.m.counts[key] = count
        return count > self.traits.budget, count

    def _repeat_speed(self) -> float:
        return repeat_speed(self.traits, self.m.rate)


def repeat_speed(traits: RepairTraits, rate: float = 1.0) -> float:
    """The rate a repetition or spelling is said at: a little slower than `rate` for a
    caller that slows down when asked, never below its bound."""
    if traits.slows_to >= 1.0:
        return rate
    return round(max(traits.slows_to, rate * REPEAT_SLOWER), 3)


def _is_date(fact: Fact) -> bool:
    return isinstance(fact.value, str) and bool(_ISO_DATE.match(fact.value))
