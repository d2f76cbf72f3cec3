"""Campaigns: run directories, the runner and re-scoring."""

from duplexbench.campaign.rescore import RescoreResult, rescore_run
from duplexbench.campaign.rundir import RunDirError
from duplexbench.campaign.runner import RunOptions, RunResult, run_campaign
from duplexbench.campaign.spec import CampaignSpec, JudgeConfig

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
