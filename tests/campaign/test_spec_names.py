"""Folder names from agent specs and conditions: safe, bounded, distinct."""

from __future__ import annotations

from pathlib import Path

from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._model import RunOptions
from duplexbench.campaign._runner import run_campaign
from duplexbench.campaign._spec import SLUG_MAX, slug
from support.fixtures import FIXTURES


def test_short_names_are_kept_readable() -> None:
    assert (
        slug("openai-realtime:gpt-realtime?voice=marin")
        == "openai-realtime_gpt-realtime_voice_marin"
    )
    assert slug("../../etc") == "etc" and slug("") == "_" and slug("..") == "_"


def test_regression_long_names_are_cut_and_stay_distinct() -> None:
    a, b = "x" * 500 + "a", "x" * 500 + "b"
    assert len(slug(a)) == len(slug(b)) == SLUG_MAX
    assert slug(a) != slug(b) and slug(a).startswith("x" * 80)


def test_regression_a_run_with_a_very_long_agent_spec(tmp_path: Path) -> None:
    """An agent spec of 2,000 characters made a folder name the file system refused."""
    spec = "noop?note=" + "<script>" * 250
    options = RunOptions(
        str(FIXTURES),
        agent=spec,
        condition=CONDITIONS["text"],
        repeats=1,
        items=("meeting-scheduling",),
        out=tmp_path / "run",
    )
    (score,) = run_campaign(options).scores
    assert score.status == "ok"
    (folder,) = (tmp_path / "run" / "episodes").iterdir()
    assert len(folder.name) == SLUG_MAX
