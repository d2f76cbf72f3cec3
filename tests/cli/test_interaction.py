"""`duplexbench interaction-metrics` on tau2-bench trajectories."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from duplexbench.cli import main

TAU2 = Path(__file__).resolve().parents[1] / "fixtures/tau2/interaction-metrics/experiment"


def test_interaction_metrics_of_tau2_trajectories() -> None:
    """--format tau2 uses tau2-bench's rules unless told otherwise."""
    result = CliRunner().invoke(main, ["interaction-metrics", str(TAU2), "--json"])
    assert result.exit_code == 0, result.output
    panel = json.loads(result.stdout)
    assert panel["rules"] == "tau2"
    assert panel["counts"]["n_timelines"] == 3
    assert panel["response_rate"]["count"] == 35
    assert panel["selectivity_backchannel"]["insufficient"]
    assert panel["selectivity_backchannel"]["value"] is not None
    table = CliRunner().invoke(main, ["interaction-metrics", str(TAU2)]).stdout
    assert "0.333 (insufficient)" in table and "response rate" in table
    assert "tau2 rules" in table


def test_interaction_metrics_with_duplexbench_rules() -> None:
    args = ["interaction-metrics", str(TAU2), "--rules", "duplexbench", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    panel = json.loads(result.stdout)
    assert panel["rules"] == "duplexbench"
    assert panel["response_rate"]["count"] == 33
    assert panel["selectivity_backchannel"]["value"] is None
    table = CliRunner().invoke(main, args[:-1]).stdout
    assert "insufficient" in table and "(insufficient)" not in table


def test_interaction_metrics_of_a_folder_without_trajectories(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["interaction-metrics", str(tmp_path)])
    assert result.exit_code == 2 and "no simulation files" in result.output
