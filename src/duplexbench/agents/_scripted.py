"""A scripted fake agent for tests and examples: plays fixed turns in order."""

from __future__ import annotations

from collections.abc import Sequence

from duplexbench.agents._protocol import AgentInput, AgentSession, AgentTurn


class ScriptedAgent:
    """Returns `turns[i]` for the i-th user utterance; empty turns once the script ends.

    Tool-result continuations get an empty turn, so each scripted turn is one
    agent reply. `inputs` records everything the agent perceived.
    """

    def __init__(self, turns: Sequence[AgentTurn]) -> None:
        self.turns = list(turns)
        self.inputs: list[AgentInput] = []
        self.session: AgentSession | None = None
        self._next = 0

    def start(self, session: AgentSession) -> None:
        self.session = session

    def respond(self, observation: AgentInput) -> AgentTurn:
        self.inputs.append(observation)
        if observation.user_text is None or self._next >= len(self.turns):
            return AgentTurn()
        turn = self.turns[self._next]
        self._next += 1
        return turn

    def close(self) -> None:
        return None
