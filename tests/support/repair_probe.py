"""An agent that asks the caller to repeat or to spell right after each answer (issue 35's
check that the caller understands repair requests), and the reading of its episodes.

`RepairProbe` wraps any text agent: when the caller has just answered (a plan
`answer:<fact>`, read through the privileged hook, so the episode runs privileged), it
holds the wrapped agent's turn back and says the next request phrasing instead; once
the caller has replied it gives the held turn. `probe_outcomes` reads, from a trace,
each request and what the caller's next turn did (its `user.repair` kinds).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from duplexbench.agents import AgentInput, AgentSession, AgentTurn, TextAgent
from duplexbench.trace import (
    AgentUtterance,
    FactRevealed,
    TraceEvent,
    UserRepair,
    UserUtterance,
)

REPEAT_PHRASINGS = (
    "Sorry, I got distracted for a second. What did you say?",
    "Could you say that again a bit louder?",
    "Afraid I didn't catch that last part.",
    "Eh, sorry, your voice dropped out. Once more?",
    "Run that by me again?",
    "Sorry, I'm not sure I heard that right. Could you repeat it?",
    "Can you repeat that for me?",
    "Apologies, I zoned out for a second. What was that?",
    "My apologies, there was some noise on the line. Could you say it again?",
    "I didn't get all of that. Can you say it once more?",
    "Sorry, you went quiet there. What was it?",
    "Hold on, what did you just tell me?",
)
"""Ways to ask for a repetition, written for this test after the observer's rules were
finished, then run once and never tuned on; none is in the observer corpus
(tests/validity/test_repair_requests.py checks). docs/simulator.md, "Repairs", has the
earlier batches."""
SPELL_PHRASINGS = (
    "Could you spell that name for me?",
    "How do you spell it?",
    "Sorry, could you spell that one out?",
    "I want to make sure I have it right. Can you spell it?",
    "Would you mind going through it letter by letter?",
    "Can you spell the whole thing for me?",
    "Okay, and the spelling of that?",
    "Mind spelling it slowly for me?",
    "Could you give me the spelling, please?",
    "How do I write that down, letter by letter?",
    "Could you spell it for me one more time?",
    "Is there a way you could spell that for me?",
)
"""Ways to ask for a spelling, written and held out the same way."""


class RepairProbe:
    """A text agent asking a repair right after each caller answer (module docstring)."""

    def __init__(self, inner: TextAgent, phrasings: Sequence[str]) -> None:
        self.inner, self.phrasings = inner, tuple(phrasings)
        self.asked = 0
        self._held: AgentTurn | None = None
        self._plans: Callable[[], list[str]] = list

    def start(self, session: AgentSession) -> None:
        assert session.privileged is not None, "run the probe privileged (it reads plan ids)"
        self._plans = session.privileged.last_user_plans
        self._held = None
        self.inner.start(session)

    def respond(self, observation: AgentInput) -> AgentTurn:
        if observation.user_text is not None and self._held is not None:
            held, self._held = self._held, None
            return held
        if observation.user_text is not None and any(
            p.startswith("answer:") for p in self._plans()
        ):
            self._held = self.inner.respond(observation)
            phrase = self.phrasings[self.asked % len(self.phrasings)]
            self.asked += 1
            return AgentTurn(say=phrase)
        return self.inner.respond(observation)

    def close(self) -> None:
        self.inner.close()


@dataclass(frozen=True)
class ProbeOutcome:
    request: str
    kinds: tuple[str, ...]
    """The `user.repair` kinds of the caller's next turn (empty: no repair)."""
    restated: bool = False
    """The next turn said a value anew instead: a correction the caller had planned
    (its event fires at that turn and says the corrected value; docs/simulator.md)."""

    def answered(self, *kinds: str) -> bool:
        return bool(set(kinds) & set(self.kinds)) or self.restated


def probe_outcomes(events: Sequence[TraceEvent], phrasings: Sequence[str]) -> list[ProbeOutcome]:
    """Each probe request heard in the trace and the repairs of the caller's next turn."""
    asked = set(phrasings)
    out: list[ProbeOutcome] = []
    pending: str | None = None
    for i, event in enumerate(events):
        if isinstance(event, AgentUtterance) and event.data.text.strip() in asked:
            pending = event.data.text.strip()
        elif isinstance(event, UserUtterance) and pending is not None and event.data.plan_ids:
            near = [e for e in events[max(0, i - 20) : i + 20] if e.t_ms == event.t_ms]
            kinds = tuple(e.data.kind for e in near if isinstance(e, UserRepair))
            restated = any(isinstance(e, FactRevealed) for e in near)
            out.append(ProbeOutcome(pending, kinds, restated))
            pending = None
    return out
