"""`duplexbench report PATH...`: tables over run directories, as text, JSON or one HTML file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from duplexbench.campaign import StoreError, export_runs
from duplexbench.cli._common import PANEL_ROWS, err_console, fail, panel_value, print_json
from duplexbench.cli._compare_table import print_action_comparison, print_comparison
from duplexbench.cli._trust import left_out
from duplexbench.cli._workflow_table import attribution_table
from duplexbench.report import ACTION_METRIC, analyze, interval, percent, write_html

GATES = ("TS", "PV", "AC", "AV")
TOP_MISSES = 20
CARD_RATES = ("pass_at_1", "pass_at_k", "reliable_at_k", "afa", "afa_deterministic")


def _rates(card: dict[str, Any]) -> list[Any]:
    return [card[key] for key in CARD_RATES]


def _ci(ci: Any) -> str:
    return interval(ci) or "n/a"


def _s(value: Any) -> str:
    return f"{value / 1000:.1f} s" if isinstance(value, int | float) else "n/a"


def _table(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> Table:
    """Cells are Text, never markup: a run or item name cannot style the terminal."""
    table = Table(title=Text(title), title_justify="left")
    for i, h in enumerate(headers):
        table.add_column(Text(h), justify="left" if i == 0 else "right", overflow="fold")
    for row in rows:
        table.add_row(*(Text(str(c)) for c in row))
    return table


def _scorecard_tables(wf: dict[str, Any]) -> list[Table]:
    cards = [
        [c["run"], f"{c['items']} × {c['k']}", str(c["errors"]), *map(percent, _rates(c))]
        for c in wf["scorecard"]
    ]
    cis = [[c["run"], *(_ci(c["ci95"].get(key)) for key in CARD_RATES)] for c in wf["scorecard"]]
    rates = ("Pass@1", "Pass@k", "Reliable@k", "AFA", "AFA (det.)")
    return [
        _table("workflow scorecard", ("run", "items × k", "errors", *rates), cards),
        _table("95% CIs (item bootstrap, 10,000 resamples)", ("run", *rates), cis),
    ]


def _number(value: float | None, fmt: str) -> str:
    return "n/a" if value is None else fmt.format(value)


def _gate_floor_tables(wf: dict[str, Any]) -> list[Table]:
    gates = [
        [
            g["run"],
            *(percent(g["rates"][k]) for k in GATES),
            *(str(g["failures"][k]) for k in GATES),
        ]
        for g in wf["gates"]
    ]
    floor = []
    for f in wf["floor"]:
        fl, cu, rp = f["floor"] or {}, f["correction_uptake"], f.get("repairs") or {}
        latency = fl.get("median_stop_latency_ms")
        floor.append(
            [
                f["run"],
                percent(fl.get("yield_rate")),
                percent(fl.get("ended_naturally_rate")),
                "n/a" if latency is None else f"{latency:.0f} ms",
                percent(fl.get("unintended_overlap_rate")),
                _number(rp.get("turns_per_episode"), "{:.2f}"),
                _number(rp.get("seconds_per_episode"), "{:.1f} s"),
                f"{percent(cu['afa_corrected_fields'])} / {percent(cu['afa_other_fields'])}",
            ]
        )
    floor_headers = (
        "run",
        "yield rate",
        "ended naturally",
        "median stop latency",
        "unintended overlaps",
        "repair turns / episode",
        "time in repairs / episode",
    )
    return [
        _table(
            "gates: pass rate, then failures", ("run", *GATES, *(f"{g} fail" for g in GATES)), gates
        ),
        _table(
            "floor control, repairs and correction uptake",
            (*floor_headers, "AFA corrected / other"),
            floor,
        ),
    ]


def _slice_tables(wf: dict[str, Any]) -> list[Table]:
    archetypes = [
        [
            t["value"],
            t["run"],
            str(t["items"]),
            str(t["runs"]),
            percent(t["pass_at_1"]),
            percent(t["afa"]),
        ]
        for t in wf["taxonomy"]
        if t["dimension"] == "work_archetype"
    ]
    tools = {c["run"]: c["tool_calls_per_oracle"] for c in wf["scorecard"]}
    frontier = [
        [
            p["run"],
            p["suite"],
            percent(p["reliable_at_k"]),
            _s(p["median_time_to_resolution_ms"]),
            "n/a" if tools.get(p["run"]) is None else f"{tools[p['run']]:.2f}",
            "yes" if p["pareto"] else "",
        ]
        for p in wf["frontier"]
    ]
    misses = [
        [
            *(m["run"], m["item_id"], f"{m['artifact']}.{m['field']}", str(m["gold"])),
            *(" | ".join(str(v) for v in m["predicted"]), f"{m['misses']}/{m['runs']}"),
        ]
        for m in wf["field_misses"][:TOP_MISSES]
    ]
    return [
        _table(
            "by work archetype (all dimensions: --json or --html)",
            ("archetype", "run", "items", "runs", "Pass@1", "AFA"),
            archetypes,
        ),
        _table(
            "reliability vs. median time to resolution",
            ("run", "suite", "Reliable@k", "median TTR", "tool calls / oracle", "Pareto"),
            frontier,
        ),
        _table(
            f"field misses (top {TOP_MISSES} of {wf['field_misses_total']})",
            ("run", "item", "field", "gold", "agent value(s)", "missed"),
            misses,
        ),
    ]


def _workflow_tables(wf: dict[str, Any]) -> list[Table]:
    tables = _scorecard_tables(wf) + _gate_floor_tables(wf)
    if wf.get("attribution"):
        tables.append(attribution_table([(r["run"], r["attribution"]) for r in wf["attribution"]]))
    return tables + _slice_tables(wf)


def _action_tables(block: dict[str, Any]) -> list[Table]:
    per_action = [
        [
            r["run"],
            r["action"],
            percent(r.get("immediate")),
            str(r.get("n")),
            percent(r.get("subsequent")),
            str(r.get("n_s")),
            ""
            if not r.get("timing") or not r["timing"].get("n")
            else f"{r['timing']['median']:.0f} ms",
        ]
        for r in block["per_action"]
    ]
    failures = [
        [r["run"], r["action_condition"], f"{r['failures']} / {r['n_s']}"]
        for r in block["follow_through_failures"]
    ]
    return [
        _table(
            "actions: I (immediate) and S (follow-through, offline)",
            ("run", "action", "I", "n", "S", "n_S", "timing median"),
            per_action,
        ),
        _table(
            "follow-through failures per condition",
            ("run", "condition", "failures / n_S"),
            failures,
        ),
    ]


def _panel_table(rows: list[dict[str, Any]]) -> Table:
    body = [
        [label, *(panel_value(key, r["panel"][key]) for r in rows)] for key, label in PANEL_ROWS
    ]
    return _table("τ-Voice panel", ("metric", *(r["run"] for r in rows)), body)


def _human_tables(block: dict[str, Any]) -> list[Table]:
    """A human run beside a simulated one: per item, then the agreement."""

    def afa(value: Any) -> str:
        return percent(value, 0)

    rows = [
        [i["item_id"], "pass" if i["human_ws"] else "fail", percent(i["simulated_ws"], 0),
         afa(i["human_afa"]), afa(i["simulated_afa"]), "yes" if i["agree"] else "NO"]
        for i in block["items"]
    ]  # fmt: skip
    title = f"{block['human']} beside {block['simulated']}"
    heads = ("item", "human WS", "simulated WS (rate)", "human AFA", "simulated AFA", "agree")
    agreement = [[
        str(block["n"]), percent(block["agreement"]), _ci(block["agreement_ci95"]),
        ", ".join(block["differ"]) or "none",
    ]]  # fmt: skip
    return [
        _table(title, heads, rows),
        _table("verdicts agree", ("items", "agreement", "95% CI", "differ"), agreement),
    ]


def headline(report: dict[str, Any]) -> str | None:
    """The report's first line when some run left episodes out of its rates."""
    runs = [r for r in report["runs"] if r.get("errors")]
    if not runs:
        return None
    each = "; ".join(f"{r['run']}: {left_out(r['errors'], r['episodes'])}" for r in runs)
    return f"episodes left out of the rates: {each}"


