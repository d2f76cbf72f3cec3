"""A human run is set beside the simulated runs of the same suite and agent, never pooled
or compared as a condition: per-item verdicts, agreement with its interval, where
they differ."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from duplexbench.campaign import CONDITIONS, RunOptions, WorkflowRow, run_campaign
from duplexbench.cli import main
from duplexbench.report import analyze, render_html
from duplexbench.report._human import human_vs_simulated
from duplexbench.report._load import RunData
from support.fixtures import FIXTURES


def row(item: str, ws: int, repetition: int = 0, status: str = "ok") -> WorkflowRow:
    return WorkflowRow(
        agent="a", condition="c", item_id=item, repetition=repetition, path="p",
        status=status, ws=ws, afa_correct=ws * 4 + 1, afa_total=5,
    )  # fmt: skip


def run(label: str, user: str | None, rows: list[WorkflowRow], agent: str = "a") -> RunData:
    campaign = {"suite": "s", "agent": agent, "condition": "human" if user else "clean"}
    if user:
        campaign["user"] = user
    return RunData(Path(label), campaign, label=label, episodes=list(rows))


def test_items_are_paired_and_the_verdicts_compared() -> None:
    human = run("person", "human", [row("x", 1), row("y", 0), row("z", 1), row("only", 1)])
    simulated = run(
        "model",
        None,
        [row("x", 1), row("x", 1, 1), row("y", 1), row("y", 0, 1), row("z", 0), row("z", 0, 1)],
    )
    (block,) = human_vs_simulated([human, simulated, run("other", None, [row("x", 1)], "b")])
    assert (block["human"], block["simulated"], block["n"]) == ("person", "model", 3)
    by_item = {i["item_id"]: i for i in block["items"]}
    assert by_item["x"]["agree"] and by_item["x"]["simulated_ws"] == 1.0
    assert not by_item["y"]["agree"]  # passed in half its repetitions: a simulated pass
    assert by_item["y"]["simulated_ws"] == 0.5 and by_item["y"]["human_afa"] == 0.2
    assert not by_item["z"]["agree"]
    assert block["agreement"] == round(1 / 3, 6) and block["differ"] == ["y", "z"]
    lo, hi = block["agreement_ci95"]
    assert 0 <= lo <= 1 / 3 <= hi <= 1
    assert block["only_human"] == ["only"]


def test_errored_calls_are_left_out_and_two_humans_are_not_paired() -> None:
    human = run("person", "human", [row("x", 0, status="error"), row("y", 1)])
    other_human = run("person2", "human", [row("x", 1), row("y", 1)])
    simulated = run("model", None, [row("x", 1), row("y", 1)])
    blocks = human_vs_simulated([human, other_human, simulated])
    assert [(b["human"], b["simulated"]) for b in blocks] == [
        ("person", "model"),
        ("person2", "model"),
    ]
    assert [i["item_id"] for i in blocks[0]["items"]] == ["y"]
    assert blocks[0]["agreement_ci95"] is None  # one item: no interval


def test_the_report_sets_a_human_run_beside_and_never_compares_it(tmp_path: Path) -> None:
    items = ("form-expense-correction", "order-revocation")
    for name in ("simulated", "human"):
        run_campaign(
            RunOptions(suite=str(FIXTURES), agent="oracle", condition=CONDITIONS["text"], repeats=1,
                       items=items, out=tmp_path / name)
        )  # fmt: skip
    spec = tmp_path / "human" / "campaign.json"
    marked = {"user": "human", "condition": "human"}  # as `duplexbench call` writes it
    spec.write_text(json.dumps(json.loads(spec.read_text()) | marked))
    episodes = tmp_path / "human" / "episodes" / "oracle"
    (episodes / "text").rename(episodes / "human")
    report = analyze([tmp_path / "simulated", tmp_path / "human"])
    (block,) = report["human_vs_simulated"]
    assert block["n"] == 2 and block["agreement"] == 1.0 and block["differ"] == []
    assert report["comparisons"] == []  # not "text vs human" as two conditions
    assert report["problems"] == []
    assert len(report["workflow"]["scorecard"]) == 2  # each run its own row, never pooled
    shown = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert shown.exit_code == 0 and "verdicts agree" in shown.output
    page = render_html(report, tmp_path)
    assert 'id="human-section"' in page and "form-expense-correction" in page
