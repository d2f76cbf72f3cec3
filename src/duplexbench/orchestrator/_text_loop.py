"""The text-channel episode loop: user and agent alternate turns on a media timeline.

Utterances are strings whose durations are estimated from word counts; tool
calls run at the media time the agent makes them. The user policy, the
workbench and the agent are the same ones the audio channel drives.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from duplexbench.agents import (
    AgentError,
    AgentInput,
    AgentSession,
    AgentToolCall,
    AgentTurn,
    TextAgent,
    ToolResultMessage,
)
from duplexbench.orchestrator._blame import agent_code, error_kind
from duplexbench.orchestrator._clock import VirtualClock
from duplexbench.orchestrator._episode import EpisodeCore, EpisodeRecord, EpisodeSetup
from duplexbench.orchestrator._watchdog import FAULTS, kick
from duplexbench.trace import (
    AgentActsData,
    AgentUtteranceData,
    EndReason,
    ErrorKind,
    UserUtteranceData,
)
from duplexbench.users import Observation, Plan, sentences, unmatched_question

__all__ = ["EpisodeRecord", "EpisodeSetup", "TextChannelConfig", "TextEpisode"]


@dataclass(frozen=True)
class TextChannelConfig:
    """Timing and limits of the text channel (all media milliseconds)."""

    ms_per_word: int = 400
    min_utterance_ms: int = 600
    agent_gap_ms: int = 300
    user_gap_ms: int = 500
    max_agent_turns: int = 80
    max_tool_rounds: int = 8
    time_limit_ms: int = 20 * 60 * 1000


@dataclass
class _Turn:
    acts: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)
    said: list[str] = field(default_factory=list)
    spoke: bool = False
    end_call: bool = False
    pending: list[ToolResultMessage] = field(default_factory=list)


def checked_turn(reply: object) -> AgentTurn:
    """The agent's reply if it is a well-formed `AgentTurn`; AgentError naming the flaw."""
    bad: str | None = None
    if not isinstance(reply, AgentTurn):
        bad = f"a {type(reply).__name__} instead of an AgentTurn"
    elif not isinstance(reply.say, str) or not isinstance(reply.end_call, bool):
        bad = "say must be text and end_call a bool"
    elif not isinstance(reply.tool_calls, tuple | list) or not all(
        isinstance(c, AgentToolCall)
        and isinstance(c.name, str)
        and (c.call_id is None or isinstance(c.call_id, str))
        for c in reply.tool_calls
    ):
        bad = "tool_calls must be AgentToolCall objects with text names and ids"
    if bad is not None:
        raise AgentError(f"the agent sent a malformed turn: {bad}")
    assert isinstance(reply, AgentTurn)
    return reply


