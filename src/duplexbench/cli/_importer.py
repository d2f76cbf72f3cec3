"""`duplexbench import ...`: convert other benchmarks' task packages into items."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from duplexbench.cli._common import fail, print_json
from duplexbench.suites import REPORT_NAME, ApexImportError, import_apex


@click.group("import")
def import_group() -> None:
    """Convert task packages of other benchmarks into duplexbench items."""


@import_group.command("apex-voice")
@click.argument("path", type=click.Path(path_type=Path))
@click.argument("out", type=click.Path(path_type=Path))
@click.option("--no-solve", is_flag=True, help="Skip playing each item with the oracle and noop.")
@click.option("--json", "as_json", is_flag=True, help="Print the import report as JSON.")
def apex_voice_command(path: Path, out: Path, no_solve: bool, as_json: bool) -> None:
    """Import APEX-Voice task packages from PATH into the folder OUT.

    PATH is one package folder (it holds task.yaml) or a folder of packages.
    OUT (new, or an empty folder) receives `<task id>.yaml` per package and
    `import-report.json`, which lists what has no exact counterpart in
    duplexbench. Nothing is written when any package fails (exit 2). Each item
    is then played on the text channel: the oracle must pass it and an idle
    agent must fail it (exit 1 if not). `suite validate OUT` runs every audit.
    """
    try:
        report = import_apex(path, out, check=not no_solve)
    except ApexImportError as exc:
        fail(str(exc))
        return
    if as_json:
        print_json(report.as_dict())
    else:
        for pkg in report.packages:
            click.echo(
                f"{pkg.package.name} -> {out / pkg.file} "
                f"({len(pkg.unmapped)} note(s) on unmapped parts)"
            )
            for problem in pkg.solvability:
                click.echo(f"  not solvable: {problem}")
        click.echo(f"report: {out / REPORT_NAME}")
    if not report.solvable:
        sys.exit(1)
