"""`duplexbench suite generate workflows|actions --seed N --out DIR`: a private suite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from duplexbench.cli._common import err_console, fail, print_json
from duplexbench.speech import SpeechUnavailable
from duplexbench.suites import (
    GeneratedInvalid,
    PrivateSuite,
    PrivateSuiteError,
    generate_actions,
    generate_workflows,
)

_TASKS = {"workflows": ("generate", "validate"), "actions": ("time segments",)}


@click.command("generate")
@click.argument("family", type=click.Choice(["workflows", "actions"]))
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    required=True,
    help="Generator seed (an integer >= 0). The same seed and generator version give the "
    "same items on any machine.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    required=True,
    help="Folder to write the suite to; it must not exist or be empty.",
)
@click.option(
    "--per-archetype",
    type=int,
    default=None,
    help="Workflows: items per archetype (12 archetypes; default 10, as workflows-v2).",
)
@click.option(
    "--per-condition",
    type=int,
    default=None,
    help="Actions: items per condition (24 conditions; default 28, as actions-v1).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def generate_command(
    family: str,
    *,
    seed: int,
    out: Path,
    per_archetype: int | None,
    per_condition: int | None,
    as_json: bool,
) -> None:
    """Write a fresh, validated suite of FAMILY (workflows or actions) made from --seed.

    The packaged suites are public: an agent may have been tuned on them. A
    private suite comes from the same generator with another seed (other
    names, values, documents), so a team can evaluate on items nobody has
    seen, and another team with the same seed gets the same items. The
    manifest records the generator, its version and the seed; a run on the
    suite records them in campaign.json. Workflow items pass every check of
    `suite validate` before anything is written; action items are checked as
    they are made (their segments are timed by rendering them in the speech
    bank). Prints how many values, sentences and whole tasks the suite shares
    with the packaged suites of its family. Nothing is written on an error.
    """
    wrong = "--per-condition" if family == "workflows" else "--per-archetype"
    if (per_condition if family == "workflows" else per_archetype) is not None:
        fail(f"{wrong} does not apply to {family} suites")
    count = per_archetype if family == "workflows" else per_condition
    try:
        made = _generate(family, seed, out, count=count, quiet=as_json)
    except GeneratedInvalid as exc:
        fail(str(exc), code=1)
    except PrivateSuiteError as exc:
        fail(str(exc))
    except SpeechUnavailable as exc:
        fail(f"action suites time their segments with TTS: {exc}")
    summary = private_summary(made)
    if as_json:
        print_json(summary)
        return
    overlap = summary["overlap"]
    click.echo(f"{made.name}: {made.items} items written to {made.path} in {made.seconds:g} s")
    click.echo(
        f"generator {summary['generator']['name']} {summary['generator']['version']}, "
        f"seed {seed}; rejected candidates: {summary['generator']['rejected']}"
    )
    click.echo(
        f"shared with {', '.join(overlap['against'])}: values {_share(overlap['values'])}, "
        f"sentences {_share(overlap['sentences'])}, whole tasks {_share(overlap['items'])}"
    )
    click.echo(f"run it: duplexbench run --suite {made.path}")


def _generate(family: str, seed: int, out: Path, *, count: int | None, quiet: bool) -> PrivateSuite:
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(
        *columns,
        TimeElapsedColumn(),
        console=err_console,
        disable=quiet or not err_console.is_terminal,
        transient=True,
    ) as bar:
        tasks = [bar.add_task(label, total=None) for label in _TASKS[family]]
        advance = [lambda n, t=task: bar.advance(t, n) for task in tasks]
        if family == "workflows":
            return generate_workflows(seed, out, count, advance[0], advance[1])
        return generate_actions(seed, out, count, advance[0])


def _share(share: dict[str, Any]) -> str:
    return f"{share['shared']}/{share['total']} ({share['rate']:.1%})"


def private_summary(made: PrivateSuite) -> dict[str, Any]:
    """The JSON `suite generate --json` prints."""
    generator = made.manifest.generator
    assert generator is not None
    report = made.report
    return {
        "suite": made.name,
        "family": made.family,
        "path": str(made.path),
        "items": made.items,
        "seconds": made.seconds,
        "generator": {
            "name": generator.name,
            "version": generator.version,
            "seed": generator.seed,
            "per_archetype": generator.per_archetype,
            "per_condition": generator.per_condition,
            "candidates": generator.candidates,
            "rejected": sum(generator.rejected.values()),
            "rejected_by_reason": generator.rejected,
        },
        "validation": None
        if report is None
        else {
            "valid": report.ok,
            "checks": {
                c: {"passed": report.passed[c], "failed": report.failed[c]} for c in report.passed
            },
        },
        "overlap": made.overlap.to_json(),
    }