class TextEpisode(EpisodeCore):
    """One episode over the text channel."""

    def __init__(
        self,
        setup: EpisodeSetup,
        agent: TextAgent,
        privileged: bool = False,
        config: TextChannelConfig | None = None,
    ) -> None:
        super().__init__(setup, privileged)
        self.agent = agent
        self.config = config or TextChannelConfig()
        self.clock = VirtualClock()

    def run(self) -> EpisodeRecord:
        session: AgentSession = self.session()
        self.emit_start(session, "text")
        self.emit_simulator()
        error: str | None = None
        kind: ErrorKind | None = None
        try:
            with agent_code():
                self.agent.start(session)
            text = self._user_turn(self.policy.opening(), opening=True)
            reason = self._loop(text)
        except FAULTS as exc:  # the agent's fault fails the episode, the harness's is retried
            error, kind = f"{type(exc).__name__}: {exc}", error_kind(exc)
            self.emit_error(self.clock.now_ms(), error, "episode")
            reason = "error"
        finally:
            self._close_agent()
        self.emit_end(self.clock.now_ms(), reason, error or "", kind)
        return self.record(reason, error, None, kind)

    def _close_agent(self) -> None:
        try:
            self.agent.close()
        except FAULTS as exc:
            self.emit_error(self.clock.now_ms(), f"{type(exc).__name__}: {exc}", "agent.close")

    def _loop(self, user_text: str | None) -> EndReason:
        pending: list[ToolResultMessage] = []
        for _ in range(self.config.max_agent_turns):
            if self.clock.now_ms() >= self.config.time_limit_ms:
                return "time_limit"
            turn = self._agent_turn(user_text, pending)
            kick()
            pending = turn.pending
            obs = Observation(
                self.clock.now_ms(),
                tuple(turn.acts),
                tuple(turn.tools),
                tuple(turn.fields),
                turn.spoke,
                tuple(turn.said),
            )
            user_text = self._user_turn(self.policy.react(obs))
            if self.policy.ended:
                return "agent_idle" if self.policy.end_reason == "agent_idle" else "user_ended"
            if turn.end_call:
                return "agent_ended"
        return "turn_limit"

    # ------------------------------------------------------------ agent side

    def _agent_turn(self, user_text: str | None, pending: list[ToolResultMessage]) -> _Turn:
        self.clock.advance(self.config.agent_gap_ms)
        observation = AgentInput(self.clock.now_ms(), user_text, tuple(pending))
        out = _Turn()
        for _ in range(self.config.max_tool_rounds + 1):
            with agent_code():
                reply = checked_turn(self.agent.respond(observation))
            results = []
            for call in reply.tool_calls:
                run = self.run_tool(call.name, call.arguments, call.call_id, self.clock.now_ms())
                results.append(run.result)
                out.tools.append(call.name)
                out.acts += run.acts
                out.fields += run.fields
            if reply.say.strip():
                out.acts += self._agent_says(reply)
                out.said.append(reply.say)
                out.spoke = True
            out.end_call = out.end_call or reply.end_call
            if not reply.tool_calls or reply.end_call:
                break
            observation = AgentInput(self.clock.now_ms(), None, tuple(results))
        else:
            out.pending = results
        return out

    def _duration(self, text: str) -> int:
        words = len(text.split())
        return max(self.config.min_utterance_ms, words * self.config.ms_per_word)

    def _agent_says(self, reply: AgentTurn) -> list[str]:
        start = self.clock.now_ms()
        end = start + self._duration(reply.say)
        acts = self.observer.acts(reply.say)
        unmatched: list[str] = []  # failure attribution (docs/metrics.md); acts unchanged
        before: list[str] = []
        for sentence in sentences(reply.say):
            if unmatched_question(sentence, ()) and unmatched_question(
                sentence, self.observer.sentence_acts(sentence, before)
            ):
                unmatched.append(sentence)
            before.append(sentence)
        data = AgentUtteranceData(
            text=reply.say, start_ms=start, end_ms=end, unmatched_questions=unmatched
        )
        self.recorder.emit(start, data)
        self.recorder.emit(start, AgentActsData(acts=acts, text=reply.say))
        self.heard_acts(acts, start)
        self.clock.advance_to(end)
        return acts

    # ------------------------------------------------------------ user side

    def _user_turn(self, plans: list[Plan], opening: bool = False) -> str | None:
        if not plans:
            return None
        if not opening:
            self.clock.advance(self.config.user_gap_ms)
        t = self.clock.now_ms()
        for plan in plans:
            self.apply_plan(plan, t)
        realized = [self.realizer.realize_plan(p) for p in plans]
        text = " ".join(r.text for r in realized)
        end = t + round(self._duration(text) / min(r.speed for r in realized))
        self.recorder.emit(
            t,
            UserUtteranceData(
                text=text,
                end_ms=end,
                plan_ids=[p.plan_id for p in plans],
                variant_ids=[r.variant_id for r in realized],
            ),
        )
        self.last_plans = [p.plan_id for p in plans]
        self.clock.advance_to(end)
        self.policy.utterance_finished(self.last_plans)
        return text