def print_report(report: dict[str, Any]) -> None:
    console = Console()
    first = headline(report)
    if first is not None:
        console.print(first, style="bold yellow", markup=False, highlight=False, soft_wrap=True)
    if report["workflow"]["scorecard"]:
        for table in _workflow_tables(report["workflow"]):
            console.print(table)
    if report["actions"].get("per_action"):
        for table in _action_tables(report["actions"]):
            console.print(table)
    if report["interaction"]:
        console.print(_panel_table(report["interaction"]))
    for comparison in report["comparisons"]:
        console.print(Text(f"{comparison['suite']} · {comparison['agent']}"))
        block = comparison["comparison"]
        if block.get("metric") == ACTION_METRIC:
            print_action_comparison(block)
        else:
            print_comparison(block)
    for pair in report.get("human_vs_simulated", []):
        for table in _human_tables(pair):
            console.print(table)


@click.command("report")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the analysis JSON.")
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the self-contained HTML report here.",
)
@click.option(
    "--export",
    "export_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write every episode row to FILE (.csv, or .parquet with pyarrow).",
)
def report_command(
    *, paths: tuple[Path, ...], as_json: bool, html_path: Path | None, export_path: Path | None
) -> None:
    """Tables over one or more run directories (folders are searched for them).

    Workflow runs: scorecard with item-bootstrap CIs, gates, floor control,
    taxonomy slices, field misses, the reliability-efficiency frontier.
    Action runs: I and S per action, condition and scenario. Audio runs: the
    τ-Voice panel. Several conditions of one agent: the comparison. Reads
    each run's index.sqlite (built from the episode folders when missing).
    """
    report = analyze(list(paths))
    for problem in report["problems"]:
        err_console.print(f"[yellow]warning:[/] {escape(problem)}", highlight=False, soft_wrap=True)
    for trust in report.get("trust", []):
        for warning in trust["warnings"]:
            line = f"[yellow]warning:[/] {escape(trust['run'])}: {escape(warning)}"
            err_console.print(line, highlight=False, soft_wrap=True)
    if not report["runs"]:
        fail("no run directory to report on")
        return
    if export_path is not None:
        fmt: Literal["csv", "parquet"] = "parquet" if export_path.suffix == ".parquet" else "csv"
        try:
            n = export_runs([Path(r["path"]) for r in report["runs"]], export_path, fmt)
        except StoreError as exc:
            fail(str(exc))
            return
        err_console.print(f"exported {n} episodes: {escape(str(export_path))}", highlight=False)
    if html_path is not None:
        write_html(report, html_path)
    if as_json:
        print_json(report)
    else:
        print_report(report)
    if html_path is not None:  # last, so it is the line a reader sees
        err_console.print(f"HTML report: {escape(str(html_path.resolve()))}", highlight=False)
