"""Run directories whose episodes someone else runs: a person on the line
(`duplexbench call`) plays each episode in the calling process, one at a time.

The run directory is the campaign's own (campaign.json, item snapshots, one folder
per episode, results.jsonl, summary.json, the store's index), so `report`, `view`
and `score` read it as any other run; its condition names who played the caller
(`human`), so it is never pooled with a simulated run of the same items (a
report pools runs by condition). An episode is saved and scored as soon as it
ends; the index and the summary are written by `close_run`. A session resumed
(`opts.execution.resume`) keeps the episodes already saved (`saved_score`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from duplexbench.campaign._episode_runner import save_episode
from duplexbench.campaign._families import get_family
from duplexbench.campaign._model import RunOptions, RunResult, Score, Target
from duplexbench.campaign._runner import finish_target, prepare_target, start_target
from duplexbench.campaign._spec import episode_dir
from duplexbench.orchestrator import EpisodeRecord


def open_run(opts: RunOptions, condition: str) -> Target:
    """Check the run (suite, agent, voices, folder) as `run` does, then write the run
    directory with `condition` recorded as the run's condition and a person as its
    caller (`user: human` in campaign.json).

    `opts.condition` is the simulated condition the checks use (the channel and the
    agent's voices); hold `run_lock(target.run_dir)` around this and the episodes.
    """
    target = prepare_target(replace(opts, repeats=1))
    target.spec = target.spec.model_copy(update={"condition": condition, "user": "human"})
    start_target(target, opts)
    return target


def episode_folder(target: Target, item_id: str, repetition: int = 0) -> Path:
    """Where the episode of `item_id` is saved (created if needed)."""
    folder = target.run_dir / episode_dir(target.spec, item_id, repetition)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def saved_score(target: Target, item_id: str) -> Score | None:
    """The score of an episode saved by an earlier session (resuming), else None."""
    folder = target.run_dir / episode_dir(target.spec, item_id, 0)
    if not (folder / "result.json").is_file():
        return None
    family = get_family(target.spec.family)
    checksum = target.spec.item_checksums.get(item_id)
    exempt = target.spec.provenance_exempt is not None
    score = family.score(
        target.items[item_id], folder, target.judge, 0, False, checksum=checksum, exempt=exempt
    )
    target.scores[episode_dir(target.spec, item_id, 0)] = score
    return score


def record_episode(target: Target, item_id: str, record: EpisodeRecord) -> Score:
    """Save one played episode (repetition 0) and score it (result.json)."""
    folder = episode_folder(target, item_id)
    save_episode(folder, record)
    family = get_family(target.spec.family)
    checksum = target.spec.item_checksums.get(item_id)
    exempt = target.spec.provenance_exempt is not None
    score = family.score(
        target.items[item_id], folder, target.judge, 0, checksum=checksum, exempt=exempt
    )
    target.scores[episode_dir(target.spec, item_id, 0)] = score
    return score


def close_run(target: Target) -> RunResult:
    """Write the index and the summary of the episodes played so far."""
    return finish_target(target)
