"""`duplexbench agents ...`: the agents this installation knows."""

from __future__ import annotations

import click

from duplexbench.agents import broken_plugins, conflicts, list_agents
from duplexbench.cli._common import print_json


@click.group("agents")
def agents_group() -> None:
    """Agents under test."""


@agents_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def list_command(as_json: bool) -> None:
    """List built-in and installed agents (entry-point group `duplexbench.agents`, and the
    files given with `duplexbench --plugin`), and the plug-ins that failed to load or
    claim the same name (status `broken` / `conflict`: not usable)."""
    agents = list_agents()
    clash = conflicts()
    rows = [
        {
            "name": a.name,
            "description": a.description,
            "origin": a.origin,
            "privileged": a.privileged,
            "channels": list(a.channels),
            "status": "conflict" if a.name in clash else "ok",
            **({"conflict": clash[a.name]} if a.name in clash else {}),
        }
        for a in agents
    ]
    broken = [{"origin": b.source, "status": "broken", "error": b.error} for b in broken_plugins()]
    if as_json:
        print_json(rows + broken)
        return
    for a, row in zip(agents, rows, strict=True):
        flag = " (privileged: sees hidden item state)" if a.privileged else ""
        if row["status"] == "conflict":
            flag += f" [conflict: registered by {' and '.join(clash[a.name])}]"
        channels = "/".join(a.channels)
        origin = "" if a.origin == "built-in" else f" [{a.origin}]"
        click.echo(f"{a.name:<16} {channels:<11} {a.description}{origin}{flag}")
    for b in broken:
        click.echo(f"{'(broken)':<16} {'':<11} {b['origin']}: {b['error']}")
