"""The viewer's header (who, what, how it ended, the verdict) and score tables.

Workflow episodes show the artifact fields against gold (from result.json,
plus the ungraded fields of workbench.json), with the cause of each wrong one
(failure attribution, docs/metrics.md), and every gate check; action
episodes show the ActionScore verdicts. Every value is escaped.
"""

from __future__ import annotations

from html import escape
from typing import Any

from duplexbench.report._viewer.timeline_rows import fmt_ms, value
from duplexbench.scoring import GATES, ActionScore, EpisodeScore

Result = EpisodeScore | ActionScore


def _e(obj: Any) -> str:
    return escape(str(obj))


def chip(text: str, ok: bool | None, big: bool = False) -> str:
    cls = "chip" + ("" if ok is None else " pass" if ok else " fail") + (" big" if big else "")
    return f'<span class="{cls}">{escape(text)}</span>'


def _mark(ok: bool | None) -> str:
    return "n/a" if ok is None else "✓" if ok else "✗"


def _title(start: dict[str, Any], item: dict[str, Any] | None) -> str:
    if item and item.get("title"):
        return str(item["title"])
    if item and item.get("family") == "action":
        parts = (item.get("condition"), item.get("scenario"), item.get("topic"))
        return " · ".join(str(p) for p in parts if p)
    return str(start.get("item_id", "episode"))


def _workflow_verdict(r: EpisodeScore) -> str:
    chips = [chip(f"WS {r.ws}", r.ws == 1, big=True)]
    chips += [chip(g, r.gates.get(g)) for g in GATES if g in r.gates]
    if r.afa is not None:
        afa = f"AFA {r.afa.correct}/{r.afa.total}"
        chips.append(chip(afa, r.afa.correct == r.afa.total))
    chips.append(chip(f"tool calls {r.tool_calls}/{r.oracle_tool_calls} oracle", None))
    if r.time_to_resolution_ms is not None:
        chips.append(chip(f"resolved at {fmt_ms(r.time_to_resolution_ms)}", None))
    return "".join(chips)


def _action_verdict(r: ActionScore) -> str:
    source = f" ({r.follow_through_source})" if r.follow_through_source else ""
    return "".join(
        [
            chip(f"{r.action} · immediate {_mark(r.immediate)}", r.immediate, big=True),
            chip(f"follow-through {_mark(r.follow_through)}{source}", r.follow_through),
            chip(f"scenario {r.scenario}", None),
        ]
    )


def _verdict(result: Result | None) -> str:
    if result is None:
        return chip("not scored", None)
    if result.status == "error":
        return chip("harness error (left out)", False, big=True) + (
            f'<div class="error">{_e(result.error)}</div>' if result.error else ""
        )
    note = ""
    if result.agent_error:  # scored as a failed episode (docs/metrics.md, "Errors")
        note = chip("agent error (scored as a failure)", False) + (
            f'<div class="error">{_e(result.agent_error)}</div>'
        )
    if isinstance(result, ActionScore):
        return note + _action_verdict(result)
    return note + _workflow_verdict(result)


def render_header(
    events: list[dict[str, Any]],
    item: dict[str, Any] | None,
    result: Result | None,
    duration: str,
) -> str:
    start, end = events[0]["data"], events[-1]["data"]
    reason = str(end.get("reason", "?")) + (f" — {end['detail']}" if end.get("detail") else "")
    meta = [
        ("agent", start.get("agent")),
        ("condition", start.get("condition")),
        ("repetition", start.get("repetition")),
        ("seeds", f"{start.get('seed')} / {start.get('repetition_seed')}"),
        ("channel", start.get("channel")),
        ("duration", duration),
        ("end", reason),
        ("status", "not scored" if result is None else result.status),
    ]
    cells = "".join(f"<div><dt>{k}</dt><dd>{_e(v)}</dd></div>" for k, v in meta)
    return (
        f'<header><h1 id="title">{_e(_title(start, item))}</h1>'
        f'<div class="sub"><code id="item-id">{_e(start.get("item_id"))}</code> '
        f"v{_e(start.get('item_version'))} · suite {_e(start.get('suite'))}</div>"
        f'<dl class="meta">{cells}</dl><div class="verdict" id="verdict">{_verdict(result)}</div>'
        "</header>"
    )


