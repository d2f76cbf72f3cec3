"""The action, interaction and comparison sections of the HTML report."""

from __future__ import annotations

from typing import Any

from duplexbench.report._html.charts import BarGroup, bar_chart, esc, figure
from duplexbench.report._html.parts import (
    Cell,
    Links,
    fmt_num,
    fmt_pct,
    num,
    rate,
    section,
    sub,
    table,
)

PANEL = (
    ("response_latency", "response latency L_R"),
    ("response_rate", "response rate R_R"),
    ("yield_latency", "yield latency L_Y"),
    ("yield_rate", "yield rate R_Y"),
    ("ended_naturally_rate", "ended naturally (not a yield)"),
    ("agent_interruption_rate", "agent interruptions I_A"),
    ("selectivity_backchannel", "selectivity S_BC"),
    ("selectivity_vocal_tic", "selectivity S_VT"),
    ("selectivity_non_directed", "selectivity S_ND"),
    ("selectivity", "selectivity (mean)"),
)


def _timing(t: dict[str, Any] | None) -> Cell:
    if not t or not t.get("n"):
        return Cell("")
    name = str(t["metric"]).removesuffix("_ms").replace("_", " ")
    text = f"{name}: {t['median']:.0f} ms ({t['q1']:.0f}–{t['q3']:.0f}, n={t['n']})"
    return Cell(text, sort=t["median"])


def action_chart(rows: list[dict[str, Any]]) -> str:
    runs = list(dict.fromkeys(r["run"] for r in rows))
    actions = list(dict.fromkeys(r["action"] for r in rows))
    by = {(r["run"], r["action"]): r for r in rows}
    series = [f"{run} · {m}" for run in runs for m in ("I", "S")]
    groups = []
    for action in actions:
        values: list[float | None] = []
        notes = []
        for run in runs:
            r = by.get((run, action), {})
            values += [r.get("immediate"), r.get("subsequent")]
            notes += [f"(n={r.get('n', 0)})", f"(n_S={r.get('n_s', 0)})"]
        groups.append(BarGroup(action, values, notes))
    title = "Immediate execution I and follow-through S per action"
    return figure(bar_chart(groups, series, title), title)


def per_action(rows: list[dict[str, Any]]) -> str:
    out = [
        [
            r["run"],
            r["action"],
            rate(r.get("immediate"), n=r.get("n")),
            num(r.get("n_na")),
            rate(r.get("subsequent"), n=r.get("n_s")),
            rate(r.get("follow_through_failure")),
            rate(r["subsequent_judge"], n=r.get("n_s_judge")) if "subsequent_judge" in r else "–",
            _timing(r.get("timing")),
            num(r.get("errors")),
        ]
        for r in rows
    ]
    headers = (
        "run",
        "action",
        "I (n)",
        "n/a",
        "S offline (n_S)",
        "follow-through failure",
        "S judge (n)",
        "timing median (q1–q3, n)",
        "errors",
    )
    return table(headers, out, table_id="actions")


def per_condition(rows: list[dict[str, Any]]) -> str:
    out = [
        [
            r["run"],
            r["action_condition"],
            rate(r.get("immediate"), n=r.get("n")),
            rate(r.get("subsequent"), n=r.get("n_s")),
            rate(r["subsequent_judge"], n=r.get("n_s_judge")) if "subsequent_judge" in r else "–",
            num(r.get("errors")),
        ]
        for r in rows
    ]
    return table(("run", "condition", "I (n)", "S (n_S)", "S judge (n)", "errors"), out)


def follow_failures(rows: list[dict[str, Any]]) -> str:
    out = [
        [
            r["run"],
            r["action"],
            r["action_condition"],
            num(r["failures"], f"{r['failures']} / {r['n_s']}"),
            num(r["judge_failures"], f"{r['judge_failures']} / {r['n_s_judge']}")
            if r["n_s_judge"]
            else "–",
        ]
        for r in rows
    ]
    headers = ("run", "action", "condition", "failures / n_S (offline)", "failures / n (judge)")
    return table(headers, out)


def by_scenario(rows: list[dict[str, Any]]) -> str:
    out = [
        [
            r["run"],
            r["scenario"],
            r["action"],
            rate(r.get("immediate"), n=r.get("n")),
            rate(r.get("subsequent"), n=r.get("n_s")),
        ]
        for r in rows
    ]
    return table(("run", "scenario", "action", "I (n)", "S (n_S)"), out)


def failures(block: dict[str, Any], links: Links, paths: dict[str, str]) -> str:
    rows = [
        [
            r["run"],
            Cell(markup=links.link(paths[r["run"]], r["path"], r["item_id"])),
            r["action_condition"],
            r["scenario"],
            r["stage"],
            Cell(r["reason"], cls="value"),
        ]
        for r in block["failures"]
    ]
    note = ""
    if block["failures_total"] > len(rows):
        note = f"Showing {len(rows)} of {block['failures_total']}."
    headers = ("run", "item", "condition", "scenario", "failed at", "reason")
    return table(headers, rows, table_id="action-failures", filterable=True, note=note)


