"""The `suite` verbs for action suites (family `action`): validate, show, stats."""

from __future__ import annotations

from typing import Any

import click
from rich.console import Console
from rich.table import Table

from duplexbench.cli._common import print_json
from duplexbench.items import ActionSuite
from duplexbench.suites import action_stats

console = Console(soft_wrap=True)


def action_validation(suite: ActionSuite) -> dict[str, Any]:
    """Every item loaded, i.e. passed the schema and every cross-field check."""
    stats = action_stats(suite.items)
    generator = suite.manifest.generator if suite.manifest else None
    n = len(suite.items)
    checks = {
        "format and annotations": {"passed": n, "failed": 0},
        "conditions with >= 25 items": {
            "passed": 24 - len(stats["under_minimum"]),
            "failed": len(stats["under_minimum"]),
        },
    }
    return {
        "valid": True,
        "suite": suite.name,
        "family": "action",
        "items": n,
        "checks": checks,
        "conditions": stats["conditions"],
        "actions": stats["actions"],
        "scenarios": stats["scenarios"],
        "generator": None if generator is None else generator.model_dump(exclude_none=True),
        "problems": [],
    }


def print_action_validation(summary: dict[str, Any], strict: bool) -> None:
    n = summary["items"]
    click.echo(f"{summary['suite']}: {n} action item(s)")
    click.echo(f"  {'format, annotations inside the audio, required fields, overlaps':<66} {n}/{n}")
    under = summary["checks"]["conditions with >= 25 items"]
    click.echo(f"  {'conditions with >= 25 items':<66} {under['passed']}/24")
    by_action = ", ".join(f"{a} {c}" for a, c in summary["actions"].items())
    click.echo(f"  by action: {by_action}")
    by_scenario = ", ".join(f"{s} {c}" for s, c in summary["scenarios"].items())
    click.echo(f"  by scenario: {by_scenario}")
    gen = summary["generator"]
    if gen:
        click.echo(f"  generator {gen['name']} {gen['version']} (seed {gen['seed']})")
    ok = not strict or not under["failed"]
    click.echo("all checks passed" if ok else f"{under['failed']} condition(s) under 25 items")


def show_actions(suite: ActionSuite, info: dict[str, Any], as_json: bool) -> None:
    rows = [
        {
            "id": i.id,
            "condition": i.condition,
            "scenario": i.scenario,
            "topic": i.topic,
            "setting": i.setting,
            "source": i.source,
        }
        for i in suite.items
    ]
    if as_json:
        print_json({**info, "item_list": rows})
        return
    console.print(f"[bold]{info['name']}[/] v{info['version']}: {info['items']} action items")
    table = Table("id", "condition", "scenario", "topic", "setting", "source")
    for row in rows:
        table.add_row(*[str(v) for v in row.values()])
    console.print(table)


def stats_actions(suite: ActionSuite, as_json: bool) -> None:
    stats = action_stats(suite.items)
    if as_json:
        print_json({"suite": suite.name, "family": "action", **stats})
        return
    n = stats["items"]
    console.print(f"[bold]{suite.name}[/]: {n} action items")
    table = Table("condition", "items", *stats["scenarios"], title="conditions")
    for cond, count in stats["conditions"].items():
        per = stats["conditions_by_scenario"][cond]
        table.add_row(cond, str(count), *[str(per.get(s, 0)) for s in stats["scenarios"]])
    console.print(table)
    for key in ("actions", "scenarios", "sources", "voices"):
        console.print(f"{key}: " + ", ".join(f"{k} {v}" for k, v in stats[key].items()))
    console.print(f"topics: {len(stats['topics'])}, settings: {len(stats['settings'])}")
    if stats["under_minimum"]:
        console.print(f"[yellow]under {stats['minimum']} items:[/] {stats['under_minimum']}")
    else:
        console.print(f"every condition has at least {stats['minimum']} items")
