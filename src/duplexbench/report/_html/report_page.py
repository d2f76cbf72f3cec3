"""The report as ONE self-contained HTML file.

No network at view time: inline CSS, inline JS (sortable tables, row
filters), inline SVG charts, and a Content-Security-Policy that allows
nothing else (`default-src 'none'`). Every string from a run (agent, item,
title, field values, reasons, paths) is HTML-escaped; the analysis JSON is
embedded in a `<script type="application/json">` with `<`, `>` and `&`
written as unicode escapes, so no value can close the script element.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from duplexbench.files import write_text_atomic
from duplexbench.report._html.action_sections import action_sections, comparisons, interaction
from duplexbench.report._html.charts import esc
from duplexbench.report._html.parts import (
    CSS,
    JS,
    Links,
    num,
    rate,
    script_json,
    section,
    sub,
    table,
)
from duplexbench.report._html.workflow_sections import workflow_sections

CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
NAV = (
    ("scorecard-section", "Scorecard"),
    ("gates-section", "Gates"),
    ("attribution-section", "Why wrong"),
    ("taxonomy-section", "Taxonomy"),
    ("frontier-section", "Frontier"),
    ("items-section", "Items"),
    ("misses-section", "Field misses"),
    ("actions-section", "Actions"),
    ("interaction-section", "Interaction"),
    ("comparisons-section", "Comparisons"),
    ("human-section", "Human vs simulated"),
)


def _runs(report: dict[str, Any]) -> str:
    rows = [
        [
            r["run"],
            r["suite"],
            r["agent"],
            r["condition"],
            r["family"],
            num(r["episodes"], f"{r['episodes']} / {r['expected'] or '?'}"),
            num(r.get("agent_errors", 0)),
            num(r["errors"], f"{r['errors']} · incomplete" if r["errors"] else "0"),
            r["judge"] or "",
            "; ".join(r.get("trust", [])),
            r["path"],
        ]
        for r in report["runs"]
    ]
    headers = (
        "run",
        "suite",
        "agent",
        "condition",
        "family",
        "episodes",
        "agent errors",
        "errors",
        "judge",
        "trust",
        "path",
    )
    return section("runs-section", "Run directories", table(headers, rows))


def _trust(report: dict[str, Any]) -> str:
    """Runs whose scores must not be read as valid results, or carry a caveat."""
    rows = [(t["run"], w) for t in report.get("trust", []) for w in t["warnings"]]
    if not rows:
        return ""
    items = "".join(f"<li><strong>{esc(run)}</strong>: {esc(w)}</li>" for run, w in rows)
    return (
        '<section class="problems" id="trust-section"><h2>Trust</h2>'
        '<p class="intro">Read these runs\' numbers with these labels (docs/security.md).</p>'
        f"<ul>{items}</ul></section>"
    )


def _errors(report: dict[str, Any]) -> str:
    """Runs with harness errors left (incomplete) or agent errors (docs/metrics.md, "Errors")."""
    items = []
    for r in report["runs"]:
        run = f"<li><strong>{esc(r['run'])}</strong>: "
        if r["errors"]:
            items.append(
                f"{run}incomplete: {r['errors']} episode(s) left out by harness errors; "
                "the rates cover the rest</li>"
            )
        if r.get("agent_errors"):
            reasons = "; ".join(r.get("agent_error_reasons") or [])
            items.append(
                f"{run}{r['agent_errors']} agent error(s), scored as failed episodes: "
                f"{esc(reasons)}</li>"
            )
    if not items:
        return ""
    return (
        '<section class="problems" id="errors-section"><h2>Errors</h2>'
        '<p class="intro">Agent errors count as failures; harness errors are left out and '
        "leave the run incomplete.</p>"
        f"<ul>{''.join(items)}</ul></section>"
    )


def _problems(report: dict[str, Any]) -> str:
    if not report["problems"]:
        return ""
    items = "".join(f"<li>{esc(p)}</li>" for p in report["problems"])
    return (
        '<section class="problems" id="problems"><h2>Problems</h2>'
        '<p class="intro">Left out of the numbers below; everything else still reports.</p>'
        f"<ul>{items}</ul></section>"
    )


def human_beside(blocks: list[dict[str, Any]]) -> str:
    """Each human run beside a simulated run of the same suite and agent (`_human.py`)."""
    if not blocks:
        return ""
    parts = []
    for b in blocks:
        rows = [
            [i["item_id"], "pass" if i["human_ws"] else "fail", rate(i["simulated_ws"]),
             rate(i["human_afa"]), rate(i["simulated_afa"]), "yes" if i["agree"] else "no"]
            for i in b["items"]
        ]  # fmt: skip
        heads = ("item", "human WS", "simulated WS (rate)", "human AFA", "simulated AFA", "agree")
        differ = ", ".join(b["differ"]) or "none"
        body = table(heads, rows) + table(
            ("items", "agreement", "verdicts differ on"),
            [[num(b["n"]), rate(b["agreement"], b["agreement_ci95"]), differ]],
        )
        parts.append(sub(f"{b['human']} beside {b['simulated']}", body))
    return section(
        "human-section",
        "Human vs simulated",
        "".join(parts),
        "A person's calls (duplexbench call) beside a simulated run of the same items and "
        "agent: never pooled. The simulated verdict is a pass in at least half of its "
        "repetitions; agreement has a 95% item-bootstrap interval.",
    )


def _nav(body: str) -> str:
    links = "".join(
        f'<a href="#{anchor}">{esc(label)}</a>' for anchor, label in NAV if f'id="{anchor}"' in body
    )
    return f"<nav>{links}</nav>"


def render_html(report: dict[str, Any], out_dir: Path) -> str:
    """The page for `report` (from `analyze`); links are relative to `out_dir`."""
    links = Links(out_dir)
    paths = {r["run"]: r["path"] for r in report["runs"]}
    body = "".join(
        [
            _trust(report),
            _errors(report),
            _problems(report),
            _runs(report),
            workflow_sections(report["workflow"], links, paths),
            action_sections(report["actions"], links, paths),
            interaction(report["interaction"]),
            comparisons(report["comparisons"]),
            human_beside(report.get("human_vs_simulated", [])),
        ]
    )
    suites = sorted({r["suite"] for r in report["runs"]})
    subtitle = (
        f"{len(report['runs'])} run(s) · suites: {', '.join(suites) or 'none'} · "
        f"duplexbench {report['duplexbench_version']}"
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>duplexbench report</title>"
        f"<style>{CSS}</style></head><body>"
        f"<header><h1>duplexbench report</h1><p>{esc(subtitle)}</p></header>"
        f"{_nav(body)}<main>{body}</main>"
        "<footer>Definitions: docs/report.md and docs/metrics.md of duplexbench. "
        "Rates count agent errors as failures and leave harness errors out.</footer>"
        f'<script type="application/json" id="report-data">{script_json(report)}</script>'
        f"<script>{JS}</script></body></html>\n"
    )


def write_html(report: dict[str, Any], path: Path) -> Path:
    """Write the page atomically to `path` (links relative to its folder)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, render_html(report, path.parent))
    path.chmod(0o644)  # a page to share (the atomic temp file is private)
    return path
