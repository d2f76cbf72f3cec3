"""What every episode loop shares: setup, the recorder, the Workbench, the user
policy, start/end events, plan effects at speech onset and tool execution."""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field
from typing import Literal, Protocol

from duplexbench.agents import (
    AgentSession,
    Privileged,
    ToolResultMessage,
    ToolSpec,
    build_instructions,
)
from duplexbench.audio import Int16Array
from duplexbench.items import WorkflowItem, tool_parameters
from duplexbench.trace import (
    ApprovalRequested,
    ConditionSetupData,
    DuplexEventData,
    EndReason,
    EpisodeEndData,
    EpisodeStartData,
    ErrorKind,
    FactRevealedData,
    FieldSet,
    HarnessErrorData,
    Recorder,
    ToolCallData,
    TraceEvent,
    UserPlanData,
    UserRepairData,
)
from duplexbench.users import (
    NEUTRAL,
    ActObserver,
    ObserverConfig,
    Plan,
    Realizer,
    RepairTraits,
    UserPolicy,
    get_persona,
    persona_answers,
    simulator_identity,
)
from duplexbench.workbench import Workbench, WorkbenchState, json_problem


@dataclass(frozen=True)
class EpisodeSetup:
    item: WorkflowItem
    item_checksum: str
    suite: str
    agent_spec: str
    condition: str = "text"
    repetition: int = 0
    seed: int = 0
    observer: ObserverConfig = field(default_factory=ObserverConfig)
    """Which act observer the simulated user uses (recorded in `episode.condition`)."""

    @property
    def repetition_seed(self) -> int:
        return repetition_seed(self.seed, self.item.id, self.repetition)


def repetition_seed(seed: int, item_id: str, repetition: int) -> int:
    """The seed of one repetition, derived from the campaign seed."""
    key = f"{seed}|{item_id}|{repetition}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:4], "big")


class SetupLike(Protocol):
    """What `episode.start` records of a setup (workflow or action episodes)."""

    @property
    def item_checksum(self) -> str: ...
    @property
    def suite(self) -> str: ...
    @property
    def agent_spec(self) -> str: ...
    @property
    def condition(self) -> str: ...
    @property
    def repetition(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def repetition_seed(self) -> int: ...


def start_data(
    s: SetupLike,
    item_id: str,
    item_version: str,
    session: AgentSession,
    channel: Literal["text", "audio"],
) -> EpisodeStartData:
    return EpisodeStartData(
        item_id=item_id,
        item_version=item_version,
        item_checksum=s.item_checksum,
        suite=s.suite,
        agent=s.agent_spec,
        condition=s.condition,
        repetition=s.repetition,
        seed=s.seed,
        repetition_seed=s.repetition_seed,
        channel=channel,
        instructions=session.instructions,
        tools=[
            {"name": t.name, "description": t.description, "parameters": t.parameters}
            for t in session.tools
        ],
    )


@dataclass
class EpisodeRecord:
    events: list[TraceEvent]
    state: WorkbenchState
    end_reason: EndReason
    error: str | None = None
    audio: tuple[Int16Array, Int16Array] | None = None
    """(user channel as sent, agent channel as delivered), 16 kHz, on the audio channel."""
    line: Int16Array | None = None
    """The user channel as the agent received it (after the line effects); None: clean."""
    error_kind: ErrorKind | None = None
    """With an error: the agent's or the harness's (`orchestrator/_blame.py`)."""

    @property
    def status(self) -> str:
        return "error" if self.error is not None else "ok"


@dataclass
class ToolRun:
    """A tool call's result for the agent, the acts it amounts to (a formal approval
    request is heard like a spoken one) and the artifact fields it wrote."""

    result: ToolResultMessage
    acts: list[str] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)


MAX_SHOWN = 1000
"""Characters of `repr` kept for arguments that cannot be logged as JSON."""


def loggable(arguments: object) -> object:
    """What the trace records of an agent's tool arguments.

    A private copy when they are plain JSON (an agent that edits its object
    later cannot rewrite the trace); otherwise, since the workbench refuses
    them anyway, a marker with the reason and a cut `repr` (never a value
    the trace writer cannot write: lone surrogates, huge ints, deep nesting).
    """
    problem = json_problem(arguments)
    if problem is None:
        return copy.deepcopy(arguments)
    try:
        shown = repr(arguments)[:MAX_SHOWN].encode("utf-8", "replace").decode("utf-8")
    except Exception:  # repr itself can fail (deep nesting, huge ints)
        shown = f"<{type(arguments).__name__}>"
    return {"unloggable_arguments": problem, "repr": shown}


