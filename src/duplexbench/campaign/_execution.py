"""How a run executes: backend, workers, retries, limits, resume; and the run-dir start.

`run` and `campaign run` share this: the run directory is locked for the
whole run, its `campaign.json` is written (or, when resuming, checked against
the new settings), and the engine runs what is not complete yet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from duplexbench.campaign import _render_service as render_service
from duplexbench.campaign._backends import make_backend
from duplexbench.campaign._engine import EngineOptions, RunTally, run_targets
from duplexbench.campaign._model import ExecutionOptions, Score, Target
from duplexbench.campaign._rundir import RunDirError, read_campaign, write_json, write_model
from duplexbench.campaign._spec import CampaignSpec

SETTINGS_KEPT = ("duplexbench_version",)
"""campaign.json fields a resumed run may change."""


def start_run_dir(out: Path, spec: CampaignSpec, items: list[Any], ex: ExecutionOptions) -> None:
    """Write `campaign.json` and the item snapshots, or check them when resuming."""
    if (out / "campaign.json").exists():
        if not ex.resume:
            raise RunDirError(
                f"{out} holds a run; rerun with --resume to continue it, or choose another "
                "--out, or --overwrite"
            )
        old = read_campaign(out).model_dump(exclude=set(SETTINGS_KEPT))
        if old.get("privileged") is None:  # a run made before the flag was recorded
            old["privileged"] = spec.privileged
        new = spec.model_dump(exclude=set(SETTINGS_KEPT))
        if old.get("generator") is None:  # a run made before the generator was recorded
            old["generator"] = new.get("generator")
        changed = sorted(k for k in new if old.get(k) != new[k])
        if changed:
            raise RunDirError(
                f"{out} was made with other settings ({', '.join(changed)} differ); "
                "it cannot be resumed with these"
            )
    write_model(out / "campaign.json", spec)
    for item in items:
        write_json(out / "items" / f"{item.id}.json", item.model_dump(mode="json"))


def wants_render_service(targets: list[Target]) -> bool:
    """Whether local episodes render model-engine clips in a render service: some
    target plays audio, unless ``DUPLEXBENCH_RENDER_SERVICE=off``."""
    audio = any(t.config.condition.channel == "audio" for t in targets)
    return audio and render_service.enabled()


def execute(
    targets: list[Target],
    ex: ExecutionOptions,
    progress: Callable[[int, int, Score], None] | None = None,
) -> RunTally:
    """Run the targets' incomplete episodes on the chosen backend."""

    def listen(state: RunTally, score: Score | None) -> None:
        if progress is not None and score is not None:
            progress(state.done, state.total, score)

    for target in targets:
        target.config = replace(target.config, stall_s=ex.stall_s)
    service = wants_render_service(targets)
    backend = make_backend(ex.backend, ex.workers, ex.ray_address, render_service=service)
    try:
        options = EngineOptions(ex.retries, ex.backoff_s, dict(ex.limits))
        return run_targets(targets, backend, options, listen)
    finally:
        backend.close()
