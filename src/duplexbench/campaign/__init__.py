"""Campaigns: run directories, the runner and re-scoring.

The names below load on first use, so importing one module of this package
(say `duplexbench.campaign.episode_runner` in a worker) does not import the runner and
the re-scorer with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from duplexbench.campaign.rescore import RescoreResult, rescore_run
    from duplexbench.campaign.rundir import RunDirError
    from duplexbench.campaign.runner import RunOptions, RunResult, run_campaign
    from duplexbench.campaign.spec import CampaignSpec, JudgeConfig

_WHERE = {
    "CampaignSpec": "spec",
    "JudgeConfig": "spec",
    "RescoreResult": "rescore",
    "RunDirError": "rundir",
    "RunOptions": "runner",
    "RunResult": "runner",
    "rescore_run": "rescore",
    "run_campaign": "runner",
}

__all__ = [
    "CampaignSpec",
    "JudgeConfig",
    "RescoreResult",
    "RunDirError",
    "RunOptions",
    "RunResult",
    "rescore_run",
    "run_campaign",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
