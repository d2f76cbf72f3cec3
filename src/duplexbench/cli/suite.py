"""`duplexbench suite ...`: validate suites and export the item JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from duplexbench.campaign.build import build_suite
from duplexbench.campaign.qa import solvability_problems
from duplexbench.cli._common import err_console, fail, print_json
from duplexbench.items.errors import ItemError, Problem
from duplexbench.items.schema import workflow_json_schema
from duplexbench.items.suite import load_suite
from duplexbench.speech.bank import SpeechBank
from duplexbench.speech.tts import SpeechUnavailable


@click.group("suite")
def suite_group() -> None:
    """Work with suites of items."""


def _report(path: Path, problems: list[Problem], as_json: bool) -> None:
    if as_json:
        rows = [{"file": p.file, "path": p.path, "message": p.message} for p in problems]
        print_json({"valid": False, "problems": rows})
    else:
        for problem in problems:
            click.echo(str(problem))
        err_console.print(
            f"[red]{len(problems)} problem(s)[/] in {escape(str(path))}", soft_wrap=True
        )
    raise SystemExit(1)


@suite_group.command("validate")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--no-solve", is_flag=True, help="Skip running the oracle and the do-nothing agent.")
def validate_command(path: Path, as_json: bool, no_solve: bool) -> None:
    """Check every item of the suite at PATH (a folder or one item file).

    First the format and cross-references: every problem is listed with its
    file and the path inside it, e.g. `artifacts[0].fields[3].grader`. Then
    solvability: the `oracle` agent must pass each item (WS = 1) and an agent
    that does nothing must fail it. Exits 1 if there is any problem.
    """
    try:
        suite = load_suite(path)
    except ItemError as exc:
        _report(path, exc.problems, as_json)
        return
    problems: list[Problem] = []
    if not no_solve:
        for item in suite.items:
            source = str(suite.sources.get(item.id, path))
            problems += [Problem(source, p, m) for p, m in solvability_problems(item)]
    if problems:
        _report(path, problems, as_json)
    if as_json:
        print_json({"valid": True, "suite": suite.name, "items": len(suite.items), "problems": []})
    else:
        checked = "" if no_solve else "; the oracle passes each and doing nothing fails each"
        click.echo(f"{suite.name}: {len(suite.items)} item(s), all valid{checked}")


@suite_group.command("build")
@click.argument("path", type=click.Path(path_type=Path))
@click.option(
    "--speech-cache",
    type=click.Path(file_okay=False, path_type=Path),
    help="Speech bank folder (default: $DUPLEXBENCH_SPEECH_CACHE or ~/.cache/duplexbench/speech).",
)
@click.option("--voice", help="User voice, e.g. piper:joe or espeak:en-gb (default: personas').")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def build_command(path: Path, speech_cache: Path | None, voice: str | None, as_json: bool) -> None:
    """Pre-render every clip the suite at PATH can need into the speech bank.

    Renders each text variant of each user plan (and each oracle line) once;
    clips already in the bank are kept. Episodes then never wait for speech
    synthesis, and every clip is frozen by its checksum.
    """
    try:
        suite = load_suite(path)
        bank = SpeechBank(speech_cache)
        with Progress(
            TextColumn("[bold]clips"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err_console,
            disable=as_json or not err_console.is_terminal,
        ) as bar:
            task = bar.add_task("build", total=None)
            report = build_suite(
                suite, bank, lambda d, t: bar.update(task, completed=d, total=t), voice
            )
    except ItemError as exc:
        _report(path, exc.problems, as_json)
        return
    except (SpeechUnavailable, ValueError) as exc:
        fail(str(exc))
        return
    summary = {
        "suite": suite.name,
        "clips": report.unique,
        "rendered": report.rendered,
        "cached": report.cached,
        "failed": report.failed,
        "failures": [str(f) for f in report.failures],
        "bank": str(bank.root),
    }
    if as_json:
        print_json(summary)
    else:
        click.echo(
            f"{suite.name}: {report.unique} clips ({report.rendered} rendered, "
            f"{report.cached} already cached, {report.failed} failed) in {bank.root}"
        )
        for failure in report.failures:
            click.echo(f"failed: {failure}")
    if report.failed:
        raise SystemExit(1)


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
