"""The text-channel episode loop: user and agent alternate turns on a media timeline.

Utterances are strings whose durations are estimated from word counts; tool
calls run at the media time the agent makes them. The user policy, the
workbench and the agent are the same ones the audio channel will drive.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from duplexbench.agents.instructions import build_instructions
from duplexbench.agents.protocol import (
    AgentInput,
    AgentSession,
    AgentTurn,
    Privileged,
    TextAgent,
    ToolResultMessage,
    ToolSpec,
)
from duplexbench.items.tool_schema import tool_parameters
from duplexbench.items.workflow import WorkflowItem
from duplexbench.orchestrator.clock import VirtualClock
from duplexbench.trace.events import (
    AgentActs,
    AgentActsData,
    AgentUtterance,
    ApprovalRequested,
    DuplexEventData,
    DuplexEventFired,
    EndReason,
    EpisodeEnd,
    EpisodeEndData,
    EpisodeStart,
    EpisodeStartData,
    FactRevealed,
    FactRevealedData,
    FieldSet,
    HarnessError,
    HarnessErrorData,
    ToolCall,
    ToolCallData,
    TraceEvent,
    UserPlan,
    UserPlanData,
    UserUtterance,
    UtteranceData,
)
from duplexbench.trace.io import Recorder
from duplexbench.users.observer import ActObserver
from duplexbench.users.policy import Observation, Plan, UserPolicy
from duplexbench.users.realization import Realizer
from duplexbench.workbench.runtime import Workbench
from duplexbench.workbench.state import WorkbenchState


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


@dataclass(frozen=True)
class EpisodeSetup:
    item: WorkflowItem
    item_checksum: str
    suite: str
    agent_spec: str
    condition: str = "text"
    repetition: int = 0
    seed: int = 0

    @property
    def repetition_seed(self) -> int:
        key = f"{self.seed}|{self.item.id}|{self.repetition}".encode()
        return int.from_bytes(hashlib.sha256(key).digest()[:4], "big")


@dataclass
class EpisodeRecord:
    events: list[TraceEvent]
    state: WorkbenchState
    end_reason: EndReason
    error: str | None = None

    @property
    def status(self) -> str:
        return "error" if self.error is not None else "ok"


@dataclass
class _Turn:
    acts: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    spoke: bool = False
    end_call: bool = False
    pending: list[ToolResultMessage] = field(default_factory=list)


class TextEpisode:
    """One episode over the text channel."""

    def __init__(
        self,
        setup: EpisodeSetup,
        agent: TextAgent,
        privileged: bool = False,
        config: TextChannelConfig | None = None,
    ) -> None:
        self.setup, self.agent, self.privileged = setup, agent, privileged
        self.config = config or TextChannelConfig()
        self.item = setup.item
        self.clock = VirtualClock()
        self.recorder = Recorder()
        self.bench = Workbench(self.item, self.recorder)
        self.policy = UserPolicy(self.item)
        self.observer = ActObserver(self.item)
        self.realizer = Realizer(self.item.id, self.item.user, setup.seed, setup.repetition_seed)
        self._last_plans: list[str] = []
        self._calls = 0

    def _session(self) -> AgentSession:
        tools = tuple(
            ToolSpec(t.name, t.description, tool_parameters(self.item, t)) for t in self.item.tools
        )
        privileged = None
        if self.privileged:
            privileged = Privileged(self.item.reference, lambda: list(self._last_plans))
        return AgentSession(
            build_instructions(self.item), tools, self.item.id, self.setup.seed, privileged
        )

    def run(self) -> EpisodeRecord:
        session = self._session()
        self._emit_start(session)
        error: str | None = None
        try:
            self.agent.start(session)
            text = self._user_turn(self.policy.opening(), opening=True)
            reason = self._loop(text)
        except Exception as exc:  # an agent or harness fault is an error, not a failure
            error = f"{type(exc).__name__}: {exc}"
            self.recorder.emit(
                HarnessError, self.clock.now_ms(), HarnessErrorData(message=error, where="episode")
            )
            reason = "error"
        finally:
            self._close_agent()
        self.recorder.emit(
            EpisodeEnd, self.clock.now_ms(), EpisodeEndData(reason=reason, detail=error or "")
        )
        return EpisodeRecord(self.recorder.events, self.bench.state, reason, error)

    def _close_agent(self) -> None:
        try:
            self.agent.close()
        except Exception as exc:
            self.recorder.emit(
                HarnessError,
                self.clock.now_ms(),
                HarnessErrorData(message=f"{type(exc).__name__}: {exc}", where="agent.close"),
            )

    def _emit_start(self, session: AgentSession) -> None:
        s = self.setup
        data = EpisodeStartData(
            item_id=self.item.id,
            item_version=self.item.version,
            item_checksum=s.item_checksum,
            suite=s.suite,
            agent=s.agent_spec,
            condition=s.condition,
            repetition=s.repetition,
            seed=s.seed,
            repetition_seed=s.repetition_seed,
            channel="text",
            instructions=session.instructions,
            tools=[
                {"name": t.name, "description": t.description, "parameters": t.parameters}
                for t in session.tools
            ],
        )
        self.recorder.emit(EpisodeStart, 0, data)

    def _loop(self, user_text: str | None) -> EndReason:
        pending: list[ToolResultMessage] = []
        for _ in range(self.config.max_agent_turns):
            if self.clock.now_ms() >= self.config.time_limit_ms:
                return "time_limit"
            first = len(self.recorder.events)
            turn = self._agent_turn(user_text, pending)
            pending = turn.pending
            written = tuple(
                f"{e.data.artifact}.{e.data.field}"
                for e in self.recorder.events[first:]
                if isinstance(e, FieldSet)
            )
            obs = Observation(
                self.clock.now_ms(), tuple(turn.acts), tuple(turn.tools), written, turn.spoke
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
            reply = self.agent.respond(observation)
            results = [
                self._tool_call(c.name, c.arguments, c.call_id, out) for c in reply.tool_calls
            ]
            if reply.say.strip():
                out.acts += self._agent_says(reply)
                out.spoke = True
            out.end_call = out.end_call or reply.end_call
            if not reply.tool_calls or reply.end_call:
                break
            observation = AgentInput(self.clock.now_ms(), None, tuple(results))
        else:
            out.pending = results
        return out

    def _tool_call(
        self, name: str, arguments: object, call_id: str | None, out: _Turn
    ) -> ToolResultMessage:
        self._calls += 1
        call_id = call_id or f"call-{self._calls}"
        t = self.clock.now_ms()
        self.recorder.emit(
            ToolCall, t, ToolCallData(call_id=call_id, name=name, arguments=arguments)
        )
        used = {tok.id for tok in self.bench.auth.tokens if tok.used}
        first = len(self.recorder.events)
        outcome = self.bench.execute(call_id, name, arguments, t)
        for tok in self.bench.auth.tokens:
            if tok.used and tok.id not in used:
                self.policy.consumed(tok.approval_id)
        for event in self.recorder.events[first:]:
            if isinstance(event, ApprovalRequested):  # a formal request is heard like a spoken one
                out.acts.append(f"REQUEST_APPROVAL:{event.data.action}")
        out.tools.append(name)
        return ToolResultMessage(call_id, name, outcome.for_agent())

    def _duration(self, text: str) -> int:
        words = len(text.split())
        return max(self.config.min_utterance_ms, words * self.config.ms_per_word)

    def _agent_says(self, reply: AgentTurn) -> list[str]:
        start = self.clock.now_ms()
        end = start + self._duration(reply.say)
        utterance = self.recorder.emit(
            AgentUtterance, start, UtteranceData(text=reply.say, end_ms=end)
        )
        acts = self.observer.acts(reply.say)
        self.recorder.emit(AgentActs, start, AgentActsData(utterance_seq=utterance.seq, acts=acts))
        for act in acts:
            if act.startswith("REQUEST_APPROVAL:"):
                self.bench.request_approval(act.partition(":")[2], "speech", start)
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
            self._apply_plan(plan, t)
        realized = [self.realizer.realize(p.plan_id, list(p.facts)) for p in plans]
        text = " ".join(r.text for r in realized)
        end = t + self._duration(text)
        self.recorder.emit(
            UserUtterance,
            t,
            UtteranceData(
                text=text,
                end_ms=end,
                plan_ids=[p.plan_id for p in plans],
                variant_ids=[r.variant_id for r in realized],
            ),
        )
        self._last_plans = [p.plan_id for p in plans]
        self.clock.advance_to(end)
        return text

    def _apply_plan(self, plan: Plan, t: int) -> None:
        """Log the plan and put its effects (reveals, approvals, revocations) at speech onset."""
        self.recorder.emit(
            UserPlan,
            t,
            UserPlanData(
                plan_id=plan.plan_id,
                act=plan.act,
                facts=list(plan.facts),
                event_id=plan.event.id if plan.event else None,
                approval_id=plan.approval.id if plan.approval else None,
            ),
        )
        if plan.event is not None:
            data = DuplexEventData(
                event_id=plan.event.id,
                kind=plan.event.kind,
                anchor=plan.anchor,
                delivery=plan.event.delivery,
            )
            self.recorder.emit(DuplexEventFired, t, data)
        for reveal in plan.reveals:
            if reveal.because != "repeat":
                data2 = FactRevealedData(
                    fact=reveal.fact, slot=reveal.slot, rule=reveal.rule, because=reveal.because
                )
                self.recorder.emit(FactRevealed, t, data2)
        if plan.approval is not None:
            self.bench.grant(plan.approval, t)
        if plan.revokes is not None and plan.event is not None:
            self.bench.revoke(plan.revokes, plan.event.id, t)