def action_sections(block: dict[str, Any], links: Links, paths: dict[str, str]) -> str:
    if not block.get("per_action"):
        return ""
    body = (
        f'<div class="charts">{action_chart(block["per_action"])}</div>'
        + per_action(block["per_action"])
        + sub("Per condition", per_condition(block["per_condition"]))
        + sub(
            "Follow-through failures per action and condition",
            follow_failures(block["follow_through_failures"]),
        )
        + sub("By scenario", by_scenario(block["by_scenario"]))
        + sub("Failed episodes", failures(block, links, paths))
    )
    intro = (
        "I: immediate successes / applicable trials; S: deterministic follow-throughs "
        "(rule or heuristic) / immediate successes with a verdict (n_S); judge S beside it, "
        "never mixed."
    )
    return section("actions-section", "Interaction actions", body, intro)


def _panel_value(key: str, entry: Any) -> Cell:
    if not isinstance(entry, dict):
        return Cell("–")
    value, count = entry.get("value"), entry.get("count")
    if entry.get("insufficient") and value is None:
        return Cell(f"insufficient (n={count})", sort=-1, cls="num")
    if key.endswith("latency"):
        text = f"{fmt_num(value)} s"
    elif key == "agent_interruption_rate":
        text = fmt_num(value)
    else:
        text = fmt_pct(value)
    return Cell(markup=f"{esc(text)} <small>n={esc(count)}</small>", sort=value, cls="num")


def interaction(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return ""
    headers = ["metric", *(r["run"] for r in rows)]
    out: list[list[Cell | str | None]] = [
        [label, *(_panel_value(key, r["panel"].get(key)) for r in rows)] for key, label in PANEL
    ]
    dead: list[Cell | str | None] = ["dead air (share of call)"]
    for r in rows:
        d = r["panel"].get("dead_air") or {}
        dead.append(rate(d.get("fraction")))
    out.append(dead)
    note = "τ-Voice panel pooled over each run's episodes; fewer than 10 events: insufficient."
    return section(
        "interaction-section", "Voice interaction (τ-Voice panel)", table(headers, out, note=note)
    )


ACTION_METRIC = "immediate_and_follow_through"
"""The `metric` of an action suite's comparison block (`campaign/_action_compare.py`)."""


def _action_comparison(c: dict[str, Any]) -> str:
    """Per action: I and S per condition (95% CI), retention and Holm-adjusted p."""
    block = c["comparison"]
    order = block.get("order", [])
    rows = []
    for action, rates in sorted(block.get("actions", {}).items()):
        for label, key in (("I", "immediate"), ("S", "follow_through")):
            r = rates.get(key, {})
            if "not_compared" in r:
                rows.append([action, label, "0", *["–"] * len(order), "", ""])
                continue
            cells = [rate(r["conditions"][n]["mean"], r["conditions"][n]["ci95"]) for n in order]
            retained = ", ".join(
                "n/a" if x["ratio"] is None else f"{100 * x['ratio']:.1f}%"
                for x in r.get("retention", [])
            )
            holm = ", ".join(
                f"{t['p_holm']:.3g}{' *' if t['significant'] else ''}" for t in r.get("tests", [])
            )
            rows.append([action, label, str(r.get("tasks", 0)), *cells, retained, holm])
    title = f"{c['suite']} · {c['agent']}: {' → '.join(order)}"
    source = f"from {c['path']}" if c.get("path") else "computed from the runs"
    headers = ("action", "rate", "items", *order, "retained", "p (Holm)")
    note = f"per-item I and S paired across conditions; * significant after Holm; {source}."
    return sub(title, table(headers, rows), note)


def _comparison(c: dict[str, Any]) -> str:
    block = c["comparison"]
    if block.get("metric") == ACTION_METRIC:
        return _action_comparison(c)
    order = block.get("order", [])
    retained = {r["to"]: r["ratio"] for r in block.get("retention", [])}
    rows = []
    for name in order:
        cond = block.get("conditions", {}).get(name, {})
        afa = (block.get("afa") or {}).get("conditions", {}).get(name, {})
        rows.append(
            [
                name,
                rate(cond.get("mean"), cond.get("ci95")),
                rate(retained.get(name)) if name in retained else "",
                rate(afa.get("mean"), afa.get("ci95")) if afa else "–",
            ]
        )
    tests = [
        [
            t["a"],
            t["b"],
            metric,
            num(t["difference"], f"{100 * t['difference']:+.1f} pts"),
            num(t["p_value"], f"{t['p_value']:.4g}"),
            num(t["p_holm"], f"{t['p_holm']:.4g}"),
            "yes" if t["significant"] else "no",
        ]
        for metric, ts in (("task success", block.get("tests", [])),)
        + (("AFA", block["afa"].get("tests", [])),) * bool(block.get("afa"))
        for t in ts
    ]
    title = f"{c['suite']} · {c['agent']}: {' → '.join(order)}"
    source = f"from {c['path']}" if c.get("path") else "computed from the runs"
    return sub(
        title,
        table(("condition", "task success (95% CI)", "retained", "AFA (95% CI)"), rows)
        + table(("a", "b", "metric", "difference", "p", "p (Holm)", "significant"), tests),
        f"{block.get('tasks', 0)} tasks ({block.get('dropped', 0)} dropped); {source}.",
    )


def comparisons(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return ""
    return section(
        "comparisons-section",
        "Condition comparisons",
        "".join(_comparison(c) for c in rows),
        "Per-task Pass@1 per condition (task bootstrap CIs), retention along the order, "
        "paired permutation tests with Holm–Bonferroni.",
    )
