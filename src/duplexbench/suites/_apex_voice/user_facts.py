"""APEX-Voice user facts -> duplexbench facts: reveal rules, `supersedes` chains, the
slots agents ask for (with the observer's phrases as aliases) and field links; and
the APEX act -> duplexbench act mapping."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duplexbench.suites._apex_voice.common import (
    OBSERVER,
    USER_STATE,
    Ctx,
    ident,
    label,
    leftover,
    mapping,
    seq,
    words,
)
from duplexbench.suites._apex_voice.user_flow import (
    ASK_KINDS,
    CLOSE_KINDS,
    CONFIRM_KINDS,
    READBACK_KINDS,
    Pattern,
    split_act,
)


@dataclass
class UserParts:
    user: dict[str, Any]
    acts: dict[str, str] = field(default_factory=dict)
    """APEX act key (as used by the package) -> our act."""
    plans: dict[str, str] = field(default_factory=dict)
    """APEX plan id -> our plan id."""
    approvals: dict[str, str] = field(default_factory=dict)
    """Action -> approval id."""
    event_triggers: dict[str, str] = field(default_factory=dict)
    """APEX event id -> the APEX act that triggers it."""


@dataclass
class Facts:
    facts: list[dict[str, Any]]
    slots: dict[str, str]
    """APEX slot (an act's reference) -> our slot (root fact id)."""
    by_event: dict[str, list[str]]


def _root(raw: dict[str, dict[str, Any]], fact_id: str) -> str:
    seen: set[str] = set()
    while fact_id in raw and raw[fact_id].get("supersedes") and fact_id not in seen:
        seen.add(fact_id)
        fact_id = str(raw[fact_id]["supersedes"])
    return fact_id


def _read_facts(ctx: Ctx, state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    raw: dict[str, dict[str, Any]] = {}
    for i, value in enumerate(seq(state.get("facts"), USER_STATE, "facts")):
        f = mapping(value, USER_STATE, f"facts[{i}]")
        fid = ident(f.get("id"), USER_STATE, f"facts[{i}].id")
        if "value" not in f:
            ctx.note(USER_STATE, f"facts[{i}]", f"fact {fid}", "has no value; imported as null")
        raw[fid] = f
        used = {"id", "value", "reveal", "supersedes", "say", "aliases"}
        leftover(ctx, f, USER_STATE, f"facts[{i}]", used, why="no counterpart on a fact")
    return raw


def _reveal_rule(ctx: Ctx, fid: str, reveal: Any, path: str, *, out: Facts, root: str) -> str:
    """Our reveal rule of one fact; records the event that reveals it and its ASK slots."""
    if isinstance(reveal, str) and label(reveal) in ("VOLUNTEER", "OPENING", "AT_START"):
        return "volunteer"
    if not isinstance(reveal, dict):
        if reveal is not None:
            ctx.note(USER_STATE, path, f"reveal {reveal!r}", "unknown rule; revealed when asked")
        return "when_asked"
    rule = "volunteer" if reveal.get("volunteer") or reveal.get("at_start") else "when_asked"
    events = [str(e) for e in seq(reveal.get("events"), USER_STATE, f"{path}.events")]
    acts = [str(a) for a in seq(reveal.get("agent_acts"), USER_STATE, f"{path}.agent_acts")]
    for e in events:
        out.by_event.setdefault(e, []).append(fid)
    if events and acts:
        ctx.note(
            USER_STATE,
            path,
            f"fact {fid} agent_acts",
            "on_event facts are revealed only by their event; the asking acts are ignored",
        )
    for k, act in enumerate(acts):
        kind, ref = split_act(act)
        if kind in ASK_KINDS and ref:
            out.slots.setdefault(ref, root)
        else:
            ctx.note(
                USER_STATE,
                f"{path}.agent_acts[{k}]",
                act,
                "only ASK acts reveal a fact here; revealed when asked for its slot",
            )
    used = {"events", "agent_acts", "volunteer", "at_start"}
    leftover(ctx, reveal, USER_STATE, path, used, why="no reveal rule for it")
    return "on_event" if events else rule


def build_facts(ctx: Ctx, state: dict[str, Any], field_refs: dict[str, list[str]]) -> Facts:
    raw = _read_facts(ctx, state)
    out = Facts([], {}, {})
    for i, (fid, f) in enumerate(raw.items()):
        fact: dict[str, Any] = {"id": fid, "value": f.get("value")}
        if f.get("say") is not None:
            fact["say"] = str(f["say"])
        if f.get("supersedes") is not None:
            fact["supersedes"] = ident(f["supersedes"], USER_STATE, f"facts[{i}].supersedes")
        where = f"facts[{i}].reveal"
        rule = _reveal_rule(ctx, fid, f.get("reveal"), where, out=out, root=_root(raw, fid))
        if rule != "when_asked":
            fact["reveal"] = rule
        if f.get("aliases"):
            fact["aliases"] = [str(a) for a in seq(f["aliases"], USER_STATE, f"facts[{i}].aliases")]
        out.facts.append(fact)
    for fid in raw:
        out.slots.setdefault(fid, _root(raw, fid))
    _link_fields(out, raw, field_refs)
    return out


def _link_fields(out: Facts, raw: dict[str, dict[str, Any]], refs: dict[str, list[str]]) -> None:
    """`field` of each fact: a field of the same name (or named by the fact's slot)."""
    by_id = {f["id"]: f for f in out.facts}
    for fact in out.facts:
        names = [fact["id"]] + [s for s, r in out.slots.items() if r == fact["id"]]
        for name in names:
            if len(refs.get(name, [])) == 1:
                fact["field"] = refs[name][0]
                break
    for fact in out.facts:  # versions of one slot fill the same field
        root = by_id.get(_root(raw, fact["id"]))
        if root is not None and "field" not in fact and "field" in root:
            fact["field"] = root["field"]
        if root is not None and "field" in fact and "field" not in root:
            root["field"] = fact["field"]


def add_aliases(ctx: Ctx, facts: Facts, patterns: list[Pattern], approvals: dict[str, Any]) -> None:
    by_id = {f["id"]: f for f in facts.facts}
    for slot, root in facts.slots.items():
        if slot not in by_id and root in by_id:
            by_id[root].setdefault("aliases", []).append(words(slot))
    for i, p in enumerate(patterns):
        where = f"patterns[{i}]"
        if p.act == "REQUEST_APPROVAL" and p.slot in approvals:
            approvals[p.slot].setdefault("aliases", []).append(p.phrase)
            continue
        target = facts.slots.get(p.slot)
        if (p.act in ASK_KINDS or p.act in CONFIRM_KINDS) and target in by_id:
            aliases = by_id[target].setdefault("aliases", [])
            if p.phrase not in aliases:
                aliases.append(p.phrase)
            continue
        ctx.note(
            OBSERVER,
            where,
            f"{p.act}:{p.slot} {p.phrase!r}",
            "no fact or gated action to attach it to; dropped",
        )


def map_act(parts: UserParts, slots: dict[str, str], gated: set[str], act: str) -> str | None:
    """An APEX act key as our observer's act, or None."""
    kind, ref = split_act(act)
    if kind in ASK_KINDS and ref in slots:
        return f"ASK:{slots[ref]}"
    if kind in CONFIRM_KINDS and ref in slots:
        return f"CONFIRM:{slots[ref]}"
    if kind == "REQUEST_APPROVAL" and ref in gated:
        return f"REQUEST_APPROVAL:{ref}"
    if kind in READBACK_KINDS:
        return "READBACK"
    if kind in CLOSE_KINDS:
        return "CLOSE"
    return None
