"""APEX-Voice user/events.yaml -> duplexbench duplex events."""

from __future__ import annotations

from typing import Any

from duplexbench.suites._apex_voice.common import (
    EVENTS,
    USER_STATE,
    ApexImportError,
    Ctx,
    ident,
    integer,
    label,
    leftover,
    mapping,
    seq,
)
from duplexbench.suites._apex_voice.user_facts import Facts, UserParts, map_act

EVENT_KINDS = {
    "MID_SPEECH_CORRECTION": "correction",
    "CORRECTION": "correction",
    "SELF_CORRECTION": "correction",
    "BARGE_IN": "barge_in",
    "INTERRUPTION": "barge_in",
    "REVOCATION": "revocation",
    "APPROVAL_REVOCATION": "revocation",
    "CANCELLATION": "cancellation",
    "CANCEL": "cancellation",
    "CLARIFICATION": "clarification",
    "CLARIFICATION_REQUEST": "clarification",
    "BACKCHANNEL": "backchannel",
}
FLOOR_ACTIONS = {"YIELD": "yield", "CONTINUE": "continue", "HOLD": "continue", "NONE": "none"}
DELIVERIES = {"BARGE_IN": "barge_in", "INTERRUPT": "barge_in", "AFTER_TURN": "after_turn"}


EVENT_KEYS = {
    "id",
    "type",
    "kind",
    "trigger",
    "revokes",
    "delivery",
    "expected_floor_action",
    "max_stop_latency_ms",
    "criticality",
    "expected_repairs",
    "start_window_ms",
}


class Events:
    """Reads user/events.yaml into duplexbench events."""

    def __init__(self, ctx: Ctx, parts: UserParts, facts: Facts, gated: set[str]) -> None:
        self.ctx, self.parts, self.facts, self.gated = ctx, parts, facts, gated

    def read(self, doc: dict[str, Any], refs: dict[str, list[str]]) -> list[dict[str, Any]]:
        events = []
        for i, value in enumerate(seq(doc.get("events"), EVENTS, "events")):
            e = mapping(value, EVENTS, f"events[{i}]")
            events.append(self.event(f"events[{i}]", e))
            self._link_repairs(e, f"events[{i}]", refs)
        known = {e["id"] for e in events}
        for event_id in self.facts.by_event:
            if event_id not in known:
                raise ApexImportError(
                    USER_STATE, f"a fact is revealed by unknown event {event_id!r}"
                )
        return events

    def _link_repairs(self, e: dict[str, Any], path: str, refs: dict[str, list[str]]) -> None:
        """`expected_repairs` name the field the facts of a correction fill."""
        known = {ref for found in refs.values() for ref in found}
        by_id = {f["id"]: f for f in self.facts.facts}
        for k, repair in enumerate(seq(e.get("expected_repairs"), EVENTS, path)):
            if str(repair) not in known:
                self.ctx.note(
                    EVENTS,
                    f"{path}.expected_repairs[{k}]",
                    str(repair),
                    "no such artifact field; ignored",
                )
                continue
            for fid in self.facts.by_event.get(str(e.get("id")), []):
                chain = [
                    f
                    for f in self.facts.facts
                    if self.facts.slots.get(f["id"]) == self.facts.slots.get(fid)
                ]
                for fact in chain or [by_id[fid]]:
                    fact.setdefault("field", str(repair))

    def event(self, path: str, e: dict[str, Any]) -> dict[str, Any]:
        ctx = self.ctx
        eid = ident(e.get("id"), EVENTS, f"{path}.id")
        reveals = self.facts.by_event.get(eid, [])
        kind_raw = label(e.get("type") or e.get("kind") or "")
        kind = EVENT_KINDS.get(kind_raw)
        if kind is None:
            kind = "correction" if reveals else "barge_in"
            ctx.note(EVENTS, f"{path}.type", f"event type {kind_raw}", f"unknown; closest: {kind}")
        event: dict[str, Any] = {"id": eid, "kind": kind, "trigger": self.trigger(e, path)}
        if reveals:
            event["reveals"] = reveals
        if e.get("revokes") is not None:
            action = str(e["revokes"])
            if action in self.parts.approvals:
                event["revokes"] = self.parts.approvals[action]
            else:
                ctx.note(EVENTS, f"{path}.revokes", action, "no such approval; nothing revoked")
        delivery = label(e.get("delivery") or "AFTER_TURN")
        event["delivery"] = DELIVERIES.get(delivery, "after_turn")
        if delivery not in DELIVERIES:
            ctx.note(EVENTS, f"{path}.delivery", delivery, "unknown; delivered after the turn")
        floor = label(e.get("expected_floor_action") or "YIELD")
        event["expected_floor_action"] = FLOOR_ACTIONS.get(floor, "yield")
        if floor not in FLOOR_ACTIONS:
            ctx.note(EVENTS, f"{path}.expected_floor_action", floor, "unknown; expected: yield")
        if e.get("max_stop_latency_ms") is not None:
            event["max_stop_latency_ms"] = integer(
                e["max_stop_latency_ms"], EVENTS, f"{path}.max_stop_latency_ms"
            )
        if e.get("criticality") is not None:
            ctx.note(
                EVENTS,
                f"{path}.criticality",
                f"criticality {e['criticality']}",
                "every authored event counts the same in duplexbench",
            )
        if e.get("expected_repairs"):
            ctx.note(
                EVENTS,
                f"{path}.expected_repairs",
                "expected repairs",
                "covered by the stale-fact rule through the facts' `field` links",
            )
        leftover(ctx, e, EVENTS, path, EVENT_KEYS, why="no counterpart on a duplexbench event")
        return event

    def trigger(self, e: dict[str, Any], path: str) -> dict[str, Any]:
        trig = mapping(e.get("trigger"), EVENTS, f"{path}.trigger")
        out: dict[str, Any] = {}
        if trig.get("agent_act") is not None:
            act = map_act(self.parts, self.facts.slots, self.gated, str(trig["agent_act"]))
            if act is None:
                raise ApexImportError(
                    EVENTS,
                    f"trigger act {trig['agent_act']!r} has no counterpart in duplexbench",
                    f"{path}.trigger.agent_act",
                )
            out["act"] = act
            self.parts.event_triggers[str(e["id"])] = str(trig["agent_act"])
            if label(e.get("delivery") or "") in ("BARGE_IN", "INTERRUPT"):
                self.ctx.note(
                    EVENTS,
                    f"{path}.trigger.agent_act",
                    f"barge-in on {trig['agent_act']}",
                    "our listener reads an act when its clause or sentence ends; the offset "
                    "counts from there, so after a short agent turn the barge-in may come "
                    "only after the agent has finished",
                )
        elif trig.get("at_ms") is not None:
            out["at_ms"] = integer(trig["at_ms"], EVENTS, f"{path}.trigger.at_ms")
        elif trig.get("tool") is not None:
            out["tool"] = str(trig["tool"])
        else:
            raise ApexImportError(EVENTS, f"cannot map trigger {trig!r}", f"{path}.trigger")
        window = e.get("start_window_ms")
        if isinstance(window, list) and window:
            out["offset_ms"] = integer(window[0], EVENTS, f"{path}.start_window_ms[0]")
            if len(window) > 1 and window[-1] != window[0]:
                self.ctx.note(
                    EVENTS,
                    f"{path}.start_window_ms",
                    f"start window {window}",
                    f"duplexbench places an event at one offset; used its start {window[0]} ms",
                )
        elif trig.get("offset_ms") is not None:
            out["offset_ms"] = integer(trig["offset_ms"], EVENTS, f"{path}.trigger.offset_ms")
        return out
