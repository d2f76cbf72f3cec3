"""`duplexbench interaction-metrics`: the τ-Voice voice-interaction panel of trajectories."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from duplexbench.cli._common import fail, print_json
from duplexbench.scoring import RULES, Rules, experiment_metrics, simulation_files

PANEL = (
    ("response_latency", "response latency L_R (s, lower is better)"),
    ("response_rate", "response rate R_R"),
    ("yield_latency", "yield latency L_Y (s, lower is better)"),
    ("yield_rate", "yield rate R_Y (stop within 2.0 s)"),
    ("ended_naturally_rate", "ended naturally in 2.0 s (not a yield)"),
    ("agent_interruption_rate", "agent interruptions per user turn I_A"),
    ("selectivity_backchannel", "selectivity: backchannels S_BC"),
    ("selectivity_vocal_tic", "selectivity: vocal tics S_VT"),
    ("selectivity_non_directed", "selectivity: non-directed speech S_ND"),
    ("selectivity", "selectivity overall"),
)


@click.command("interaction-metrics")
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["tau2"]),
    default="tau2",
    show_default=True,
    help="Trajectory format: tau2 = a tau2-bench (τ-Voice) experiment folder of full-duplex "
    "simulations (`simulations/*.json` or loose simulation files, `results.json` beside).",
)
@click.option(
    "--rules",
    type=click.Choice(RULES),
    default=None,
    help="Event rules: tau2 = tau2-bench's (reproduces its numbers; the default for "
    "--format tau2), duplexbench = ours, as for duplexbench runs. See docs/metrics.md.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the panel as JSON.")
def interaction_metrics_command(path: Path, fmt: str, rules: Rules | None, as_json: bool) -> None:
    """The τ-Voice voice-interaction panel of the trajectories at PATH, pooled over
    every simulation as τ-Voice does: response and yield latency and rate, agent
    interruptions, selectivity on backchannels, vocal tics and non-directed speech
    (rates behind fewer than 10 events are flagged insufficient; the duplexbench rules
    also withhold their value), unresponsive periods and dead air."""
    if not simulation_files(path):
        fail(f"{path} holds no simulation files (simulations/*.json or *.json)")
        return
    chosen: Rules = rules or "tau2"  # the default for the only format, tau2
    try:
        panel = experiment_metrics(path, rules=chosen)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        fail(f"cannot read the trajectories in {path}: {type(exc).__name__}: {exc}")
        return
    if as_json:
        print_json({"rules": chosen, **panel})
        return
    _table(panel, path, chosen)


def _shown(entry: dict[str, Any]) -> str:
    value = entry["value"]
    if entry["insufficient"]:
        return "insufficient" if value is None else f"{value:.3f} (insufficient)"
    return "n/a" if value is None else f"{value:.3f}"


def _table(panel: dict[str, Any], path: Path, rules: Rules) -> None:
    title = f"τ-Voice interaction panel ({rules} rules): {path}"
    table = Table("metric", "value", "events", title=title)
    for key, label in PANEL:
        table.add_row(label, _shown(panel[key]), str(panel[key]["count"]))
    console = Console()
    console.print(table)
    counts = panel["counts"]
    console.print(
        f"{counts['n_timelines']} trajectories; unresponsive period: "
        f"{panel['unresponsive_period']['flag']}; dead air: "
        f"{json.dumps(panel['dead_air'])}"
    )
