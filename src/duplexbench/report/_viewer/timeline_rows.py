"""The viewer's event timeline: one compact, escaped table row per trace event.

Each event type gets a one-line summary built from fragments `(css class, text)`;
the text of every fragment is HTML-escaped when the row is rendered, so a
summary can never carry markup. The episode setup, and any event whose summary
had to be cut short, also gets its JSON (truncated to MAX_RAW) in a collapsed
`<details>`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from html import escape
from typing import Any

Frag = tuple[str, str]
"""A piece of a summary: CSS class ("" for none) and plain text."""

GROUPS: tuple[tuple[str, str], ...] = (
    ("episode", "episode"),
    ("caller", "caller setup"),
    ("user", "user"),
    ("agent", "agent"),
    ("tool", "tools"),
    ("artifact", "artifacts"),
    ("approval", "approvals / actions"),
    ("duplex", "duplex events"),
    ("floor", "floor"),
    ("effect", "line effects"),
    ("replay", "replay"),
)
_GROUP_OF_PREFIX = {
    "episode": "episode",
    "harness": "episode",
    "user": "user",
    "fact": "user",
    "agent": "agent",
    "tool": "tool",
    "knowledge": "tool",
    "artifact": "artifact",
    "database": "artifact",
    "approval": "approval",
    "action": "approval",
    "duplex": "duplex",
    "floor": "floor",
    "replay": "replay",
}
_SETUP_TYPES = {"episode.start", "episode.condition"}
"""Rows that always carry their JSON; the others only when the summary was cut short."""
MAX_VALUE = 160
MAX_TEXT = 600
MAX_RAW = 2000


def group_of(event_type: str) -> str:
    """The filter group of an event type."""
    if event_type == "episode.condition":
        return "caller"
    if event_type == "user.effect":
        return "effect"
    return _GROUP_OF_PREFIX.get(event_type.split(".", 1)[0], "episode")


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def value(obj: Any, limit: int = MAX_VALUE) -> str:
    """A JSON value, compact and truncated (`null` for None)."""
    return clip(json.dumps(obj, ensure_ascii=False, separators=(",", ":")), limit)


def fmt_ms(ms: int | float) -> str:
    """Media time as m:ss.s (h:mm:ss.s past an hour)."""
    tenths = round(ms / 100)
    minutes, rest = divmod(tenths, 600)
    seconds = f"{rest // 10:02d}.{rest % 10}"
    if minutes >= 60:
        return f"{minutes // 60}:{minutes % 60:02d}:{seconds}"
    return f"{minutes}:{seconds}"


def _span(d: dict[str, Any]) -> str:
    return f"{fmt_ms(d.get('start_ms', 0))}–{fmt_ms(d.get('end_ms', 0))}"


def _quote(text: Any) -> Frag:
    return ("", f"“{clip(str(text), MAX_TEXT)}”")


def _change(old: Any, new: Any) -> list[Frag]:
    return [("old", value(old)), ("", " → "), ("new", value(new))]


def _start(d: dict[str, Any]) -> list[Frag]:
    tools = ", ".join(str(t.get("name", "?")) for t in d.get("tools", []) if isinstance(t, dict))
    return [
        ("", f"{d.get('suite')} · agent {d.get('agent')} · {d.get('condition')} · "),
        ("", f"r{d.get('repetition')} · seed {d.get('seed')}/{d.get('repetition_seed')} · "),
        ("", f"{d.get('channel')} channel · tools: {clip(tools, MAX_TEXT) or 'none'}"),
    ]


def _condition(d: dict[str, Any]) -> list[Frag]:
    persona = d.get("persona") or {}
    effects = d.get("effects") or {}
    on = [k for k in ("muffle", "noise", "bursts", "telephony", "frame_drops") if effects.get(k)]
    out = d.get("out_of_turn") or {}
    return [
        ("", f"{d.get('condition')}: caller {persona.get('name')} "),
        ("", f"({persona.get('voice')}, {persona.get('accent')}, speed {persona.get('speed')}) · "),
        ("", f"effects: {', '.join(on) or 'clean line'} · "),
        ("", f"out-of-turn: {out.get('per_minute', 0)}/min · "),
        ("", f"line delay {d.get('line_delay_ms', 0)} ms · decider {d.get('turn_decider')}"),
    ]


def _audio(d: dict[str, Any]) -> list[Frag]:
    line = f" + {d['line_file']}" if d.get("line_file") else ""
    rate = f"{d.get('sample_rate')} Hz, {d.get('frame_ms')} ms frames"
    return [("", f"{d.get('file')}{line} · {fmt_ms(d.get('duration_ms', 0))} · {rate}")]


def _end(d: dict[str, Any]) -> list[Frag]:
    detail = f" — {clip(str(d['detail']), MAX_TEXT)}" if d.get("detail") else ""
    return [("strong", str(d.get("reason"))), ("", detail)]


def _user_utterance(d: dict[str, Any]) -> list[Frag]:
    kind = d.get("kind", "turn")
    frags: list[Frag] = [] if kind == "turn" else [("tag", kind), ("", " ")]
    frags.append(_quote(d.get("text", "")))
    plans = ", ".join(str(p) for p in d.get("plan_ids", []))
    until = f" until {fmt_ms(d.get('end_ms', 0))}" + (f" · {plans}" if plans else "")
    return [*frags, ("dim", until)]


def _agent_utterance(d: dict[str, Any]) -> list[Frag]:
    frags: list[Frag] = [_quote(d.get("text", "")), ("dim", f" {_span(d)}")]
    if d.get("truncated"):
        frags.append(("tag bad", " truncated"))
    if d.get("transcribed"):
        frags.append(("tag", " ASR"))
    return frags


def _plan(d: dict[str, Any]) -> list[Frag]:
    frags: list[Frag] = [("strong", str(d.get("act"))), ("", f" {d.get('plan_id')}")]
    if d.get("facts"):
        frags.append(("dim", f" facts: {', '.join(str(f) for f in d['facts'])}"))
    for key in ("event_id", "approval_id"):
        if d.get(key):
            frags.append(("dim", f" {key.split('_')[0]}: {d[key]}"))
    return frags


def _tool_result(d: dict[str, Any]) -> list[Frag]:
    if d.get("ok"):
        return [("strong", str(d.get("name"))), ("good", " ok "), ("", value(d.get("result")))]
    error = f"{d.get('error_code')}: {d.get('error')}"
    return [("strong", str(d.get("name"))), ("bad", f" failed {clip(error, MAX_TEXT)}")]


def _db_write(d: dict[str, Any]) -> list[Frag]:
    old, new = d.get("old") or {}, d.get("new") or {}
    keys = sorted({*old, *new}, key=str)
    changed = [k for k in keys if old.get(k) != new.get(k)]
    frags: list[Frag] = [("strong", f"{d.get('table')}/{d.get('record')}")]
    for key in changed[:6]:
        frags += [("", f" {key}: "), *_change(old.get(key), new.get(key))]
    return frags


def _effect(d: dict[str, Any]) -> list[Frag]:
    params = ", ".join(f"{k}={v}" for k, v in (d.get("params") or {}).items())
    return [("strong", str(d.get("effect"))), ("", f" {_span(d)}"), ("dim", f" {params}")]


def _error(d: dict[str, Any]) -> list[Frag]:
    return [("bad", f"{d.get('where')}: {clip(str(d.get('message')), MAX_TEXT)}")]


def _acts(d: dict[str, Any]) -> list[Frag]:
    return [("strong", " ".join(map(str, d.get("acts", [])))), ("", " "), _quote(d.get("text", ""))]


def _truncated(d: dict[str, Any]) -> list[Frag]:
    return [("bad", f"dropped {d.get('dropped_ms')} ms, unheard: "), _quote(d.get("unheard_text"))]


def _usage(d: dict[str, Any]) -> list[Frag]:
    return [("dim", ", ".join(f"{k} {v}" for k, v in d.items()))]


def _yielded(d: dict[str, Any]) -> list[Frag]:
    plans = ", ".join(map(str, d.get("plan_ids", [])))
    return [("bad", f"yielded, dropped {d.get('dropped_ms')} ms"), ("dim", f" {plans}")]


def _fact(d: dict[str, Any]) -> list[Frag]:
    why = f" ({d.get('rule')}, because {d.get('because')})"
    return [("strong", str(d.get("fact"))), ("", f" → slot {d.get('slot')}"), ("dim", why)]


def _duplex(d: dict[str, Any]) -> list[Frag]:
    return [
        ("strong", f"{d.get('kind')} {d.get('event_id')}"),
        ("", f" {d.get('delivery')}"),
        ("dim", f" anchor {d.get('anchor')}"),
    ]


def _call(d: dict[str, Any]) -> list[Frag]:
    args = value(d.get("arguments"), MAX_TEXT)
    return [("strong", str(d.get("name"))), ("", f"({args})"), ("dim", f" {d.get('call_id')}")]


def _search(d: dict[str, Any]) -> list[Frag]:
    docs = ", ".join(map(str, d.get("documents", [])))
    return [_quote(d.get("query", "")), ("", f" → {docs}")]


def _field(d: dict[str, Any]) -> list[Frag]:
    name: Frag = ("strong", f"{d.get('artifact')}.{d.get('field')} ")
    return [name, *_change(d.get("old"), d.get("new")), ("dim", f" fact {d.get('fact_version')}")]


def _lifecycle(d: dict[str, Any]) -> list[Frag]:
    return [("strong", f"{d.get('artifact')} lifecycle "), *_change(d.get("old"), d.get("new"))]


def _on(d: dict[str, Any]) -> str:
    return f" on {d['target']}" if d.get("target") is not None else ""


def _requested(d: dict[str, Any]) -> list[Frag]:
    return [("strong", str(d.get("action"))), ("", f" requested via {d.get('via')}")]


def _granted(d: dict[str, Any]) -> list[Frag]:
    return [
        ("good", f"granted {d.get('action')}"),
        ("", _on(d)),
        ("dim", f" {d.get('approval_id')} {d.get('token')}"),
    ]


def _revoked(d: dict[str, Any]) -> list[Frag]:
    by = f" {d.get('token')} by {d.get('event_id')}"
    return [("bad", f"revoked {d.get('approval_id')}"), ("dim", by)]


def _executed(d: dict[str, Any]) -> list[Frag]:
    return [
        ("good", f"executed {d.get('action')}"),
        ("", _on(d)),
        ("dim", f" token {d.get('token')}"),
    ]


def _blocked(d: dict[str, Any]) -> list[Frag]:
    return [("bad", f"BLOCKED {d.get('action')}{_on(d)}: {d.get('reason')}")]


def _segment(d: dict[str, Any]) -> list[Frag]:
    return [("strong", str(d.get("channel"))), ("", f" speech {_span(d)}")]


def _overlap(d: dict[str, Any]) -> list[Frag]:
    who = f"overlap {_span(d)} started by {d.get('initiator')}"
    return [("", who), ("dim", f" barge-in {d.get('barge_in')}")]


def _floor_yield(d: dict[str, Any]) -> list[Frag]:
    ok = bool(d.get("yielded"))
    latency = f" stop latency {d.get('stop_latency_ms')} ms (max {d.get('max_stop_latency_ms')})"
    verdict: Frag = ("good", "yielded") if ok else ("bad", "did not yield")
    return [verdict, ("", f" to {d.get('event_id')}:{latency}")]


def _replay_segment(d: dict[str, Any]) -> list[Frag]:
    role: Frag = ("tag", f"{d.get('role')}/{d.get('part')}")
    return [role, ("", " "), _quote(d.get("text", "")), ("dim", f" {_span(d)}")]


def _cue(d: dict[str, Any]) -> list[Frag]:
    forced: Frag = ("bad", " forced") if d.get("forced") else ("", "")
    where: Frag = ("", f" {_span(d)} {d.get('controller')}")
    return [("strong", "cue"), where, forced, ("dim", f" {d.get('reason')}")]


def _stopped(d: dict[str, Any]) -> list[Frag]:
    return [
        ("bad", f"user stopped, dropped {d.get('dropped_ms')} ms"),
        ("dim", f" {d.get('reason')}"),
    ]


Summary = Callable[[dict[str, Any]], list[Frag]]
SUMMARIES: dict[str, Summary] = {
    "episode.start": _start,
    "episode.condition": _condition,
    "episode.audio": _audio,
    "episode.end": _end,
    "harness.error": _error,
    "agent.acts": _acts,
    "agent.utterance": _agent_utterance,
    "agent.truncated": _truncated,
    "agent.usage": _usage,
    "user.plan": _plan,
    "user.utterance": _user_utterance,
    "user.yielded": _yielded,
    "fact.revealed": _fact,
    "duplex.event": _duplex,
    "tool.call": _call,
    "tool.result": _tool_result,
    "knowledge.search": _search,
    "artifact.field": _field,
    "artifact.lifecycle": _lifecycle,
    "database.write": _db_write,
    "approval.requested": _requested,
    "approval.granted": _granted,
    "approval.revoked": _revoked,
    "action.executed": _executed,
    "action.blocked": _blocked,
    "floor.segment": _segment,
    "floor.overlap": _overlap,
    "floor.yield": _floor_yield,
    "user.effect": _effect,
    "replay.segment": _replay_segment,
    "replay.cue": _cue,
    "replay.user_stopped": _stopped,
}


def seek_ms(event: dict[str, Any]) -> int:
    """Where a click on the row seeks: the start of what the event describes."""
    data = event.get("data") or {}
    for key in ("start_ms", "onset_ms"):
        if isinstance(data.get(key), int):
            return int(data[key])
    return int(event.get("t_ms", 0))


def render_frags(frags: list[Frag]) -> str:
    return "".join(
        f'<span class="{escape(cls)}">{escape(text)}</span>' if cls else escape(text)
        for cls, text in frags
        if text
    )


def summary(event: dict[str, Any]) -> list[Frag]:
    data = event.get("data") or {}
    fn = SUMMARIES.get(str(event.get("type")))
    return fn(data) if fn is not None else [("", value(data, MAX_TEXT))]


def render_row(event: dict[str, Any]) -> str:
    """One `<tr>`: time, actor, type, summary (all escaped); `data-t` is where it seeks."""
    etype, t_ms, seek = str(event.get("type")), int(event.get("t_ms", 0)), seek_ms(event)
    frags = summary(event)
    raw = ""
    if etype in _SETUP_TYPES or any(text.endswith("…") for _, text in frags):
        body = escape(value(event.get("data"), MAX_RAW))
        raw = f"<details><summary>json</summary><pre>{body}</pre></details>"
    actor = escape(str(event.get("actor")))
    return (
        f'<tr class="g-{escape(group_of(etype))} a-{actor}" data-t="{seek}">'
        f"<td>{fmt_ms(t_ms)}</td><td>{actor}</td><td>{escape(etype)}</td>"
        f"<td>{render_frags(frags)}{raw}</td></tr>"
    )
