"""The reference agent's conversational brain, for sessions without tools
(action items: free conversation rather than a workflow).

Rule-based and offline: it answers a question with a few sentences built
around the content words it heard, acknowledges a statement, and follows an
explicit request it recognises (a shorter version, an example, a repeat, a
change of subject). It has no notion of floor timing: that is the cascade's
(endpointing, barge-in); this is what it says once it has the turn.
"""

from __future__ import annotations

import re

from duplexbench.agents._protocol import AgentInput, AgentSession, AgentTurn, TextAgent
from duplexbench.speech import Transcript

_STOP_WORDS = """
    a an the and or but so to of in on at for with about from by is are was were be been i you
    he she it we they me my your our their this that these those do does did can could would
    should will just really very what how why when where who which there here then than if as
    not no yes okay ok um uh well like know think want need have has had get got let lets let's
    going go sorry please thanks thank mean actually also maybe some any
"""
_STOP = frozenset(_STOP_WORDS.split())


def content_words(text: str, limit: int = 4) -> list[str]:
    words = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'\-]+", text)]
    seen: list[str] = []
    for w in words:
        if w not in _STOP and len(w) > 2 and w not in seen:
            seen.append(w)
    return seen[:limit]


class ConversationBrain:
    def __init__(self) -> None:
        self.last_answer = ""

    def start(self, session: AgentSession) -> None:
        self.last_answer = ""

    def close(self) -> None:
        return None

    def respond(self, observation: AgentInput) -> AgentTurn:
        text = (observation.user_text or "").strip()
        if not text:
            return AgentTurn()
        low = text.lower()
        topic = " and ".join(content_words(text, 3)) or "that"
        if re.search(r"\b(repeat|missed|again|last part)\b", low) and self.last_answer:
            say = f"Of course, again: {self.last_answer}"
        elif re.search(r"\b(short|quick|brief|in a minute|have to go|leave)\b", low):
            say = f"In short: {topic}, that is the key point. Let's leave it there."
        elif re.search(r"\b(example|for instance)\b", low):
            say = f"For example, think of {topic} in a situation you already know well."
        elif "?" in text or re.match(r"^(can|could|what|how|why|when|where|who|do|is)\b", low):
            say = (
                f"Good question about {topic}. Let me explain. First, it helps to see what "
                f"{topic} involves in practice. Second, it depends on your situation and the "
                "options you have. Finally, we can look at the next step together."
            )
        else:
            say = f"I see, {topic}. Thanks for telling me. What would you like to do next?"
        self.last_answer = say
        return AgentTurn(say)


class RoutedBrain:
    """The reference brain: the workflow dialogue manager when the session has tools,
    the conversational brain when it has none."""

    def __init__(self, workflow: TextAgent) -> None:
        self.workflow = workflow
        self.active: TextAgent = workflow

    def start(self, session: AgentSession) -> None:
        self.active = self.workflow if session.tools else ConversationBrain()
        self.active.start(session)

    def respond(self, observation: AgentInput) -> AgentTurn:
        return self.active.respond(observation)

    def heard(self, transcript: Transcript) -> None:
        """The cascade's hook, passed on to a brain that listens carefully."""
        hook = getattr(self.active, "heard", None)
        if callable(hook):
            hook(transcript)

    def close(self) -> None:
        self.active.close()
