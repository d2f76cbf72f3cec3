"""APEX-Voice user/realization_bank.jsonl -> duplexbench realizations, placed on our plan ids."""

from __future__ import annotations

from typing import Any

from duplexbench.items import PLACEHOLDER
from duplexbench.suites._apex_voice.common import (
    BANK,
    Ctx,
    label,
    mapping,
    seq,
    text,
    words,
)
from duplexbench.suites._apex_voice.user_facts import UserParts
from duplexbench.suites._apex_voice.user_flow import (
    Flow,
)

GENERIC_PLAN_ACTS = {
    "CONFIRM": "confirm",
    "AFFIRM": "confirm",
    "ACK": "ack",
    "ACKNOWLEDGE": "ack",
    "CLARIFY": "clarify",
    "REQUEST_CLARIFICATION": "clarify",
    "UNKNOWN": "unknown",
    "DONT_KNOW": "unknown",
    "NUDGE": "nudge",
    "CLOSE": "end",
    "GOODBYE": "end",
    "END": "end",
    "BACKCHANNEL": "backchannel",
}
EVENT_PLAN_ACTS = ("CORRECT", "CORRECTION", "REVOKE", "CANCEL", "BARGE_IN", "INTERRUPT")
MIN_VARIANTS, MAX_VARIANTS = 2, 5


def _plan_id(
    parts: UserParts, flow_plans: dict[str, dict[str, Any]], row: dict[str, Any], facts: list[str]
) -> str | None:
    """Our plan id for an APEX plan, or None when it cannot be placed."""
    apex_id = str(row.get("user_plan_id"))
    info = flow_plans.get(apex_id, {})
    act = label(info.get("act") or row.get("speech_act") or "")
    user = parts.user
    fact_ids = {f["id"] for f in user["facts"]}
    if apex_id == "open" or act in ("OPENING_REQUEST", "OPEN", "GREETING"):
        return "open"
    if act in ("ANSWER", "INFORM", "PROVIDE") and len(facts) == 1 and facts[0] in fact_ids:
        return f"answer:{facts[0]}"
    if act in EVENT_PLAN_ACTS:
        event_id = info.get("event_id")
        if event_id is None:
            owners = {e["id"] for e in user["events"] if set(facts) & set(e.get("reveals", []))}
            event_id = owners.pop() if len(owners) == 1 else None
        if event_id is not None and any(e["id"] == event_id for e in user["events"]):
            return f"event:{event_id}"
        return None
    if act in ("APPROVE", "DECLINE"):
        action = info.get("approval_action")
        if action is None and len(parts.approvals) == 1:
            action = next(iter(parts.approvals))
        approval = parts.approvals.get(str(action))
        return None if approval is None else f"{act.lower()}:{approval}"
    return GENERIC_PLAN_ACTS.get(act)


def _bank_row(ctx: Ctx, i: int, value: Any) -> tuple[dict[str, Any], list[str], list[str]]:
    """One realization-bank line: the row, its variant texts, the facts they express."""
    where = f"line {i + 1}"
    row = mapping(value, BANK, where)
    texts: list[str] = []
    expressed: list[str] = []
    for k, v in enumerate(seq(row.get("variants"), BANK, f"{where}.variants")):
        variant = mapping(v, BANK, f"{where}.variants[{k}]")
        texts.append(text(variant.get("text"), BANK, f"{where}.variants[{k}].text"))
        expressed += [str(f) for f in variant.get("expressed_fact_ids") or []]
    return row, texts, list(dict.fromkeys(expressed))


def build_realizations(
    ctx: Ctx, parts: UserParts, flow: Flow, state: dict[str, Any]
) -> dict[str, Any]:
    flow_plans = flow.plans()
    out: dict[str, list[str]] = {}
    for i, value in enumerate(seq(ctx.doc(BANK), BANK, "")):
        row, texts, expressed = _bank_row(ctx, i, value)
        apex_id = str(row.get("user_plan_id"))
        info = flow_plans.get(apex_id, {})
        facts = [str(f) for f in info.get("facts") or []] or expressed
        plan = _plan_id(parts, flow_plans, row, facts)
        if plan is None:
            ctx.note(
                BANK,
                f"line {i + 1}",
                f"plan {apex_id}",
                "cannot be placed on a duplexbench plan; dropped",
            )
            continue
        parts.plans[apex_id] = plan
        for k, t in enumerate(texts):
            if PLACEHOLDER.search(t):
                ctx.note(
                    BANK, f"line {i + 1}.variants[{k}]", t, "braces read as placeholders; dropped"
                )
            elif t not in out.setdefault(plan, []):
                out[plan].append(t)
    for apex_id, info in flow_plans.items():  # flow plans without bank lines
        if apex_id not in parts.plans:
            row = {"user_plan_id": apex_id, "speech_act": info.get("act")}
            plan = _plan_id(parts, flow_plans, row, [str(f) for f in info.get("facts") or []])
            if plan is not None:
                parts.plans[apex_id] = plan
    _fill_bank(ctx, parts, state, out)
    return {k: v for k, v in out.items() if v}


def _fill_bank(
    ctx: Ctx, parts: UserParts, state: dict[str, Any], out: dict[str, list[str]]
) -> None:
    """Plans an item must write (open, events) and the 2-5 variants rule."""
    delegation = state.get("delegation")
    request = delegation.get("user_outcome_request") if isinstance(delegation, dict) else None
    said = words(str(request or "get this done"))
    if not out.get("open"):
        out["open"] = [f"Hi, I need help to {said}.", f"Hello, can you help me {said}?"]
        ctx.note(BANK, "", "plan open", "no opening in the bank; two generic variants written")
    for event in parts.user["events"]:
        plan = f"event:{event['id']}"
        if not out.get(plan):
            out[plan] = (
                ["Sorry, correction: {value}.", "Actually, it's {value}."]
                if event.get("reveals")
                else ["Wait, hold on.", "Sorry, one moment."]
            )
            ctx.note(BANK, "", f"plan {plan}", "no variants in the bank; two generic ones written")
    for plan, variants in out.items():
        if 0 < len(variants) < MIN_VARIANTS:
            ctx.note(BANK, "", f"plan {plan}", "one variant only; repeated (items need 2-5)")
            out[plan] = variants * MIN_VARIANTS
        elif len(variants) > MAX_VARIANTS:
            ctx.note(BANK, "", f"plan {plan}", f"{len(variants)} variants; kept the first 5")
            out[plan] = variants[:MAX_VARIANTS]
