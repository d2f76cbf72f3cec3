"""The `duplexbench` command line: one module per verb, each a thin call into the library."""

from __future__ import annotations

import click

import duplexbench
from duplexbench.cli.agents import agents_group
from duplexbench.cli.campaign import campaign_group
from duplexbench.cli.importer import import_group
from duplexbench.cli.interaction import interaction_metrics_command
from duplexbench.cli.observer_eval import observer_eval_command
from duplexbench.cli.report import report_command
from duplexbench.cli.run import run_command
from duplexbench.cli.score import score_command
from duplexbench.cli.serve import serve_agent_command
from duplexbench.cli.suite import suite_group
from duplexbench.cli.view import view_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(duplexbench.__version__, prog_name="duplexbench")
def main() -> None:
    """duplexbench: does the voice agent actually finish the work?

    Runs workflow items (Voice Workbench episodes) against an agent, records
    every episode as a trace, and scores Workflow Success (gates TS, PV, AC,
    AV), Artifact Field Accuracy, Pass@k and Reliable@k.
    """


main.add_command(run_command)
main.add_command(campaign_group)
main.add_command(score_command)
main.add_command(suite_group)
main.add_command(agents_group)
main.add_command(serve_agent_command)
main.add_command(import_group)
main.add_command(interaction_metrics_command)
main.add_command(observer_eval_command)
main.add_command(report_command)
main.add_command(view_command)
