"""`duplexbench observer-eval`: the act observer's precision and recall on the corpus."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from duplexbench.cli._common import err_console, fail, print_json
from duplexbench.cli._observer_options import observer_from, observer_options
from duplexbench.items import ItemError, WorkflowItem, load_suite
from duplexbench.report import percent
from duplexbench.suites import (
    ACT_KINDS,
    CORPUS,
    SPLITS,
    Tally,
    evaluate,
    load_corpus,
    resolve_suite,
)
from duplexbench.users import ObserverConfig, check_observer


@click.command("observer-eval")
@click.option(
    "--split",
    type=click.Choice([*SPLITS, "all"]),
    default="test",
    show_default=True,
    help="Corpus half: `test` (held out: never used to fit), `dev` (fits the semantic "
    "matcher's weights) or both.",
)
@click.option(
    "--corpus",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=CORPUS,
    show_default="the built-in corpus",
    help="Corpus folder with one subfolder per split of <archetype>.yaml files.",
)
@click.option(
    "--suite",
    default="workflows-v2",
    show_default=True,
    help="Items that give the entries their context (the slots around them).",
)
@click.option(
    "--per-entry",
    default=3,
    show_default=True,
    type=click.IntRange(1, 20),
    help="Items each entry is read in (the first that hold the slots it needs).",
)
@click.option(
    "--layers",
    default="rules,semantic",
    show_default=True,
    help="Observers to compare, comma-separated: rules, semantic (and llm with "
    "--observer-model: rules, semantic and the LLM).",
)
@click.option("--misses", default=0, type=click.IntRange(0), help="Print this many misreadings.")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@observer_options
def observer_eval_command(
    *,
    split: str,
    corpus: Path,
    suite: str,
    per_entry: int,
    layers: str,
    misses: int,
    as_json: bool,
    quiet: bool,
    **options: Any,
) -> None:
    """Per-act precision and recall of each observer layer on the labelled corpus.

    The corpus holds 2,600+ things voice agents say to callers in the twelve
    work archetypes (natural phrasing, never the field names), each labelled
    with its acts, and 480+ repair requests ("sorry, could you spell that?")
    with their near misses. Each entry is read in up to PER_ENTRY items of its
    archetype. See docs/simulator.md for the definitions and the measured table.
    """
    base = observer_from(options)
    configs = _configs(layers, base)
    try:
        items = [i for i in load_suite(resolve_suite(suite)).items if isinstance(i, WorkflowItem)]
        entries = load_corpus(list(SPLITS) if split == "all" else [split], corpus)
        for config in configs.values():
            check_observer(config)
    except (ItemError, FileNotFoundError, ValueError) as exc:
        fail(str(exc))
        return
    results: dict[str, Tally] = {}
    show = not quiet and err_console.is_terminal
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeRemainingColumn(), console=err_console, disable=not show) as bar:
        for name, config in configs.items():
            task = bar.add_task(f"reading · {name}", total=len(entries))

            def tick(done: int, _total: int, task: TaskID = task) -> None:
                bar.update(task, completed=done)

            results[name] = evaluate(entries, items, config, per_entry, tick)
    report = {name: tally.report() for name, tally in results.items()}
    if as_json:
        print_json({"split": split, "suite": suite, "entries": len(entries), "layers": report})
        return
    _print(report, split, len(entries))
    console = Console(highlight=False, soft_wrap=True)
    for name, tally in results.items():
        for miss in tally.misses[:misses]:
            console.print(
                f"{name} · {miss['item']}: {miss['text']!r} gold={miss['gold']} got={miss['got']}",
                markup=False,
            )


def _configs(layers: str, base: ObserverConfig) -> dict[str, ObserverConfig]:
    out: dict[str, ObserverConfig] = {}
    for name in (n.strip() for n in layers.split(",") if n.strip()):
        if name == "rules":
            out[name] = replace(base, kind="rules", llm_model=None)
        elif name == "semantic":
            out["rules+semantic"] = replace(base, kind="semantic", llm_model=None)
        elif name == "llm":
            if base.llm_model is None:
                raise click.UsageError(
                    "--layers llm needs --observer-model and --observer-base-url"
                )
            out["rules+semantic+llm"] = replace(base, kind="semantic")
        else:
            raise click.UsageError(f"unknown layer {name!r}: rules, semantic or llm")
    return out


def _print(report: dict[str, dict[str, Any]], split: str, entries: int) -> None:
    names = list(report)
    table = Table(title=f"act observer on the {split} corpus ({entries} entries)")
    table.add_column("")
    for name in names:
        table.add_column(name, justify="right")
    for kind in ACT_KINDS:
        table.add_row(
            f"{kind} precision / recall",
            *(
                f"{percent(report[n]['acts'][kind]['precision'])} / "
                f"{percent(report[n]['acts'][kind]['recall'])}"
                for n in names
            ),
        )
    for key in ("ask_confirm_recall", "wrong_slot", "unsure", "acts_on_non_questions"):
        table.add_row(key.replace("_", " "), *(percent(report[n][key]) for n in names))
    table.add_row(
        "CLOSE false positives", *(str(report[n]["close_false_positives"]) for n in names)
    )
    for kind in report[names[0]]["repair_acts"] if names else ():
        table.add_row(
            f"{kind} precision / recall",
            *(
                f"{percent(report[n]['repair_acts'][kind]['precision'])} / "
                f"{percent(report[n]['repair_acts'][kind]['recall'])}"
                for n in names
            ),
        )
    table.add_row("repair recall", *(percent(report[n]["repair_recall"]) for n in names))
    table.add_row(
        "repair acts on non-repair utterances",
        *(percent(report[n]["repair_on_non_repair"]) for n in names),
    )
    table.add_row("ms per sentence", *(f"{report[n]['ms_per_sentence']:.1f}" for n in names))
    table.add_row("evaluations", *(str(report[n]["evaluations"]) for n in names))
    Console().print(table)