def _field_rows(r: EpisodeScore, workbench: dict[str, Any] | None) -> list[str]:
    rows = []
    for f in r.fields:
        flags = [n for n in ("stale", "missing") if getattr(f, n)]
        flags += ["judged"] if f.judged else []
        flags += ["corrected in the call"] if f.correction_linked else []
        flags += [] if f.required else ["optional"]
        rows.append(
            f'<tr class="{"ok" if f.correct else "bad"}"><td>{_e(f.artifact)}</td>'
            f"<td>{_e(f.field)}</td><td>{_e(value(f.gold))}</td><td>{_e(value(f.predicted))}</td>"
            f"<td>{_e(f.grader)}</td><td>{f.score:g}</td>"
            f'<td class="mark">{_mark(f.correct)} {_e(", ".join(flags))}</td>'
            f'<td class="cause">{_e(f.cause or "")}</td></tr>'
        )
    graded = {(f.artifact, f.field) for f in r.fields}
    artifacts = (workbench or {}).get("artifacts") or {}
    for name, state in artifacts.items() if isinstance(artifacts, dict) else ():
        fields = state.get("fields") if isinstance(state, dict) else None
        for key, val in (fields or {}).items():
            if (name, key) not in graded:
                rows.append(
                    f"<tr><td>{_e(name)}</td><td>{_e(key)}</td><td>—</td><td>{_e(value(val))}</td>"
                    '<td class="dim">not graded</td><td></td><td></td><td></td></tr>'
                )
    return rows


def _lifecycles(workbench: dict[str, Any] | None) -> str:
    artifacts = (workbench or {}).get("artifacts")
    if not isinstance(artifacts, dict) or not artifacts:
        return ""
    parts = [
        f"{_e(name)}: <b>{_e(state.get('lifecycle'))}</b>"
        for name, state in artifacts.items()
        if isinstance(state, dict)
    ]
    executed = (workbench or {}).get("executed_actions") or []
    done = f" · executed: {_e(', '.join(map(str, executed)))}" if executed else ""
    return f"<p>final lifecycle: {' · '.join(parts)}{done}</p>"


def _workflow_scores(r: EpisodeScore, workbench: dict[str, Any] | None) -> str:
    head = (
        "<tr><th>artifact</th><th>field</th><th>gold</th><th>agent value</th><th>grader</th>"
        "<th>score</th><th>correct</th><th>why wrong</th></tr>"
    )
    rows = _field_rows(r, workbench)
    fields = (
        f'<table class="grid" id="fields"><thead>{head}</thead><tbody>{"".join(rows)}</tbody>'
        "</table>"
        if rows
        else '<p class="dim" id="fields">No artifact fields: this item is scored on its '
        "database and actions (see the checks).</p>"
    )
    checks = "".join(
        f'<tr class="{"ok" if c.passed else "bad"}"><td>{_e(c.gate)}</td><td>{_e(c.name)}</td>'
        f'<td class="mark">{_mark(c.passed)}</td></tr>'
        for c in r.checks
    )
    blocked = "".join(
        f'<li class="bad">{_e(b.get("action"))} on {_e(b.get("target"))}: '
        f"{_e(b.get('reason'))}</li>"
        for b in r.blocked_actions
    )
    return (
        '<section class="card" id="scores"><h2>Final artifact vs gold</h2>'
        f"{_lifecycles(workbench)}{fields}<h3>Gate checks</h3>"
        '<table class="grid" id="checks"><thead><tr><th>gate</th><th>check</th><th>passed</th>'
        f"</tr></thead><tbody>{checks}</tbody></table>"
        + (f"<h3>Blocked actions</h3><ul>{blocked}</ul>" if blocked else "")
        + "</section>"
    )


def _action_scores(r: ActionScore) -> str:
    rows: list[tuple[str, Any, bool | None, str]] = [
        ("immediate execution", _mark(r.immediate), r.immediate, r.immediate_reason),
        (
            f"follow-through ({r.follow_through_source or 'not evaluated'})",
            _mark(r.follow_through),
            r.follow_through,
            r.follow_through_reason,
        ),
        ("heuristic follow-through", _mark(r.heuristic_follow_through), None, r.heuristic_reason),
        ("judge follow-through", _mark(r.judge_follow_through), None, ""),
        ("timing", "—" if r.timing_ms is None else f"{r.timing_ms} ms", None, ""),
        ("cue forced", _mark(r.cue_forced), None, ""),
        ("agent words from ASR", _mark(r.transcribed), None, ""),
        ("FDB metrics", value(r.fdb, 400), None, ""),
    ]
    body = "".join(
        f'<tr class="{"" if ok is None else "ok" if ok else "bad"}"><td>{_e(name)}</td>'
        f'<td class="mark">{_e(shown)}</td><td>{_e(why)}</td></tr>'
        for name, shown, ok, why in rows
    )
    title = f"Action verdict: {_e(r.action)} · {_e(r.condition)} · {_e(r.scenario)}"
    return (
        f'<section class="card" id="scores"><h2>{title}</h2><table class="grid" id="verdicts">'
        f"<thead><tr><th>measure</th><th>verdict</th><th>why</th></tr></thead><tbody>{body}"
        "</tbody></table></section>"
    )


def render_scores(result: Result | None, workbench: dict[str, Any] | None) -> str:
    if result is None or result.status == "error":
        return ""
    if isinstance(result, ActionScore):
        return _action_scores(result)
    return _workflow_scores(result, workbench)
