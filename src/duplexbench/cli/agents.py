"""`duplexbench agents ...`: the agents this installation knows."""

from __future__ import annotations

import click

from duplexbench.agents.registry import list_agents
from duplexbench.cli._common import print_json


@click.group("agents")
def agents_group() -> None:
    """Agents under test."""


@agents_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def list_command(as_json: bool) -> None:
    """List built-in and installed agents (entry-point group `duplexbench.agents`)."""
    agents = list_agents()
    if as_json:
        print_json(
            [
                {
                    "name": a.name,
                    "description": a.description,
                    "origin": a.origin,
                    "privileged": a.privileged,
                    "channels": list(a.channels),
                }
                for a in agents
            ]
        )
        return
    for a in agents:
        flag = " (privileged: sees hidden item state)" if a.privileged else ""
        channels = "/".join(a.channels)
        click.echo(f"{a.name:<16} {channels:<11} {a.description}{flag}")
