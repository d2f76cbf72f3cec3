"""The `duplexbench` command line: one module per verb, each a thin call into the library.

Verbs load lazily: `duplexbench --help` and a verb's own start-up import only
what they use (the table below names each verb's module and its one-line help,
which `tests/cli/test_lazy_cli.py` keeps equal to the verb's own).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import click

import duplexbench

VERBS: dict[str, tuple[str, str, str]] = {
    "run": (
        "duplexbench.cli._run",
        "run_command",
        "Run every item of SUITE with AGENT, REPEATS times, and score the episodes.",
    ),
    "campaign": (
        "duplexbench.cli._campaign",
        "campaign_group",
        "Campaigns: several agents, suites and conditions in one resumable run.",
    ),
    "score": (
        "duplexbench.cli._score",
        "score_command",
        "Recompute every score of RUN_DIR from its events.jsonl files.",
    ),
    "suite": (
        "duplexbench.cli._suite",
        "suite_group",
        "Work with suites of items: built-in ones by name (`suite list`), or any folder of "
        "item files.",
    ),
    "agents": ("duplexbench.cli._agents", "agents_group", "Agents under test."),
    "call": (
        "duplexbench.cli._call",
        "call_command",
        "Play the caller of each --item yourself, through a local web page.",
    ),
    "serve-agent": (
        "duplexbench.cli._serve",
        "serve_agent_command",
        "Serve AGENT over the OpenAI Realtime protocol (WebSocket) until Ctrl-C.",
    ),
    "import": (
        "duplexbench.cli._importer",
        "import_group",
        "Convert task packages of other benchmarks into duplexbench items.",
    ),
    "interaction-metrics": (
        "duplexbench.cli._interaction",
        "interaction_metrics_command",
        "The τ-Voice voice-interaction panel of the trajectories at PATH, pooled over every "
        "simulation as τ-Voice does: response and yield latency and rate, agent "
        "interruptions, selectivity on backchannels, vocal tics and non-directed speech "
        "(rates behind fewer than 10 events are flagged insufficient; the...",
    ),
    "observer-eval": (
        "duplexbench.cli._observer_eval",
        "observer_eval_command",
        "Per-act precision and recall of each observer layer on the labelled corpus.",
    ),
    "report": (
        "duplexbench.cli._report",
        "report_command",
        "Tables over one or more run directories (folders are searched for them).",
    ),
    "view": (
        "duplexbench.cli._view",
        "view_command",
        "Write an HTML page of the episode in EPISODE_DIR (a folder "
        "RUN_DIR/episodes/<agent>/<condition>/<item>/r<k>): header and verdict, the call's "
        "waveform with speech segments and a playback cursor, the artifact against gold (or "
        "the action verdict) and every trace event, filterable.",
    ),
    "verify": (
        "duplexbench.cli._verify",
        "verify_command",
        "Re-run a sample of each run's episodes and compare them with the saved ones.",
    ),
    "voices": (
        "duplexbench.cli._voices",
        "voices_command",
        "Measure every TTS voice and caller persona and write a page to listen to them.",
    ),
}
"""Verb name -> (module, attribute, one-line help as the verb itself states it)."""


class LazyGroup(click.Group):
    """A group whose verbs are imported when they are run (or asked for their help)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(VERBS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in VERBS:
            return None
        module, attribute, _ = VERBS[cmd_name]
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The verb list from the table: `--help` imports no verb."""
        limit = formatter.width - 6 - max(len(name) for name in VERBS)
        rows = [(name, _shorten(VERBS[name][2], limit)) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[: max(0, limit - 3)].rsplit(" ", 1)[0]
    return f"{cut.rstrip(' ,;:')}..."


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(duplexbench.__version__, prog_name="duplexbench")
@click.option(
    "--plugin",
    "plugin_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A Python file that registers agents (register_agent), loaded before the command; "
    "repeatable. Worker processes load it too (docs/agents.md, 'Bring your own agent').",
)
def main(plugin_files: tuple[Path, ...]) -> None:
    """duplexbench: does the voice agent actually finish the work?

    Runs workflow items (Voice Workbench episodes) against an agent, records
    every episode as a trace, and scores Workflow Success (gates TS, PV, AC,
    AV), Artifact Field Accuracy, Pass@k and Reliable@k.
    """
    if plugin_files:  # imported only then: the agents package is heavy (start-up time)
        importlib.import_module("duplexbench.agents").add_plugin_files(list(plugin_files))
