"""The comparison table of a multi-condition run (`run --condition a,b,c`)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from duplexbench.cli._common import PANEL_ROWS, panel_value
from duplexbench.report import percent


def _mean_ci(c: dict[str, Any]) -> str:
    lo, hi = c["ci95"]
    return f"{percent(c['mean'])} [{percent(lo)}, {percent(hi)}]"


def print_comparison(block: dict[str, Any]) -> None:
    """Task success (and AFA) per condition with retention and tests, then the τ-Voice panel."""
    order: list[str] = block["order"]
    if "not_compared" in block:
        Console().print(f"conditions {', '.join(order)} not compared: {block['not_compared']}")
        return
    table = Table(
        title=f"conditions compared on {block['tasks']} tasks (per-task Pass@1)",
        title_justify="left",
    )
    table.add_column("metric")
    for name in order:
        table.add_column(name, justify="right")
    cells = [_mean_ci(block["conditions"][name]) for name in order]
    table.add_row("task success (95% CI)", *cells)
    retained = {r["to"]: r["ratio"] for r in block["retention"]}
    table.add_row(
        "retained from previous",
        *["" if n not in retained else percent(retained[n]) for n in order],
    )
    afa = block.get("afa")
    if afa is not None:
        table.add_row("AFA (95% CI)", *[_mean_ci(afa["conditions"][n]) for n in order])
    panel = block.get("interaction", {})
    for key, label in PANEL_ROWS:
        if any(n in panel for n in order):
            table.add_row(
                label,
                *["" if n not in panel else f"{panel_value(key, panel[n][key])}" for n in order],
            )
    console = Console()
    console.print(table)
    tests = Table(title="paired permutation tests (Holm-Bonferroni)", title_justify="left")
    for col in ("a", "b", "difference", "p", "p (Holm)", "significant"):
        tests.add_column(col, justify="right")
    tests.add_column("metric")
    afa_tests = [] if afa is None else [(t, "AFA") for t in afa["tests"]]
    for t, metric in [(t, "task success") for t in block["tests"]] + afa_tests:
        tests.add_row(
            t["a"],
            t["b"],
            f"{100 * t['difference']:+.1f} pts",
            f"{t['p_value']:.4g}",
            f"{t['p_holm']:.4g}",
            "yes" if t["significant"] else "no",
            metric,
        )
    console.print(tests)


def print_action_comparison(block: dict[str, Any]) -> None:
    """Per action: I and S per condition (95% CI), retention, and the paired tests."""
    order: list[str] = block["order"]
    table = Table(
        title="conditions compared per action (per-item I and S, paired)", title_justify="left"
    )
    for col in ("action", "rate", "items"):
        table.add_column(col)
    for name in order:
        table.add_column(name, justify="right")
    table.add_column("retained", justify="right")
    table.add_column("p (Holm)", justify="right")
    for action, rates in block["actions"].items():
        for label, key in (("I", "immediate"), ("S", "follow_through")):
            c = rates[key]
            if "not_compared" in c:  # no item with a value under every condition
                table.add_row(action, label, "0", *["–"] * len(order), "", "")
                continue
            retained = ", ".join(percent(r["ratio"]) for r in c["retention"])
            holm = ", ".join(
                f"{t['p_holm']:.3g}{'*' if t['significant'] else ''}" for t in c["tests"]
            )
            cells = [_mean_ci(c["conditions"][n]) for n in order]
            table.add_row(action, label, str(c["tasks"]), *cells, retained, holm)
    Console().print(table)
    Console().print(
        "items: those with a value under every condition (S: over immediate successes); "
        "* significant after Holm-Bonferroni (alpha 0.05)"
    )
