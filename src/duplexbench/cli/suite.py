"""`duplexbench suite ...`: validate suites and export the item JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.markup import escape

from duplexbench.cli._common import err_console, fail, print_json
from duplexbench.items.errors import ItemError
from duplexbench.items.schema import workflow_json_schema
from duplexbench.items.suite import load_suite


@click.group("suite")
def suite_group() -> None:
    """Work with suites of items."""


@suite_group.command("validate")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def validate_command(path: Path, as_json: bool) -> None:
    """Check every item of the suite at PATH (a folder or one item file).

    Lists every problem with its file and the path inside it, e.g.
    `artifacts[0].fields[3].grader`, and exits 1 if there is any.
    """
    try:
        suite = load_suite(path)
    except ItemError as exc:
        if as_json:
            problems = [
                {"file": p.file, "path": p.path, "message": p.message} for p in exc.problems
            ]
            print_json({"valid": False, "problems": problems})
        else:
            for problem in exc.problems:
                click.echo(str(problem))
            err_console.print(
                f"[red]{len(exc.problems)} problem(s)[/] in {escape(str(path))}", soft_wrap=True
            )
        raise SystemExit(1) from None
    if as_json:
        print_json({"valid": True, "suite": suite.name, "items": len(suite.items), "problems": []})
    else:
        click.echo(f"{suite.name}: {len(suite.items)} item(s), all valid")


@suite_group.command("schema")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write to a file.")
def schema_command(out: Path | None) -> None:
    """Print (or write) the JSON Schema of workflow item files."""
    text = json.dumps(workflow_json_schema(), indent=2) + "\n"
    if out is None:
        click.echo(text, nl=False)
    else:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {out}: {exc}")
