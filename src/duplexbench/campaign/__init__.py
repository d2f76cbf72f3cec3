"""Campaigns: run directories, the runner and re-scoring.

The names below load on first use, so importing one module of this package
(say `duplexbench.campaign._episode_runner` in a worker) does not import the runner and
the re-scorer with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from duplexbench.campaign._conditions import CONDITIONS, DEFAULT_CONDITION, parse_conditions
    from duplexbench.campaign._index_rows import ActionRow, EpisodeRow, WorkflowRow, episode_rows
    from duplexbench.campaign._lock import run_lock
    from duplexbench.campaign._manual import (
        close_run,
        episode_folder,
        open_run,
        record_episode,
        saved_score,
    )
    from duplexbench.campaign._model import ExecutionOptions, RunOptions, RunResult
    from duplexbench.campaign._multi import is_multi_run, rescore_conditions, run_conditions
    from duplexbench.campaign._plan import load_plan, run_plan
    from duplexbench.campaign._rescore import RescoreResult, rescore_run
    from duplexbench.campaign._rundir import RunDirError
    from duplexbench.campaign._runner import run_campaign
    from duplexbench.campaign._spec import CampaignSpec, JudgeConfig, slug
    from duplexbench.campaign._store import StoreError, query, read_campaign_data, refresh_index
    from duplexbench.campaign._store_export import export_runs
    from duplexbench.campaign._trust import (
        PRIVILEGED_LABEL,
        invalid_labels,
        run_warnings,
        trust_warnings,
    )
    from duplexbench.campaign._verify import RunCheck, verify_run

_WHERE = {
    "close_run": "_manual",
    "episode_folder": "_manual",
    "open_run": "_manual",
    "record_episode": "_manual",
    "saved_score": "_manual",
    "run_lock": "_lock",
    "ActionRow": "_index_rows",
    "CONDITIONS": "_conditions",
    "DEFAULT_CONDITION": "_conditions",
    "EpisodeRow": "_index_rows",
    "ExecutionOptions": "_model",
    "PRIVILEGED_LABEL": "_trust",
    "StoreError": "_store",
    "WorkflowRow": "_index_rows",
    "episode_rows": "_index_rows",
    "export_runs": "_store_export",
    "invalid_labels": "_trust",
    "is_multi_run": "_multi",
    "load_plan": "_plan",
    "parse_conditions": "_conditions",
    "query": "_store",
    "read_campaign_data": "_store",
    "refresh_index": "_store",
    "rescore_conditions": "_multi",
    "run_conditions": "_multi",
    "run_plan": "_plan",
    "run_warnings": "_trust",
    "slug": "_spec",
    "trust_warnings": "_trust",
    "CampaignSpec": "_spec",
    "JudgeConfig": "_spec",
    "RescoreResult": "_rescore",
    "RunDirError": "_rundir",
    "RunOptions": "_model",
    "RunResult": "_model",
    "rescore_run": "_rescore",
    "RunCheck": "_verify",
    "verify_run": "_verify",
    "run_campaign": "_runner",
}

__all__ = [
    "CONDITIONS",
    "DEFAULT_CONDITION",
    "PRIVILEGED_LABEL",
    "ActionRow",
    "CampaignSpec",
    "EpisodeRow",
    "ExecutionOptions",
    "JudgeConfig",
    "RescoreResult",
    "RunCheck",
    "RunDirError",
    "RunOptions",
    "RunResult",
    "StoreError",
    "WorkflowRow",
    "close_run",
    "episode_folder",
    "episode_rows",
    "export_runs",
    "invalid_labels",
    "is_multi_run",
    "load_plan",
    "open_run",
    "parse_conditions",
    "query",
    "read_campaign_data",
    "record_episode",
    "refresh_index",
    "rescore_conditions",
    "rescore_run",
    "run_campaign",
    "run_conditions",
    "run_lock",
    "run_plan",
    "run_warnings",
    "saved_score",
    "slug",
    "trust_warnings",
    "verify_run",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
