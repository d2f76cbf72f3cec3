"""`duplexbench voices`: measure every TTS voice and caller persona, and write a page
to listen to them (report/_voices_page.py; the measuring is speech/_voice_check.py)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from duplexbench.cli._common import err_console, fail, print_json
from duplexbench.report import VoicesReport, measure_voices, write_voices_page
from duplexbench.speech import (
    VOICE_SENTENCES,
    VoiceCheck,
    engine_voices,
    reference_listener,
    tts_engines,
)
from duplexbench.users import PERSONAS

DEFAULT_PAGE = Path("voices.html")


def _chosen(names: tuple[str, ...], known: list[str], what: str) -> list[str]:
    """`names` in the order given (all of `known` when none); an unknown one is an error."""
    unknown = [n for n in names if n not in known]
    if unknown:
        fail(f"unknown {what} {', '.join(unknown)}; {what}s: {', '.join(known)}")
    return list(dict.fromkeys(names)) if names else known


def _table(title: str, rows: list[tuple[str, VoiceCheck]]) -> Table:
    table = Table(title=title, title_justify="left")
    for column in ("", "RTF", "WER", "note"):
        table.add_column(column, justify="right" if column in ("RTF", "WER") else "left")
    for label, check in rows:
        rtf = "–" if check.rtf is None else f"{check.rtf:.3f}"
        wer = "–" if check.wer is None else f"{check.wer:.2f}"
        note = check.error or check.wer_error or ""
        table.add_row(escape(label), rtf, wer, escape(note[:100]))
    return table


def _print(report: VoicesReport) -> None:
    console = Console(highlight=False)
    voices = [(v.voice or f"{v.engine} (no voices)", v) for v in report.voices]
    console.print(_table("voices", voices))
    if report.personas:
        console.print(_table("personas", [(p.persona.name, p.check) for p in report.personas]))


@click.command("voices")
@click.option("--json", "as_json", is_flag=True, help="Print the measurements as JSON.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the listening page here. Default: voices.html in the working folder "
    "(with --json, a page is written only when --out is given).",
)
@click.option(
    "--sentences",
    "count",
    type=click.IntRange(1, len(VOICE_SENTENCES)),
    default=len(VOICE_SENTENCES),
    show_default=True,
    help="Speak only the first N sentences of the fixed set (faster, noisier numbers).",
)
@click.option(
    "--engine",
    "engines",
    multiple=True,
    help="Measure only this TTS engine's voices (repeatable). Default: every registered engine.",
)
@click.option(
    "--persona",
    "personas",
    multiple=True,
    help="Measure only this caller persona (repeatable). Default: every built-in persona.",
)
@click.option("--no-personas", is_flag=True, help="Measure no caller persona.")
def voices_command(
    *,
    as_json: bool,
    out: Path | None,
    count: int,
    engines: tuple[str, ...],
    personas: tuple[str, ...],
    no_personas: bool,
) -> None:
    """Measure every TTS voice and caller persona and write a page to listen to them.

    Each voice of each registered engine (and each persona: its voice at its
    speed and pitch) speaks a fixed set of sentences: codes (E1042, CC-330),
    phone numbers, a name, a date, an amount and a plain line. For each it
    reports the real-time factor (synthesis time over audio duration, rendered
    by the engine itself, not read from the speech bank) and the round-trip word
    error rate: the whisper ASR transcribes each clip, and transcript and
    sentence are compared after normalizing both (lowercase, no punctuation,
    numbers as single digits whether written in digits or words). An engine
    that is not installed is listed as unavailable; without whisper, WER is
    empty with the reason. The page embeds one sample per row and works
    offline. See docs/audio.md, "Listening to the voices".
    """
    if no_personas and personas:
        raise click.UsageError("--persona and --no-personas exclude each other")
    chosen = _chosen(engines, tts_engines(), "engine")
    persona_names = [] if no_personas else _chosen(personas, list(PERSONAS), "persona")
    sentences = VOICE_SENTENCES[:count]
    plan = engine_voices(chosen)
    listener = reference_listener()
    total = count * (sum(len(e.voices) for e in plan) + len(persona_names))
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn())
    show = err_console.is_terminal
    with Progress(*columns, TimeRemainingColumn(), console=err_console, disable=not show) as bar:
        task = bar.add_task("voices", total=total)

        def tick(label: str, done: int) -> None:
            bar.update(task, advance=done, description=escape(label))

        report = measure_voices(
            plan, [PERSONAS[n] for n in persona_names], listener, sentences, tick
        )
    if as_json:
        print_json(report.to_dict())
    else:
        _print(report)
    if out is not None or not as_json:
        page = out if out is not None else DEFAULT_PAGE
        try:
            write_voices_page(report, page)
        except OSError as exc:
            fail(f"cannot write {page}: {exc}")
        if not as_json:
            click.echo(f"page: {page}")
