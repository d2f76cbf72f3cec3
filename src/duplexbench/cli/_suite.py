"""`duplexbench suite ...`: validate and build suites, export the item JSON Schema
(`list`, `show` and `stats` are in `suite_info.py`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)

from duplexbench.campaign import RunDirError
from duplexbench.cli._audio_audit import run_audit
from duplexbench.cli._common import err_console, fail, print_json
from duplexbench.cli._suite_actions import action_validation, print_action_validation
from duplexbench.cli._suite_generate import generate_command
from duplexbench.cli._suite_info import list_command, show_command, stats_command
from duplexbench.cli._validation import audio_audit_options, format_summary, validation_summary
from duplexbench.items import (
    ActionSuite,
    ItemError,
    Problem,
    Suite,
    action_json_schema,
    load_action_suite,
    load_suite,
    suite_family,
    workflow_json_schema,
)
from duplexbench.speech import SpeechBank, SpeechUnavailable
from duplexbench.suites import build_suite, quality_report, resolve_suite


@click.group("suite")
def suite_group() -> None:
    """Work with suites of items: built-in ones by name (`suite list`), or any
    folder of item files."""


suite_group.add_command(list_command)
suite_group.add_command(show_command)
suite_group.add_command(stats_command)
suite_group.add_command(generate_command)


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
@click.argument("suite")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the result (with every count) as JSON."
)
@click.option(
    "--no-solve", is_flag=True, help="Only the format and cross-references (no agents, no audits)."
)
@audio_audit_options
def validate_command(suite: str, as_json: bool, no_solve: bool, **audit: Any) -> None:
    """Check every item of SUITE (a built-in name, a folder or one item file).

    First the format and cross-references: every problem is listed with its
    file and the path inside it, e.g. `artifacts[0].fields[3].grader`. Then,
    with a count each: the `oracle` passes every item (WS = 1); `noop`,
    `silent` and `shortcut` (commits at once) fail every item; no private fact
    leaks before its reveal (static texts and the oracle's run); every gold
    value comes from a source that holds it; every correction supersedes an
    earlier fact; every gated action has a reachable approval; knowledge
    documents agree with the gold; every gold value is one its grader can pass
    (not empty; one single number under numeric_tolerance). Generated suites
    also report how many candidate items the generator rejected, and why.
    Exits 1 on any problem.

    Action suites (family `action`): every item's schema and cross-field
    checks (annotations inside the audio, fields each condition requires,
    no impossible overlaps), with the item counts per condition, action and
    scenario; actions-v1 must hold at least 25 items per condition.

    With --audio, instead: the audio-solvability audit. The privileged `listener`
    (it knows each item's plan, never a caller value, and hears every value
    through the channel, asking for spellings) runs every item once in
    --condition (clean by default; `text` checks the listener itself) and the
    verb prints "audio-solvable N/M" and, for each item it did not pass, the
    failed gates and each wrong value: what the caller said, what was written,
    the repairs made and what the ASR heard. Exits 1 unless every item passed.
    """
    try:
        path = resolve_suite(suite)
        if suite_family(path) == "action":
            actions = load_action_suite(path)
        else:
            loaded = load_suite(path)
    except ItemError as exc:
        _report(Path(suite), exc.problems, as_json)
        return
    if suite_family(path) == "action":
        summary = action_validation(actions)
        if as_json:
            print_json(summary)
        else:
            print_action_validation(summary, strict=actions.name == "actions-v1")
        if (
            actions.name == "actions-v1"
            and summary["checks"]["conditions with >= 25 items"]["failed"]
        ):
            raise SystemExit(1)
        return
    if audit["audio"]:
        _audio_audit(path, loaded, as_json, audit)
        return
    if no_solve:
        if as_json:
            print_json(
                {"valid": True, "suite": loaded.name, "items": len(loaded.items), "problems": []}
            )
        else:
            click.echo(f"{loaded.name}: {len(loaded.items)} item(s), all valid (format only)")
        return
    with _progress("validate", as_json) as (bar, task):
        bar.update(task, total=len(loaded.items))
        report = quality_report(loaded.items, lambda n: bar.advance(task, n))
    summary = validation_summary(loaded, report)
    if as_json:
        print_json(summary)
    else:
        for problem in summary["problems"]:
            click.echo(f"{problem['file']}: {problem['path']}: {problem['message']}")
        click.echo(format_summary(summary))
    if not report.ok:
        raise SystemExit(1)


def _audio_audit(path: Path, loaded: Suite, as_json: bool, options: dict[str, Any]) -> None:
    condition = options["condition"]
    out = options["out"] or Path("runs") / f"audit-{loaded.name}-{condition}"
    try:
        audit = run_audit(
            str(path),
            loaded.items,
            condition,
            out,
            workers=options["workers"],
            overwrite=options["overwrite"] or options["out"] is None,
            quiet=as_json,
            name=loaded.name,
        )
    except (RunDirError, SpeechUnavailable, ValueError) as exc:
        fail(str(exc))
        return
    if as_json:
        print_json(audit.data())
    else:
        for line in audit.lines():
            click.echo(line)
    if audit.solved < audit.items:
        raise SystemExit(1)


@contextmanager
def _progress(label: str, quiet: bool) -> Iterator[tuple[Progress, TaskID]]:
    with Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err_console,
        disable=quiet or not err_console.is_terminal,
        transient=True,
    ) as bar:
        yield bar, bar.add_task(label, total=None)


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
    synthesis, and every clip is frozen by its checksum. PATH may be a built-in
    suite name; for an action suite every segment is rendered in its own voice.
    """
    try:
        folder = resolve_suite(str(path))
        suite: Suite | ActionSuite = (
            load_action_suite(folder) if suite_family(folder) == "action" else load_suite(folder)
        )
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
@click.option(
    "--family",
    type=click.Choice(["workflow", "action"]),
    default="workflow",
    show_default=True,
    help="Which item format.",
)
def schema_command(out: Path | None, family: str) -> None:
    """Print (or write) the JSON Schema of workflow (or action) item files."""
    schema = workflow_json_schema() if family == "workflow" else action_json_schema()
    text = json.dumps(schema, indent=2) + "\n"
    if out is None:
        click.echo(text, nl=False)
    else:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {out}: {exc}")
