"""APEX-Voice's user flow (a state machine) and agent acts, read for what they imply.

duplexbench's user is a reactive policy, not a state machine: the flow is read
only for which plan answers which act, which event a correction plan speaks,
which events must have happened before an approval, and (by simulating it on
the reference turns) which user plan each reference turn follows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duplexbench.suites._apex_voice.common import (
    FLOW,
    OBSERVER,
    Ctx,
    label,
    mapping,
    seq,
)

ASK_KINDS = ("ASK", "ASK_OPEN", "ASK_CLOSED", "ASK_SLOT", "REQUEST_INFO", "ELICIT")
CONFIRM_KINDS = ("CONFIRM", "VERIFY", "CHECK")
READBACK_KINDS = ("READBACK", "READ_BACK", "RECAP", "SUMMARIZE_BACK")
CLOSE_KINDS = ("CLOSE", "GOODBYE", "END_CALL")


def split_act(act: str) -> tuple[str, str]:
    kind, _, ref = str(act).partition(":")
    return label(kind), ref


@dataclass
class Transition:
    state: str
    index: int
    when: dict[str, Any]
    do: dict[str, Any]
    next: str | None


@dataclass
class Flow:
    start: str | None = None
    on_enter: dict[str, dict[str, Any]] = field(default_factory=dict)
    transitions: list[Transition] = field(default_factory=list)

    def plans(self) -> dict[str, dict[str, Any]]:
        """APEX plan id -> what the flow says about it (act, facts, event, approval action)."""
        out: dict[str, dict[str, Any]] = {}
        for do in self.on_enter.values():
            if do.get("plan_id"):
                out.setdefault(str(do["plan_id"]), dict(do))
        for t in self.transitions:
            plan = t.do.get("plan_id")
            if not plan:
                continue
            info = dict(t.do)
            if t.when.get("approval_request") is not None:
                info["approval_action"] = str(t.when["approval_request"])
            if t.when.get("external_event") is not None and not info.get("event_id"):
                info["event_id"] = str(t.when["external_event"])
            if t.when.get("agent_act") is not None:
                info["agent_act"] = str(t.when["agent_act"])
            out.setdefault(str(plan), info)
        return out

    def events_before(self, state: str) -> set[str]:
        """External events fired on every path from the start to `state`."""
        if self.start is None:
            return set()
        found: list[set[str]] = []

        def walk(at: str, seen: tuple[str, ...], fired: frozenset[str]) -> None:
            if len(found) > 200:
                return
            if at == state:
                found.append(set(fired))
                return
            for t in self.transitions:
                if t.state != at or t.next is None or t.next in seen:
                    continue
                event = t.when.get("external_event")
                walk(t.next, (*seen, t.next), fired | ({str(event)} if event else set()))

        walk(self.start, (self.start,), frozenset())
        return set.intersection(*found) if found else set()


def read_flow(ctx: Ctx) -> Flow:
    doc = ctx.doc(FLOW)
    flow = Flow()
    if doc is None:
        ctx.note(FLOW, "", "flow", "missing; the reactive user policy answers every act")
        return flow
    doc = mapping(doc, FLOW, "")
    flow.start = str(doc["start"]) if doc.get("start") is not None else None
    states = mapping(doc.get("states"), FLOW, "states", {})
    for name, raw_spec in states.items():
        spec = mapping(raw_spec, FLOW, f"states.{name}", {})
        if isinstance(spec.get("on_enter"), dict):
            flow.on_enter[str(name)] = spec["on_enter"]
        for i, raw_t in enumerate(seq(spec.get("transitions"), FLOW, f"states.{name}.transitions")):
            t = mapping(raw_t, FLOW, f"states.{name}.transitions[{i}]")
            when = mapping(t.get("when"), FLOW, f"states.{name}.transitions[{i}].when", {})
            do = mapping(t.get("do"), FLOW, f"states.{name}.transitions[{i}].do", {})
            nxt = str(t["next"]) if t.get("next") is not None else None
            flow.transitions.append(Transition(str(name), i, when, do, nxt))
    ctx.note(
        FLOW,
        "states",
        "state machine",
        "replaced by the reactive user policy: the user answers each act whenever the agent "
        "performs it (no fixed order); the flow fixes which plan answers which act, which "
        "event a correction speaks and which events precede an approval",
    )
    return flow


@dataclass(frozen=True)
class Pattern:
    act: str
    slot: str
    phrase: str


@dataclass(frozen=True)
class ApexObserver:
    """observer.yaml: text patterns of agent acts, and the tool -> act map."""

    patterns: list[Pattern]
    tool_acts: dict[str, str]


def read_patterns(ctx: Ctx) -> ApexObserver:
    """observer.yaml, read; its tool acts other than approval requests are noted."""
    doc = ctx.doc(OBSERVER)
    if doc is None:
        return ApexObserver([], {})
    doc = mapping(doc, OBSERVER, "")
    patterns: list[Pattern] = []
    for i, raw_p in enumerate(seq(doc.get("patterns"), OBSERVER, "patterns")):
        p = mapping(raw_p, OBSERVER, f"patterns[{i}]")
        if not p.get("act") or not p.get("pattern"):
            ctx.note(OBSERVER, f"patterns[{i}]", "pattern", "needs act and pattern; dropped")
            continue
        slot = str(p.get("field") or p.get("slot") or p.get("action") or "")
        patterns.append(Pattern(label(p["act"]), slot, str(p["pattern"])))
    tool_acts = {
        str(k): label(v)
        for k, v in mapping(doc.get("tool_act_map"), OBSERVER, "tool_act_map", {}).items()
    }
    for name, act in tool_acts.items():
        if act != "REQUEST_APPROVAL":
            ctx.note(
                OBSERVER,
                f"tool_act_map.{name}",
                f"tool act {act}",
                "duplexbench reads tool calls by tool kind, not as acts; only approval "
                "requests count as acts",
            )
    return ApexObserver(patterns, tool_acts)


def apex_acts(text: str, patterns: list[Pattern]) -> list[str]:
    """APEX acts of an utterance by its observer patterns (case-insensitive substrings)."""
    low = text.casefold()
    out: list[str] = []
    for p in patterns:
        act = f"{p.act}:{p.slot}" if p.slot else p.act
        if p.phrase.casefold() in low and act not in out:
            out.append(act)
    return out


def simulate(
    flow: Flow,
    turn_acts: list[list[str]],
    event_triggers: dict[str, str],
    approval_requests: list[list[str]],
) -> list[list[str]]:
    """APEX plan ids the flow emits after each reference turn (index i: after turn i)."""
    out: list[list[str]] = []
    state = flow.start
    fired: set[str] = set()
    for acts, requested in zip(turn_acts, approval_requests, strict=True):
        now = {e for e, act in event_triggers.items() if act in acts and e not in fired}
        fired |= now
        plans: list[str] = []
        used: set[int] = set()
        for _ in range(len(flow.transitions) + 1):
            step = next(
                (
                    t
                    for t in flow.transitions
                    if t.state == state and id(t) not in used and _matches(t, acts, now, requested)
                ),
                None,
            )
            if step is None:
                break
            used.add(id(step))
            if step.do.get("plan_id"):
                plans.append(str(step.do["plan_id"]))
            if step.next is not None:
                state = step.next
                enter = flow.on_enter.get(state, {})
                if enter.get("plan_id"):
                    plans.append(str(enter["plan_id"]))
        out.append(plans)
    return out


def _matches(t: Transition, acts: list[str], events: set[str], requested: list[str]) -> bool:
    when = t.when
    if when.get("agent_act") is not None:
        return str(when["agent_act"]) in acts
    if when.get("external_event") is not None:
        return str(when["external_event"]) in events
    if when.get("approval_request") is not None:
        return str(when["approval_request"]) in requested
    return False