class EpisodeCore:
    def __init__(self, setup: EpisodeSetup, privileged: bool) -> None:
        self.setup, self.privileged = setup, privileged
        self.item = setup.item
        self.recorder = Recorder()
        self.bench = Workbench(self.item, self.recorder)
        self.observer = ActObserver(self.item, setup.observer)
        self.policy = UserPolicy(
            self.item,
            self.observer,
            persona_answers(self.item.user.persona),
            RepairTraits.of(get_persona(NEUTRAL)),  # the text caller repairs as the clean one
        )
        self.simulator = simulator_identity(setup.observer)
        self.realizer = Realizer(self.item.id, self.item.user, setup.seed, setup.repetition_seed)
        self.last_plans: list[str] = []
        self.backchanneled = False
        self._calls = 0

    def session(self) -> AgentSession:
        tools = tuple(
            ToolSpec(t.name, t.description, tool_parameters(self.item, t)) for t in self.item.tools
        )
        privileged = None
        if self.privileged:
            privileged = Privileged.for_item(
                self.item,
                self.observer.acts,
                lambda: list(self.last_plans),
                lambda: self.backchanneled,
            )
        return AgentSession(
            build_instructions(self.item), tools, self.item.id, self.setup.seed, privileged
        )

    def emit_start(self, session: AgentSession, channel: Literal["text", "audio"]) -> None:
        data = start_data(self.setup, self.item.id, self.item.version, session, channel)
        self.recorder.emit(0, data)

    def emit_simulator(self) -> None:
        """Text channel: the caller (the item's persona) and the simulator, as
        `episode.condition` (the audio channel writes its frozen caller there)."""
        persona = self.item.user.persona
        data = ConditionSetupData(
            condition=self.setup.condition,
            persona={"name": persona.name, "verbosity": persona.verbosity},
            turn_taking={},
            simulator=self.simulator,
        )
        self.recorder.emit(0, data)

    def emit_error(self, t_ms: int, message: str, where: str) -> None:
        self.recorder.emit(t_ms, HarnessErrorData(message=message, where=where))

    def emit_end(
        self, t_ms: int, reason: EndReason, detail: str = "", error_kind: ErrorKind | None = None
    ) -> None:
        data = EpisodeEndData(reason=reason, detail=detail, error_kind=error_kind)
        self.recorder.emit(t_ms, data)

    def apply_plan(self, plan: Plan, t: int) -> None:
        """Log a plan and put its effects (reveals, approvals, revocations) at speech onset."""
        self.recorder.emit(
            t,
            UserPlanData(
                plan_id=plan.plan_id,
                act=plan.act,
                facts=list(plan.facts),
                event_id=plan.event.id if plan.event else None,
                approval_id=plan.approval.id if plan.approval else None,
                slots=list(plan.slots),
            ),
        )
        if plan.event is not None:
            data = DuplexEventData(
                event_id=plan.event.id,
                kind=plan.event.kind,
                anchor=plan.anchor,
                delivery=plan.event.delivery,
            )
            self.recorder.emit(t, data)
        if plan.repair is not None:
            r = plan.repair
            repair = UserRepairData(
                kind=r.kind, request=r.request, slot=r.slot, fact=r.fact, style=r.style,
                count=r.count, over_budget=r.over_budget, rate=r.rate, plan_id=plan.plan_id,
            )  # fmt: skip
            self.recorder.emit(t, repair)
        for reveal in plan.reveals:
            if reveal.because != "repeat":
                data2 = FactRevealedData(
                    fact=reveal.fact, slot=reveal.slot, rule=reveal.rule, because=reveal.because
                )
                self.recorder.emit(t, data2)
        if plan.approval is not None:
            self.bench.grant(plan.approval, t, plan.read_back)
        if plan.revokes is not None and plan.event is not None:
            self.bench.revoke(plan.revokes, plan.event.id, t)

    def run_tool(self, name: str, arguments: object, call_id: str | None, t: int) -> ToolRun:
        """Log and execute one tool call at media time `t`."""
        self._calls += 1
        call_id = call_id or f"call-{self._calls}"
        data = ToolCallData(call_id=call_id, name=name, arguments=loggable(arguments))
        self.recorder.emit(t, data)
        used = {tok.id for tok in self.bench.auth.tokens if tok.used}
        first = len(self.recorder.events)
        outcome = self.bench.execute(call_id, name, arguments, t)
        for tok in self.bench.auth.tokens:
            if tok.used and tok.id not in used:
                self.policy.consumed(tok.approval_id)
        run = ToolRun(ToolResultMessage(call_id, name, outcome.for_agent()))
        for event in self.recorder.events[first:]:
            if isinstance(event, ApprovalRequested):
                run.acts.append(f"REQUEST_APPROVAL:{event.data.action}")
            elif isinstance(event, FieldSet):
                run.fields.append(f"{event.data.artifact}.{event.data.field}")
        return run

    def heard_acts(self, acts: list[str], t: int) -> None:
        """Side effects of acts the user heard: a spoken approval request is logged."""
        for act in acts:
            if act.startswith("REQUEST_APPROVAL:"):
                self.bench.request_approval(act.partition(":")[2], "speech", t)

    def record(
        self,
        reason: EndReason,
        error: str | None,
        audio: tuple[Int16Array, Int16Array] | None,
        error_kind: ErrorKind | None = None,
    ) -> EpisodeRecord:
        return EpisodeRecord(
            self.recorder.events, self.bench.state, reason, error, audio, error_kind=error_kind
        )
