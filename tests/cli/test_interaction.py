"""`duplexbench interaction-metrics` on tau2-bench trajectories."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from duplexbench.cli import main

TAU2 = Path(__file__).resolve().parents[1] / "fixtures/tau2/interaction-metrics"


def test_interaction_metrics_of_tau2_trajectories() -> None:
    result = CliRunner().invoke(main, ["interaction-metrics", str(TAU2), "--json"])
    assert result.exit_code == 0, result.output
    panel = json.loads(result.stdout)
    assert panel["counts"]["n_timelines"] == 3
    assert panel["response_rate"]["count"] == 33
    assert panel["selectivity_backchannel"]["insufficient"]
    table = CliRunner().invoke(main, ["interaction-metrics", str(TAU2)]).stdout
    assert "insufficient" in table and "response rate" in table


def test_interaction_metrics_of_a_folder_without_trajectories(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["interaction-metrics", str(tmp_path)])
    assert result.exit_code == 2 and "no simulation files" in result.output
