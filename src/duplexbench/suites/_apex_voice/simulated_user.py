"""APEX-Voice user files -> duplexbench's `user`: persona, goal and approvals here;
facts, events and the realization bank from their modules. Also yields the act
and plan vocabularies the rest of the conversion needs (APEX act -> our act,
APEX plan id -> our plan id)."""

from __future__ import annotations

from typing import Any

from duplexbench.suites._apex_voice.common import (
    EVENTS,
    LATENT,
    PERSONA,
    USER_STATE,
    Ctx,
    label,
    leftover,
    mapping,
    sentence,
    seq,
    words,
)
from duplexbench.suites._apex_voice.duplex_events import Events
from duplexbench.suites._apex_voice.realizations import build_realizations
from duplexbench.suites._apex_voice.taxonomy_labels import map_behavior
from duplexbench.suites._apex_voice.user_facts import (
    Facts,
    UserParts,
    add_aliases,
    build_facts,
    map_act,
)
from duplexbench.suites._apex_voice.user_flow import (
    ASK_KINDS,
    Flow,
    Pattern,
    split_act,
)
from duplexbench.suites._apex_voice.workspace import WorkParts

VERBOSITY = {"LOW": "terse", "TERSE": "terse", "MEDIUM": "normal", "NORMAL": "normal"}
VERBOSITY |= {"HIGH": "verbose", "VERBOSE": "verbose"}


def _persona(ctx: Ctx, state: dict[str, Any]) -> dict[str, Any]:
    persona = mapping(ctx.doc(PERSONA), PERSONA, "", {})
    inner = mapping(state.get("persona"), USER_STATE, "persona", {})
    merged = {**inner, **persona}
    role = str(state.get("role") or "")
    world = ctx.doc(LATENT)
    entities = world.get("entities") if isinstance(world, dict) else None
    entity = entities.get(role) if isinstance(entities, dict) and role else None
    name = entity.get("name") if isinstance(entity, dict) else None
    if not name:
        name = words(role).title() if role else str(state.get("user_id") or "Caller")
        ctx.note(USER_STATE, "role", "persona name", f"not given; used {name!r}")
    out: dict[str, Any] = {"name": str(name)}
    verbosity = merged.get("verbosity")
    if verbosity is not None:
        out["verbosity"] = VERBOSITY.get(label(verbosity), "normal")
        if label(verbosity) not in VERBOSITY:
            ctx.note(PERSONA, "verbosity", f"verbosity {verbosity}", "unknown; used normal")
    profile = state.get("profile")
    out["behavior"] = map_behavior(ctx, profile, USER_STATE, "profile")
    if merged.get("voice_id"):
        ctx.note(
            PERSONA,
            "voice_id",
            f"voice {merged['voice_id']}",
            "APEX voice ids are not speech-bank voices; the default voice is used",
        )
    for key in sorted(set(merged) - {"voice_id", "verbosity"}):
        ctx.note(PERSONA, key, f"persona {key}", "no counterpart in a duplexbench persona")
    return out


def _goal(state: dict[str, Any]) -> str:
    goals = [state.get("goals_primary"), *seq(state.get("goals_secondary"), USER_STATE, "")]
    text_goals = [sentence(str(g)) for g in goals if g]
    if not text_goals:
        delegation = state.get("delegation")
        request = delegation.get("user_outcome_request") if isinstance(delegation, dict) else None
        text_goals = [sentence(str(request or "get the task done"))]
    return " ".join(text_goals)


