"""`duplexbench run`: run a suite with an agent and print the scorecard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from duplexbench.campaign import (
    CONDITIONS,
    DEFAULT_CONDITION,
    RunOptions,
    parse_conditions,
    run_campaign,
)
from duplexbench.cli._common import (
    err_console,
    fail,
    judge_config,
    judge_options,
    print_json,
    run_failures,
)
from duplexbench.cli._errors import exit_for_errors, fail_on_error_option
from duplexbench.cli._execution_options import execution_from, execution_options
from duplexbench.cli._observer_options import observer_from, observer_options
from duplexbench.cli._progress import episode_bars
from duplexbench.cli._scorecards import print_comparison_of, print_summary
from duplexbench.items import ItemError
from duplexbench.scoring import summary_data
from duplexbench.suites import DEFAULT_SUITE, resolve_suite
from duplexbench.users import DeciderConfig


@click.command("run")
@click.option(
    "--suite",
    default=DEFAULT_SUITE,
    show_default=True,
    help="A built-in suite (`suite list`: workflows-mini, workflows-v2, actions-v1, ...) or a "
    "folder / item file of workflow or action items, e.g. tests/fixtures.",
)
@click.option(
    "--agent",
    default="reference",
    show_default=True,
    help="Agent spec (see `agents list`): the offline reference cascade by default.",
)
@click.option(
    "--condition",
    default=DEFAULT_CONDITION,
    show_default=True,
    help="Interaction condition, or several comma-separated (e.g. text,clean,realistic: "
    "each runs into OUT/<condition>/ and the report compares them, in that order). "
    "Conditions: " + ", ".join(CONDITIONS) + ". See docs/conditions.md.",
)
@click.option(
    "--frame-ms",
    default=20,
    show_default=True,
    type=click.IntRange(10, 1000),
    help="Audio frame size in ms (audio conditions; 20, 40 and 200 are usual).",
)
@click.option(
    "--speech-cache",
    type=click.Path(file_okay=False, path_type=Path),
    help="Speech bank folder (default: $DUPLEXBENCH_SPEECH_CACHE or ~/.cache/duplexbench/speech).",
)
@click.option(
    "--repeats",
    "-k",
    default=3,
    show_default=True,
    type=click.IntRange(1, 1000),
    help="Runs per item (k of Pass@k / Reliable@k).",
)
@click.option("--items", help="Comma-separated item ids to run (default: all).")
@click.option("--limit", type=click.IntRange(1), help="Run only the first N items.")
@click.option(
    "--seed",
    default=0,
    show_default=True,
    type=int,
    help="Simulator seed; each repetition derives its own seed from it.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Run directory (default: runs/<suite>-<agent>, or -2, -3, ... if taken).",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing run directory.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary JSON instead of a table.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option(
    "--prices",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Price table (YAML) for cost estimates; default: the built-in one.",
)
@click.option(
    "--realtime-speed",
    default=1.0,
    show_default=True,
    type=click.FloatRange(min=0.1, max=100.0),
    help="Pace of network (streaming) agents' clock; >1 only for local servers.",
)
@click.option(
    "--user-model",
    help="Optional LLM decision model of the simulated user: at each check while the agent "
    "talks (natural turn-taking conditions) it decides whether the caller interrupts; "
    "needs --user-base-url. Default: the seeded rule.",
)
@click.option("--user-base-url", help="OpenAI-compatible endpoint of --user-model.")
@click.option(
    "--user-cache",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Decision cache (JSONL) of --user-model; default RUN_DIR/user-decisions.jsonl.",
)
@click.option(
    "--noise-dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Your own recordings for the line effects: one subfolder of WAV files per kind "
    "(indoor, outdoor, babble, phone_ring, dog_bark, car_horn, engine, siren, door_slam, "
    "...); kinds without a folder stay procedural. Checked before any episode runs.",
)
@click.option(
    "--allow-voice-fallback",
    is_flag=True,
    help="A caller persona whose TTS engine is missing (flite, espeak-ng) speaks with its "
    "neural fallback voice (docs/personas.md), recorded per episode; without it such a run "
    "stops before its first episode, naming the package to install.",
)
@fail_on_error_option
@judge_options
@observer_options
@execution_options
def run_command(
    *,
    suite: str,
    agent: str,
    condition: str,
    frame_ms: int,
    speech_cache: Path | None,
    prices: Path | None,
    realtime_speed: float,
    repeats: int,
    items: str | None,
    limit: int | None,
    seed: int,
    out: Path | None,
    overwrite: bool,
    as_json: bool,
    quiet: bool,
    judge_model: str | None,
    judge_base_url: str | None,
    judge_cache: str | None,
    user_model: str | None,
    user_base_url: str | None,
    user_cache: Path | None,
    noise_dir: Path | None,
    allow_voice_fallback: bool,
    fail_on_error: bool,
    **options: Any,
) -> None:
    """Run every item of SUITE with AGENT, REPEATS times, and score the episodes.

    With no options this is the default offline benchmark: the built-in
    `workflows-mini` suite (one workflow per archetype) with the built-in
    `reference` agent, in clean audio, 3 repetitions.

    Writes a run directory (traces, scores, summary.json) and prints the
    scorecard. Workflow suites: Pass@1, Pass@k, Reliable@k and AFA with 95%
    bootstrap intervals, and the four Workflow Success gates. Action suites
    (e.g. actions-v1; audio conditions: line effects and personas apply to a
    replay, docs/actions.md): per action the immediate-execution rate I and
    the follow-through rate S, with timing diagnostics. Local and network
    agents run either family.
    An episode the agent ended with an error (it raised, disconnected, sent
    garbage, flooded or stalled) is scored as a failure and counted as an
    agent error; a harness error (TTS, ASR, storage, judge, a connection that
    never opened) is retried, then left out and marks the run incomplete.
    Exit status 4 when every episode errored, 3 with --fail-on-error when
    any did (docs/metrics.md, "Errors").
    """
    try:
        suite_path = str(resolve_suite(suite))
    except ItemError as exc:
        fail(str(exc))
        return
    try:
        conditions = parse_conditions(condition)
    except ValueError as exc:
        fail(str(exc))
        return
    names = [c.name for c in conditions]
    observer = observer_from(options)
    opts = RunOptions(
        suite=suite_path,
        agent=agent,
        condition=conditions[0],
        frame_ms=frame_ms,
        speech_cache=speech_cache,
        prices=prices,
        realtime_speed=realtime_speed,
        repeats=repeats,
        seed=seed,
        items=tuple(i.strip() for i in items.split(",") if i.strip()) if items else (),
        limit=limit,
        out=out,
        overwrite=overwrite,
        judge=judge_config(judge_model, judge_base_url, judge_cache),
        user_model=_user_model(user_model, user_base_url, user_cache),
        noise_dir=noise_dir,
        voice_fallback=allow_voice_fallback,
        execution=execution_from(options),
        observer=observer,
    )
    with run_failures(), episode_bars(quiet) as bar:
        tick = bar(f"episodes · {', '.join(names)}")
        # the multi-condition runner loads only when used (start-up time)
        if len(conditions) > 1:
            from duplexbench.campaign import run_conditions  # noqa: PLC0415

            multi = run_conditions(opts, conditions, tick, bar)
        else:
            result = run_campaign(opts, tick, bar)  # bar: render-ahead bars
    if len(names) > 1:
        if as_json:
            print_json(multi.report)
        else:
            for name in names:
                print_summary(multi.summaries[name])
            print_comparison_of(multi.report)
            err_console.print(f"run directory: {escape(str(multi.out))}", soft_wrap=True)
        exit_for_errors(multi.summaries.values(), fail_on_error)
        return
    if as_json:
        print_json(summary_data(result.summary))
    else:
        print_summary(result.summary)
        err_console.print(f"run directory: {escape(str(result.run_dir))}", soft_wrap=True)
    exit_for_errors([result.summary], fail_on_error)


def _user_model(
    model: str | None, base_url: str | None, cache: Path | None
) -> DeciderConfig | None:
    if model is None:
        if base_url or cache:
            raise click.UsageError("--user-base-url/--user-cache need --user-model")
        return None
    if not base_url:
        raise click.UsageError("--user-model needs --user-base-url (an OpenAI-compatible endpoint)")
    return DeciderConfig(model=model, base_url=base_url, cache=cache)
