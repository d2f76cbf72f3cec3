"""Solvability checks of items: the oracle must pass and doing nothing must fail.

Used by `duplexbench suite validate` after the schema and cross-reference
checks: the reference trajectory proves an item solvable, and an item whose
gold holds when the agent does nothing measures nothing.
"""

from __future__ import annotations

from duplexbench.agents.builtin import NoopAgent, OracleAgent
from duplexbench.agents.protocol import TextAgent
from duplexbench.items.load import item_checksum
from duplexbench.items.workflow import WorkflowItem
from duplexbench.orchestrator.text_loop import EpisodeSetup, TextEpisode
from duplexbench.scoring.episode import EpisodeScore, score_episode


def _play(
    item: WorkflowItem, agent: TextAgent, privileged: bool
) -> tuple[str | None, EpisodeScore]:
    setup = EpisodeSetup(item, item_checksum(item), "validate", "oracle" if privileged else "noop")
    record = TextEpisode(setup, agent, privileged=privileged).run()
    return record.error, score_episode(item, record.events)


def solvability_problems(item: WorkflowItem) -> list[tuple[str, str]]:
    """(path, message) for each failed check; empty when the item is sound."""
    problems: list[tuple[str, str]] = []
    error, score = _play(item, OracleAgent(), privileged=True)
    if error is not None:
        problems.append(("reference", f"the oracle could not finish: {error}"))
    elif score.ws != 1:
        failed = [f"{c.gate} {c.name}" for c in score.checks if not c.passed]
        problems.append(("reference", f"the oracle does not pass; failed: {failed}"))
    _, idle = _play(item, NoopAgent(), privileged=False)
    if idle.ws == 1:
        problems.append(("gold", "an agent that does nothing passes; the gold checks nothing"))
    return problems
