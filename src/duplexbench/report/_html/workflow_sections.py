"""The workflow sections of the HTML report (from `analyze()`'s `workflow` block)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from duplexbench.report._html.attribution_section import attribution
from duplexbench.report._html.charts import (
    BarGroup,
    Point,
    bar_chart,
    esc,
    figure,
    heatmap,
    scatter,
)
from duplexbench.report._html.parts import (
    Cell,
    Links,
    fmt_ms,
    fmt_num,
    fmt_pct,
    fmt_value,
    num,
    rate,
    section,
    table,
)
from duplexbench.report._taxonomy import DIMENSIONS

GATES = ("TS", "PV", "AC", "AV")


def unsupported_cell(block: dict[str, Any] | None) -> Cell:
    """Unsupported correct values / correct values (docs/metrics.md), or why none."""
    if not block:
        return Cell("not recorded")
    n = f"{block['unsupported']} of {block['correct']}"
    if block.get("exempt"):
        return Cell(f"exempt ({block['exempt']})", sort=-1, cls="num")
    return rate(block.get("rate"), block.get("ci95"), n)


def scorecard(wf: dict[str, Any]) -> str:
    rows = []
    for c in wf["scorecard"]:
        ci = c["ci95"]
        rows.append(
            [
                c["run"],
                c["suite"],
                num(c["items"], f"{c['items']} × {c['k']}"),
                num(c["runs"]),
                rate(c["pass_at_1"], ci.get("pass_at_1")),
                rate(c["pass_at_k"], ci.get("pass_at_k")),
                rate(c["reliable_at_k"], ci.get("reliable_at_k")),
                rate(c["afa"], ci.get("afa")),
                rate(c["afa_deterministic"], ci.get("afa_deterministic")),
                unsupported_cell(c.get("unsupported_values")),
                num(c["tool_calls_per_oracle"], fmt_num(c["tool_calls_per_oracle"])),
                num(c["median_time_to_resolution_ms"], fmt_ms(c["median_time_to_resolution_ms"])),
                num(c["errors"]),
            ]
        )
    headers = (
        "run",
        "suite",
        "items × k",
        "valid runs",
        "Pass@1",
        "Pass@k",
        "Reliable@k",
        "AFA",
        "AFA (deterministic)",
        "unsupported values",
        "tool calls / oracle",
        "median time to resolution",
        "errors",
    )
    return table(
        headers,
        rows,
        table_id="scorecard",
        note="95% CIs: percentile bootstrap over items (10,000 resamples, seeded with the run's "
        "seed). AFA is judge-assisted when a judge ran; the deterministic column never is. "
        "Unsupported values: correct values written before any source (user, tool result, "
        "document, record) had them, of all correct values; the oracle is exempt.",
    )


def gates(wf: dict[str, Any]) -> str:
    groups = [
        BarGroup(
            g["run"],
            [g["rates"][k] for k in GATES],
            [f"({g['failures'][k]} failed of {g['episodes']})" for k in GATES],
        )
        for g in wf["gates"]
    ]
    chart = figure(bar_chart(groups, list(GATES), "Gate pass rates per run"), "Gate pass rates")
    rows = [
        [
            g["run"],
            *[rate(g["rates"][k]) for k in GATES],
            *[num(g["failures"][k]) for k in GATES],
            *[num(g["only_failure"][k]) for k in GATES],
            num(g["successes"], f"{g['successes']} / {g['episodes']}"),
        ]
        for g in wf["gates"]
    ]
    headers = (
        "run",
        *GATES,
        *(f"{k} failed" for k in GATES),
        *(f"only {k} failed" for k in GATES),
        "WS = 1",
    )
    return f'<div class="charts">{chart}</div>' + table(headers, rows, table_id="gates")


def floor(wf: dict[str, Any]) -> str:
    rows = []
    for f in wf["floor"]:
        fl = f["floor"] or {}
        cu = f["correction_uptake"] or {}
        rp = f.get("repairs") or {}
        rows.append(
            [
                f["run"],
                rate(fl.get("yield_rate"), n=fl.get("barge_ins")),
                rate(fl.get("ended_naturally_rate"), n=fl.get("barge_ins")),
                num(fl.get("median_stop_latency_ms"), fmt_ms(fl.get("median_stop_latency_ms"))),
                rate(fl.get("unintended_overlap_rate"), n=fl.get("agent_turns")),
                num(rp.get("turns_per_episode"), fmt_num(rp.get("turns_per_episode"), 2)),
                num(rp.get("seconds_per_episode"), fmt_num(rp.get("seconds_per_episode"), 1)),
                rate(cu.get("afa_corrected_fields"), n=cu.get("corrected_fields")),
                rate(cu.get("afa_other_fields"), n=cu.get("other_fields")),
                num(cu.get("gap_points"), fmt_num(cu.get("gap_points"), 1)),
                num(
                    cu.get("av_failures_correction_linked"),
                    f"{cu.get('av_failures_correction_linked', 0)} / {cu.get('av_failures', 0)}",
                ),
            ]
        )
    headers = (
        "run",
        "yield rate (barge-ins)",
        "ended naturally (not a yield)",
        "median stop latency",
        "unintended overlap rate (agent turns)",
        "repair turns per episode",
        "time in repairs per episode (s)",
        "AFA corrected fields",
        "AFA other fields",
        "gap (points)",
        "AV failures with a corrected field wrong",
    )
    note = (
        "Floor control is null on text runs (no floor). Repairs: caller turns answering a "
        "request to repeat, spell, read digits or slow down, and the time from the request "
        "to the end of the answer (docs/metrics.md, Repairs)."
    )
    return table(headers, rows, note=note)


def _heat(rows: list[dict[str, Any]], runs: list[str], metric: str, title: str) -> str:
    values = {}
    for r in rows:
        counts = f"({r['items']} items, {r['runs']} runs)"
        tip = f"{r['value']} · {r['run']}: {fmt_pct(r[metric])} {counts}"
        values[(r["value"], r["run"])] = (r[metric], tip)
    archetypes = sorted({r["value"] for r in rows})
    return figure(heatmap(archetypes, runs, values, title), title)


def _slice_table(rows: list[dict[str, Any]], runs: list[str]) -> str:
    """One row per (value, run), values together so runs compare line by line."""
    order = {run: i for i, run in enumerate(runs)}
    ordered = sorted(rows, key=lambda r: (r["value"], order.get(r["run"], len(order))))
    out = [
        [
            r["value"],
            r["run"],
            num(r["items"]),
            num(r["runs"]),
            rate(r["pass_at_1"]),
            rate(r["afa"], n=r["fields"]),
        ]
        for r in ordered
    ]
    return table(("value", "run", "items", "runs", "Pass@1", "AFA (fields graded)"), out)


def taxonomy(wf: dict[str, Any]) -> str:
    runs = list(dict.fromkeys(c["run"] for c in wf["scorecard"]))
    by_dim: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in wf["taxonomy"]:
        by_dim[r["dimension"]].append(r)
    archetype = by_dim.get("work_archetype", [])
    charts = ""
    if archetype:
        charts = (
            '<div class="charts">'
            + _heat(archetype, runs, "pass_at_1", "Pass@1 by work archetype and run")
            + _heat(archetype, runs, "afa", "AFA by work archetype and run")
            + "</div>"
        )
    parts = [charts]
    for dim in DIMENSIONS:
        if by_dim.get(dim):
            body = _slice_table(by_dim[dim], runs)
            opened = " open" if dim == "work_archetype" else ""
            parts.append(f"<details{opened}><summary>{esc(dim)}</summary>{body}</details>")
    return "".join(parts)


def frontier(wf: dict[str, Any]) -> str:
    points = [
        Point(
            f"{p['run']} ({p['suite']})",
            p["median_time_to_resolution_ms"] / 1000,
            p["reliable_at_k"],
            p["pareto"],
            f"{p['suite']} · {p['condition']}",
        )
        for p in wf["frontier"]
        if p["median_time_to_resolution_ms"] is not None
    ]
    chart = (
        figure(
            scatter(
                points,
                "Reliability-efficiency frontier",
                "median time to resolution (s)",
                "Reliable@k",
            ),
            "Reliable@k vs. median time to resolution (filled: Pareto set)",
        )
        if points
        else '<p class="note">No run resolved a task, so there is no time to plot.</p>'
    )
    rows = [
        [
            p["run"],
            p["suite"],
            p["condition"],
            rate(p["reliable_at_k"]),
            num(p["median_time_to_resolution_ms"], fmt_ms(p["median_time_to_resolution_ms"])),
            Cell("Pareto" if p["pareto"] else "", cls="ok" if p["pareto"] else ""),
        ]
        for p in wf["frontier"]
    ]
    headers = ("run", "suite", "condition", "Reliable@k", "median time to resolution", "frontier")
    return f'<div class="charts">{chart}</div>' + table(
        headers,
        rows,
        note="Pareto set per suite and condition: no other run is at least as reliable and at "
        "least as fast. Runs that resolved nothing have no time (not plotted).",
    )


def _episode_links(links: Links, run_path: str, episodes: list[dict[str, Any]]) -> str:
    parts = []
    for e in episodes:
        status = e.get("status")
        cls = "err" if status == "error" else ("ok" if e.get("ws") == 1 else "fail")
        label = f"r{e['repetition']}" + ("!" if status == "error" else "")
        title = f"error: {e.get('error') or ''}" if status == "error" else ""
        parts.append(links.link(run_path, e.get("path"), label, f"ep {cls}", title))
    return " ".join(parts)


def items(wf: dict[str, Any], links: Links, paths: dict[str, str]) -> str:
    rows = []
    for it in wf["items"]:
        failed = ", ".join(f"{g} {n}" for g, n in it["gate_failures"].items() if n)
        rows.append(
            [
                it["run"],
                it["item_id"],
                Cell(it["title"], cls="text"),
                it["archetype"] or "",
                num(it["runs"]),
                rate(it["pass_at_1"]),
                rate(it["afa"]),
                failed,
                num(it["errors"]),
                Cell(markup=_episode_links(links, paths[it["run"]], it["episodes"]), cls="links"),
            ]
        )
    headers = (
        "run",
        "item",
        "title",
        "archetype",
        "runs",
        "Pass@1",
        "AFA",
        "gate failures",
        "errors",
        "episodes",
    )
    return table(
        headers,
        rows,
        table_id="items",
        filterable=True,
        note="Episode links open the episode's view.html (`duplexbench view`), or its folder.",
    )


def misses(wf: dict[str, Any], links: Links, paths: dict[str, str]) -> str:
    rows = []
    for m in wf["field_misses"]:
        flags = ", ".join(f"{k} {m[k]}" for k in ("missing", "stale", "judged") if m[k])
        eps = " ".join(
            links.link(paths[m["run"]], e["path"], f"r{e['repetition']}", "ep fail")
            for e in m["episodes"]
        )
        rows.append(
            [
                m["run"],
                m["item_id"],
                f"{m['artifact']}.{m['field']}",
                m["grader"] or "",
                Cell(fmt_value(m["gold"]), cls="value"),
                Cell(" | ".join(fmt_value(v) for v in m["predicted"]), cls="value"),
                num(m["misses"] / max(1, m["runs"]), f"{m['misses']} / {m['runs']}"),
                flags,
                Cell(markup=eps, cls="links"),
            ]
        )
    total = wf["field_misses_total"]
    shown = len(wf["field_misses"])
    note = "A miss: the field's score is below 1 (judge-assisted when a judge ran). "
    if total > shown:
        note += f"Showing the {shown} most missed of {total}."
    headers = (
        "run",
        "item",
        "field",
        "grader",
        "gold",
        "agent value(s)",
        "missed",
        "flags",
        "episodes",
    )
    return table(headers, rows, table_id="misses", filterable=True, note=note)


def workflow_sections(wf: dict[str, Any], links: Links, paths: dict[str, str]) -> str:
    if not wf["scorecard"]:
        return ""
    why = attribution(wf)
    return "".join(
        [
            section("scorecard-section", "Workflow scorecard", scorecard(wf)),
            section(
                "gates-section",
                "Gate decomposition",
                gates(wf),
                "WS = TS · PV · AC · AV. Failures count episodes failing a gate; "
                "'only' counts episodes failing that gate alone.",
            ),
            section("floor-section", "Floor control, repairs and correction uptake", floor(wf)),
            section("attribution-section", "Why fields were wrong", why) if why else "",
            section(
                "taxonomy-section",
                "Taxonomy slices",
                taxonomy(wf),
                "Pass@1 and AFA per value of each item dimension (from the item snapshots).",
            ),
            section("frontier-section", "Reliability vs. efficiency", frontier(wf)),
            section("items-section", "Items", items(wf, links, paths)),
            section("misses-section", "Field misses", misses(wf, links, paths)),
        ]
    )