def _approvals(ctx: Ctx, required: list[str], gated: set[str], flow: Flow) -> dict[str, Any]:
    out: dict[str, Any] = {}
    states = {
        str(t.when["approval_request"]): t.state
        for t in flow.transitions
        if t.when.get("approval_request") is not None
    }
    for i, action in enumerate(required):
        if action not in gated:
            ctx.note(
                "task.yaml",
                f"autonomy.approval_required_for[{i}]",
                action,
                "no gated commit tool performs it; no approval imported",
            )
            continue
        spoken = words(action)
        verb, _, rest = spoken.partition(" ")
        aliases = [spoken, f"{verb} it", f"{verb} the {rest}" if rest else spoken]
        approval: dict[str, Any] = {
            "id": f"approve_{action}",
            "action": action,
            "aliases": list(dict.fromkeys(aliases)),
        }
        if action in states:
            after = sorted(flow.events_before(states[action]))
            if after:
                approval["after"] = after
        out[action] = approval
    return out


USER_KEYS = {
    "schema_version",
    "user_id",
    "role",
    "profile",
    "persona",
    "goals_primary",
    "goals_secondary",
    "delegation",
    "facts",
    "constraints",
}


def _flow_slots(flow: Flow, facts: Facts) -> None:
    """The flow's answers confirm which act reveals which fact."""
    for t in flow.transitions:
        act, fact_ids = t.when.get("agent_act"), t.do.get("facts")
        if act and isinstance(fact_ids, list) and len(fact_ids) == 1:
            kind, ref = split_act(str(act))
            if kind in ASK_KINDS and ref and str(fact_ids[0]) in facts.slots:
                facts.slots.setdefault(ref, facts.slots[str(fact_ids[0])])


def build_user(
    ctx: Ctx, work: WorkParts, required_approvals: list[str], flow: Flow, patterns: list[Pattern]
) -> tuple[UserParts, dict[str, str]]:
    """The `user` section; also returns APEX slot -> our slot."""
    state = mapping(ctx.doc(USER_STATE), USER_STATE, "")
    refs = work.field_refs()
    facts = build_facts(ctx, state, refs)
    approvals = _approvals(ctx, required_approvals, work.gated, flow)
    parts = UserParts(user={})
    parts.approvals = {a: spec["id"] for a, spec in approvals.items()}
    _flow_slots(flow, facts)
    add_aliases(ctx, facts, patterns, approvals)
    events_doc = mapping(ctx.doc(EVENTS), EVENTS, "", {"events": []})
    events = Events(ctx, parts, facts, work.gated).read(events_doc, refs)
    known = {e["id"] for e in events}
    for approval in approvals.values():
        approval["after"] = [e for e in approval.get("after", []) if e in known]
        if not approval["after"]:
            del approval["after"]
    parts.user = {
        "persona": _persona(ctx, state),
        "goal": _goal(state),
        "facts": facts.facts,
        "approvals": list(approvals.values()),
        "events": events,
    }
    for act_key in _all_act_keys(state, patterns, events_doc):
        mapped = map_act(parts, facts.slots, work.gated, act_key)
        if mapped is not None:
            parts.acts[act_key] = mapped
    parts.user["realizations"] = build_realizations(ctx, parts, flow, state)
    leftover(ctx, state, USER_STATE, "", USER_KEYS, why="no counterpart in a duplexbench user")
    for i, c in enumerate(seq(state.get("constraints"), USER_STATE, "constraints")):
        ctx.note(
            USER_STATE,
            f"constraints[{i}]",
            str(c),
            "free-text constraint; the reactive policy reveals facts only by their rules",
        )
    return parts, facts.slots


def _all_act_keys(state: dict[str, Any], patterns: list[Pattern], events: Any) -> list[str]:
    keys: list[str] = []
    for f in state.get("facts") or []:
        reveal = f.get("reveal") if isinstance(f, dict) else None
        if isinstance(reveal, dict):
            keys += [str(a) for a in reveal.get("agent_acts") or []]
    keys += [f"{p.act}:{p.slot}" if p.slot else p.act for p in patterns]
    for e in events.get("events") or []:
        trig = e.get("trigger") if isinstance(e, dict) else None
        if isinstance(trig, dict) and trig.get("agent_act"):
            keys.append(str(trig["agent_act"]))
    return list(dict.fromkeys(keys))
