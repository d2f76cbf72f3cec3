"""Why fields were wrong in the report (JSON, HTML, side by side), the viewer and the CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duplexbench.cli import main
from duplexbench.cli._workflow_table import attribution_table
from duplexbench.report._analysis import analyze
from duplexbench.report._html import render_html
from duplexbench.report._viewer import build_html, load_episode
from support.fixtures import FIXTURES

ITEM = "form-expense-correction"


def _run(agent: str, out: Path) -> Path:
    args = ["run", "--suite", str(FIXTURES), "--agent", agent, "-k", "1", "--items", ITEM]
    args += ["--condition", "text", "--out", str(out), "-q"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two text runs of one item: `noop` (every field wrong) and `oracle` (none)."""
    root = tmp_path_factory.mktemp("attribution")
    _run("noop", root / "noop")
    _run("oracle", root / "oracle")
    return root


def _blocks(report: dict[str, Any]) -> dict[str, Any]:
    return {row["agent"]: row["attribution"] for row in report["workflow"]["attribution"]}


def test_the_report_block_is_the_summarys(root: Path) -> None:
    blocks = _blocks(analyze([root]))
    for agent in ("noop", "oracle"):
        summary = json.loads((root / agent / "summary.json").read_text())
        assert blocks[agent] == summary["workflows"]["attribution"]
    assert blocks["noop"]["wrong_fields"] == 5 and "misheard" not in blocks["noop"]["counts"]
    assert blocks["oracle"]["wrong_fields"] == 0 and blocks["oracle"]["simulator_share"] is None


def test_the_html_shows_the_runs_side_by_side(root: Path, tmp_path: Path) -> None:
    page = render_html(analyze([root]), tmp_path)
    start = page.index('id="attribution-section"')
    section = page[start : page.index("</section>", start)]
    assert "noop · text" in section and "oracle · text" in section
    for cause in ("never_asked", "asked_not_understood", "misheard", "wrong_write", "not_written"):
        assert f"<td>{cause}</td>" in section
    assert "– (audio only)" in section and "upper bound" in section
    assert 'href="#attribution-section"' in page


def test_results_scored_before_attribution_are_not_recorded(root: Path, tmp_path: Path) -> None:
    old = shutil.copytree(root / "noop", tmp_path / "old")
    [result] = old.glob("episodes/*/*/*/r0/result.json")
    data = json.loads(result.read_text())
    for field in data["fields"]:
        field.pop("cause")
    result.write_text(json.dumps(data))
    report = analyze([old])
    assert _blocks(report)["noop"] is None
    assert "not recorded" in render_html(report, tmp_path)
    table = attribution_table([("noop · text", None)])
    assert table.row_count == 7  # a row per cause (6) and the simulator share


def test_the_viewer_shows_the_cause_of_each_wrong_field(root: Path) -> None:
    [episode] = (root / "noop").glob("episodes/*/*/*/r0")
    page = build_html(load_episode(episode), episode / "view.html")
    assert "<th>why wrong</th>" in page
    assert '<td class="cause">never_asked</td>' in page
