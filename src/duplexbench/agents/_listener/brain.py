"""The listener's dialogue: the outline's turns in order, driven by the caller's plans.

It reads only `privileged.outline` and `privileged.last_user_plans` (which plans the
caller just said: ids, no values), never `privileged.reference`; every caller value
comes from what it heard (`ears.py`). Per caller turn:

1. each value the plans carry (an answer, a correction, an event's facts, the
   opening's volunteered facts, a spelling) is read from the heard words;
2. a value that needs it gets a repair request ("Could you spell the tax id?"), at
   most `MAX_STREAK` repair-only turns in a row while a question can come between;
3. the next outline turns whose expected plans were heard are played, one after
   the other (their look-ups first: database reads and knowledge searches, then the
   writes from their results and the words of their acts);
4. otherwise the plans are answered: a read-back when asked for one, a changed
   value acknowledged, a question asked again by name and description, a later
   turn jumped to when its plan came early; else the last question is asked again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from duplexbench.agents._listener.fields import FieldBook
from duplexbench.agents._listener.lookups import Lookups
from duplexbench.agents._listener.outline import OutlineTurn
from duplexbench.agents._listener.saying import Speaker
from duplexbench.agents._listener.steps import Filler
from duplexbench.agents._listener.words import (
    GIVE_UP,
    GOT_IT,
    SENT_REQUEST,
    WHY,
    confirm,
    repair,
)
from duplexbench.agents._notes.ears import Ears, How
from duplexbench.agents._protocol import (
    AgentError,
    AgentInput,
    AgentSession,
    AgentToolCall,
    AgentTurn,
    ToolResultMessage,
)
from duplexbench.speech import Transcript

_log = logging.getLogger(__name__)
VERSION = 2
"""2 (2026-12-06): read-backs settle values, readings never voted letter by letter, lists
item by item, phones reconciled, long numbers read back; 1: the first (workflows-mini
clean 3/12)."""
ENDPOINT_MS = 1200
"""Silence that ends a caller's turn in audio: longer than the cascade's 700 ms, since a
spelling pauses between its pieces (`values.SPELL_GAP_MS`, and the voice's own)."""
HELD_WORDS = 4
"""The most words of a repair answer read as nothing that may be the start of a spelling
the cascade cut at a pause."""
MAX_STREAK = 3
"""Repair-only turns in a row before the listener lets a question come between."""
MAX_REASKS = 2
"""Times the same question is asked again before the listener goes on regardless."""
_REPAIRED: dict[str, How] = {"spell": "spelled", "digits": "digits", "repeat": "repeat"}
_SPELLING = ("spell", "digits")
_VALUE_PLANS = ("answer", "fix")
_NOTHING = ("not_said", "dont_have", "what_need")
_KEPT = ("answer:", "event:", "fix:", "spell:", "digits:", "repeat:", "approve:", "decline:")
"""Plans kept until an outline turn takes them (the rest are read once)."""


@dataclass
class _State:
    next: int = 0
    pending: list[str] = field(default_factory=list)
    last_acts: tuple[str, ...] = ()
    last_stated: tuple[str, ...] = ()
    fixes: dict[str, int] = field(default_factory=dict)
    checking: str | None = None
    """The fact whose value was just read back to the caller."""
    readbacks: int = 0
    """Read-backs the caller asked for in a row."""
    awaiting: list[int] | None = None
    order: list[str] = field(default_factory=list)
    held: tuple[tuple[str, ...], str] | None = None
    """Audio: (plans, words) of a turn heard in part (a spelling the ASR cut at a pause)."""
    repairing: str | None = None
    streak: int = 0
    reasks: int = 0
    done: bool = False


class ListenerBrain:
    """A `TextAgent`; in audio the cascade gives it each turn's `Transcript` first."""

    def __init__(self, audio: bool = False, year: int = 2026) -> None:
        self.audio, self.year = audio, year
        self.s = _State()
        self.transcript: Transcript | None = None

    def start(self, session: AgentSession) -> None:
        privileged = session.privileged
        if privileged is None or privileged.outline is None:
            raise AgentError("the listener needs the item's outline (privileged agents only)")
        outline = privileged.outline
        problems = outline.unfollowable()
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise AgentError(f"the listener cannot follow {outline.item_id}: {problems[0]}{more}")
        self.outline = outline
        self.plans = privileged.last_user_plans
        self.backchanneled = privileged.user_backchanneled
        self.ears = Ears(self.audio, self.year)
        self.book = FieldBook(session.tools, outline)
        self.filler = Filler(outline, self.book, self.ears)
        self.speaker = Speaker(outline, self.filler)
        self.lookups = Lookups(outline, self.filler, self.ears, self.book, session.tools)
        self.s = _State()

    def heard(self, transcript: Transcript) -> None:
        """The cascade's hook: the whole transcript (with confidence) of the next turn."""
        self.transcript = transcript
        _log.debug("heard %r (least sure segment %s)", transcript.text, transcript.min_logprob)

    def close(self) -> None:
        return None

    # ------------------------------------------------------------ turns

    def respond(self, observation: AgentInput) -> AgentTurn:
        if self.s.done:
            return AgentTurn()
        if observation.tool_results:
            return self._results(observation.tool_results)
        if observation.user_text is None:
            return AgentTurn()
        transcript, self.transcript = self.transcript, None
        if self.backchanneled():
            return AgentTurn()  # "mm-hm" is no turn
        plans = list(self.plans())
        if any(p in ("end", "give_up") for p in plans):
            self.s.done = True
            return AgentTurn()
        text, joined = self._joined(observation.user_text, plans)
        self._absorb(text, plans, transcript)
        if not joined and self._partial(text, plans):
            return AgentTurn()  # the rest of the spelling is coming
        self._checked(plans)
        turn = self._repair_turn() or self._check_turn()
        if turn is None:
            turn = self._advance(plans)
        self.s.pending = [p for p in self.s.pending if p.startswith(_KEPT)]
        return turn

    def _absorb(self, text: str, plans: list[str], transcript: Transcript | None) -> None:
        """Read the values the plans carry; keep the plans for the outline."""
        told = self._told(plans)
        opening = "open" in plans
        for fact, how in told:
            if fact not in self.outline.facts:
                continue
            target = self.book.of_fact(fact)
            slot = self.outline.slot_of(fact)
            self.ears.hear(
                fact,
                target,
                text,
                how=how,
                transcript=transcript,
                words=[slot.replace("_", " ")],
                named_only=opening and fact in self.outline.volunteered,
                slot=slot,
            )
            if fact not in self.s.order:
                self.s.order.append(fact)
            for older in self.outline.versions(slot):
                if older != fact:
                    self.ears.give_up(older)  # superseded: the new version is listened to
        self.s.pending += [p for p in plans if p not in self.s.pending]

    def _told(self, plans: list[str]) -> list[tuple[str, How]]:
        """The facts the plans carry and how each was said; a value read back and
        corrected is never settled on again; a repair the caller could not make ends."""
        told: list[tuple[str, How]] = []
        for plan in plans:
            kind, _, ref = plan.partition(":")
            if kind in _VALUE_PLANS:
                told.append((ref, "plain"))
            elif kind in _REPAIRED:
                told.append((ref, _REPAIRED[kind]))
            elif kind == "event" and ref in self.outline.events:
                told += [(f, "plain") for f in self.outline.events[ref].reveals]
            elif plan == "open":
                told += [(f, "plain") for f in self.outline.volunteered]
            elif kind in _NOTHING and self.s.repairing is not None:
                self.ears.give_up(self.s.repairing)
            if kind == "fix":  # what was read back is wrong, whatever the ears thought
                latest = self._latest(self.outline.slot_of(ref))
                if latest is not None:
                    self.ears.reject(latest)
        return told

    def _joined(self, text: str, plans: list[str]) -> tuple[str, bool]:
        """The words of the caller's turn: with the part heard before, if it went on."""
        held, self.s.held = self.s.held, None
        if held is not None and held[0] == tuple(plans):
            return f"{held[1]} {text}", True
        return text, False

    def _partial(self, text: str, plans: list[str]) -> bool:
        """Audio: a short repair answer read as nothing is held once (the cascade ended
        the turn at a pause inside a spelling); the next part of the same plans joins it.
        A long one was heard whole, and misheard: waiting would only bring a nudge."""
        if not self.audio or len(text.split()) > HELD_WORDS:
            return False
        repaired = [p.partition(":")[2] for p in plans if p.partition(":")[0] in _SPELLING]
        for fact in repaired:
            ear = self.ears.ears.get(fact)
            last = ear.readings[-1] if ear is not None and ear.readings else None
            if ear is not None and last is not None and last.value is None:
                ear.readings.pop()
                self.s.held = (tuple(plans), text)
                return True
        return False

    # ------------------------------------------------------------ repairs

    def _repair_turn(self) -> AgentTurn | None:
        unsettled = [f for f in self.s.order if f in self.ears.unsettled()]
        if not unsettled:
            self.s.streak = 0
            return None
        if self.s.streak >= MAX_STREAK and self._can_defer():
            return None
        fact = self.s.repairing if self.s.repairing in unsettled else unsettled[0]
        kind = self.ears.next_repair(fact)
        if kind is None:
            return None
        self.s.repairing = fact
        self.s.streak += 1
        words = self.speaker.slot_words(self.outline.slot_of(fact))
        return AgentTurn(repair(kind, words), tuple(self.filler.rewrites()))

    def _checked(self, plans: list[str]) -> None:
        """The caller's answer to a value read back: a "yes" checks it; a correction is
        heard like any value (`_told`) and is no event of the outline's."""
        fact, self.s.checking = self.s.checking, None
        if fact is None:
            return
        slot = self.outline.slot_of(fact)
        versions = set(self.outline.versions(slot))
        if "confirm" in plans:
            self.ears.confirmed(fact)
        fixed = {f"fix:{v}" for v in versions}
        self.s.pending = [p for p in self.s.pending if p != "confirm" and p not in fixed]

    def _check_turn(self) -> AgentTurn | None:
        """In audio, read a value back to the caller ("Just to confirm, the tax id is
        TX-2895-ZF?") when the ears have one to check (`Ears.to_check`)."""
        for fact in self.s.order:
            slot = self.outline.slot_of(fact)
            if fact != self._latest(slot) or not self.ears.to_check(fact):
                continue
            if self.ears.propose(fact) is None:
                continue
            self.s.checking = fact
            say = confirm(self.speaker.slot_words(slot), self.speaker.value(slot))
            return AgentTurn(say, tuple(self.filler.rewrites()))
        return None

    def _latest(self, slot: str) -> str | None:
        """The latest version of a slot heard (what was read back for it)."""
        heard = [f for f in self.outline.versions(slot) if f in self.ears.ears]
        return heard[-1] if heard else None

    def _can_defer(self) -> bool:
        """Whether the next turn asks a question (a repair can wait until its answer)
        and does nothing a wrong value would spoil (a write of an artifact field is
        written again once the value settles; a read, a commit, a request is not)."""
        if self.s.next >= len(self.outline.turns):
            return False
        turn = self.outline.turns[self.s.next]
        asks = any(a.startswith("ASK:") for a in turn.acts)
        risky = any(c.kind not in ("artifact_update", "knowledge_search") for c in turn.calls)
        return asks and not risky

    # ------------------------------------------------------------ the outline

    def _satisfied(self, expect: str) -> bool:
        if expect in self.s.pending:
            return True
        kind, _, ref = expect.partition(":")
        if kind == "answer":
            return any(f"{k}:{ref}" in self.s.pending for k in (*_REPAIRED, "fix"))
        return False

    def _run(self) -> list[int]:
        run: list[int] = []
        for i in range(self.s.next, len(self.outline.turns)):
            expect = self.outline.turns[i].expect
            if (expect is None and run) or (expect is not None and not self._satisfied(expect)):
                break
            run.append(i)
        return run

    def _advance(self, plans: list[str]) -> AgentTurn:
        run = self._run()
        if not run:
            return self._deviation(plans)
        self.s.reasks = self.s.readbacks = 0
        return self._play(run)

    def _play(self, run: list[int]) -> AgentTurn:
        turns = [self.outline.turns[i] for i in run]
        self.s.next = run[-1] + 1
        for turn in turns:
            self._consume(turn.expect)
        lookups = self.lookups.calls(turns)
        if lookups:
            self.s.awaiting = run
            return AgentTurn("", tuple(lookups))
        return self._finish(run)

    def _consume(self, expect: str | None) -> None:
        if expect is None:
            return
        kind, _, ref = expect.partition(":")
        taken = {expect} | (
            {f"{k}:{ref}" for k in (*_REPAIRED, "fix")} if kind == "answer" else set()
        )
        self.s.pending = [p for p in self.s.pending if p not in taken]

    def _results(self, results: tuple[ToolResultMessage, ...]) -> AgentTurn:
        run, self.s.awaiting = self.s.awaiting, None
        looked = self.lookups.take(results)
        if run is None:
            return AgentTurn()
        if looked.retries:
            self.s.awaiting = run
            return AgentTurn("", tuple(looked.retries))
        if looked.doubted:
            self.s.next = run[0]  # the record id was misheard: listen again, then read
            self.s.pending += [t.expect for t in (self.outline.turns[i] for i in run) if t.expect]
            turn = self._repair_turn()
            if turn is not None:
                return turn
        return self._finish(run)

    def _finish(self, run: list[int]) -> AgentTurn:
        turns = [self.outline.turns[i] for i in run]
        calls: list[AgentToolCall] = list(self.filler.rewrites())
        for turn in turns:
            for step in turn.calls:
                if step.kind in ("database_read", "knowledge_search"):
                    continue
                call = self.filler.fill(step)
                if call is not None:
                    calls.append(call)
        acts = self._acts(turns)
        self.s.streak = 0  # a question between repairs: the caller's patience is renewed
        self.s.last_acts = acts
        self.s.last_stated = tuple(dict.fromkeys(s for t in turns for s in t.stated))
        say = self._say(turns, acts)
        end = any(t.end_call for t in turns)
        self.s.done = end
        return AgentTurn(say, tuple(calls), end)

    def _acts(self, turns: list[OutlineTurn]) -> tuple[str, ...]:
        earlier = [a for t in turns[:-1] for a in t.acts if a.startswith(("CONFIRM:", "CHECK:"))]
        return tuple(dict.fromkeys([*earlier, *turns[-1].acts]))

    def _say(self, turns: list[OutlineTurn], acts: tuple[str, ...]) -> str:
        parts: list[str] = []
        for turn in turns:
            kind, _, ref = (turn.expect or "").partition(":")
            event = self.outline.events.get(ref) if kind == "event" else None
            if event is not None and event.kind == "clarification":
                parts.append(WHY)
            elif event is not None and event.reveals:
                parts.append(self.speaker.changed(event.reveals))
        spoken = self.speaker.acts(acts, stated=self.s.last_stated)
        if spoken:
            parts.append(spoken)
        requested = any(c.kind == "approval_request" for t in turns for c in t.calls)
        if requested and not any(a.startswith("REQUEST_APPROVAL:") for a in acts):
            parts.append(SENT_REQUEST)
        return " ".join(p for p in parts if p) or GOT_IT

    # ------------------------------------------------------------ off the outline

    def _deviation(self, plans: list[str]) -> AgentTurn:
        pending = self.s.pending
        fixes = [p.partition(":")[2] for p in pending if p.startswith("fix:")]
        if fixes:
            self.s.pending = [p for p in pending if not p.startswith("fix:")]
            calls = [c for f in fixes for c in self.filler.write_fact(f)]
            return AgentTurn(self._after_fixes(fixes), tuple(calls))
        if "ask_readback" in plans:
            self.s.readbacks += 1
            if self.s.readbacks > MAX_REASKS + 1:  # it will not take the read-back: stop
                self.s.done = True
                return AgentTurn(GIVE_UP, (), True)
            action = self._requested_action()
            return AgentTurn(self.speaker.readback_request(action, self.s.last_stated))
        jump = self._jump()
        if jump is not None:
            self.s.next = jump
            return self._advance(plans)
        if any(p.startswith("decline:") for p in pending):
            self.s.done = True
            return AgentTurn("Understood, I will not go ahead. Goodbye!", (), True)
        self.s.reasks += 1
        if self.s.reasks > MAX_REASKS and self.s.next < len(self.outline.turns):
            self.s.reasks = 0
            return self._play([self.s.next])  # the caller cannot help: go on
        clarify = "which_slot" in plans or "unknown" in plans
        say = self.speaker.acts(self.s.last_acts, clarify=clarify, stated=self.s.last_stated)
        return AgentTurn(say or GOT_IT, tuple(self.filler.rewrites()))

    def _after_fixes(self, fixes: list[str]) -> str:
        """A corrected value acknowledged, then the last question again (without the
        read-back once a slot was corrected twice: the caller will not confirm it)."""
        acts = self.s.last_acts
        for fact in fixes:
            slot = self.outline.slot_of(fact)
            self.s.fixes[slot] = self.s.fixes.get(slot, 0) + 1
            if self.s.fixes[slot] >= MAX_REASKS:
                acts = tuple(a for a in acts if a != "READBACK")
        again = self.speaker.acts(acts, stated=self.s.last_stated)
        return f"{self.speaker.changed(fixes)} {again}".strip()

    def _requested_action(self) -> str | None:
        for act in self.s.last_acts:
            if act.startswith("REQUEST_APPROVAL:"):
                return act.partition(":")[2]
        for turn in self.outline.turns[self.s.next :]:
            if (turn.expect or "").startswith("approve:"):
                approval = next(
                    (a for a in self.outline.approvals if f"approve:{a.id}" == turn.expect), None
                )
                return approval.action if approval else None
        return None

    def _jump(self) -> int | None:
        """A later turn whose plan the caller said (its event came early): go there."""
        kept = [p for p in self.s.pending if p.startswith(_KEPT)]
        for i in range(self.s.next + 1, len(self.outline.turns)):
            expect = self.outline.turns[i].expect
            if expect is not None and expect in kept:
                return i
        return None
