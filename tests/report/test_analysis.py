"""`analyze()` over real run directories: the numbers equal the runs' summaries."""

from __future__ import annotations

import importlib.util
import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duplexbench.cli import main
from duplexbench.items._suite import SuiteManifest
from duplexbench.report._analysis import analyze, condition_order
from duplexbench.report._load import MAX_DEPTH
from duplexbench.report._taxonomy import DIMENSIONS
from duplexbench.report._workflow import frontier
from duplexbench.scoring._compare import PERMUTATIONS, compare_conditions
from duplexbench.speech._bank import SpeechBank
from duplexbench.suites._package import write_suite
from support.fixtures import FIXTURES
from support.replay_builders import one_per_action

ITEMS = 5
HAS_PIPER = importlib.util.find_spec("piper") is not None
"""ideal-floor speaks with piper:joe; silent needs no voice of its own."""


def synthetic_suite(folder: Path) -> Path:
    """tests/fixtures with the caller's voice set to the fast synthetic one."""
    folder.mkdir(parents=True)
    for path in FIXTURES.glob("*.yaml"):
        text = path.read_text().replace("voice: default", 'voice: "synthetic:alto"')
        (folder / path.name).write_text(text)
    return folder


def cli_run(suite: Path, agent: str, out: Path, *extra: str) -> Path:
    args = ["run", "--suite", str(suite), "--agent", agent, "-k", "3", "--out", str(out), "-q"]
    result = CliRunner().invoke(main, [*args, *extra], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """oracle text+clean (a `run --condition` folder), noop clean and text, two action runs."""
    root = tmp_path_factory.mktemp("analysis")
    suite = synthetic_suite(root / "suite")
    cli_run(suite, "oracle", root / "cmp", "--condition", "text,clean")
    cli_run(suite, "noop", root / "noop" / "clean")
    cli_run(suite, "noop", root / "noop" / "text", "--condition", "text")
    bank = root / "bank"
    manifest = SuiteManifest(name="mini-actions", family="action", version="1")
    write_suite(root / "actions", manifest, one_per_action(SpeechBank(bank)))
    for agent in ("ideal-floor", "silent") if HAS_PIPER else ("silent",):
        args = ["run", "--suite", str(root / "actions"), "--agent", agent, "-k", "1"]
        args += ["--speech-cache", str(bank), "--out", str(root / "act" / agent), "-q"]
        result = CliRunner().invoke(main, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
    return {
        "root": root,
        "oracle": root / "cmp" / "clean",
        "oracle-text": root / "cmp" / "text",
        "noop": root / "noop" / "clean",
        "ideal-floor": root / "act" / "ideal-floor",
        "silent": root / "act" / "silent",
    }


@pytest.fixture(scope="module")
def report(runs: dict[str, Path]) -> dict[str, Any]:
    return analyze([runs["root"]])


def _summary(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((path / "summary.json").read_text())
    return data


def _by_path(rows: list[dict[str, Any]], report: dict[str, Any], path: Path) -> dict[str, Any]:
    label = next(r["run"] for r in report["runs"] if r["path"] == str(path.resolve()))
    return next(r for r in rows if r["run"] == label)


def test_every_run_is_found_and_indexed(report: dict[str, Any], runs: dict[str, Path]) -> None:
    assert len(report["runs"]) == (6 if HAS_PIPER else 5)
    assert report["problems"] == []
    assert all("built from" in n for n in report["notes"])  # fresh runs had no index yet
    assert {r["family"] for r in report["runs"]} == {"workflow", "action"}
    assert (runs["oracle"] / "index.sqlite").exists()
    again = analyze([runs["oracle"]])  # the index is now in place: no notes
    assert again["notes"] == [] and again["problems"] == []


@pytest.mark.parametrize("name", ["oracle", "noop", "oracle-text"])
def test_scorecard_gates_and_floor_equal_the_summary(
    report: dict[str, Any], runs: dict[str, Path], name: str
) -> None:
    summary = _summary(runs[name])
    wf = summary["workflows"]
    card = _by_path(report["workflow"]["scorecard"], report, runs[name])
    for key in ("pass_at_1", "pass_at_k", "reliable_at_k", "afa", "afa_deterministic"):
        assert card[key] == wf[key], key
    for key in ("pass_at_1", "pass_at_k", "reliable_at_k", "afa"):
        assert card["ci95"][key] == wf["ci95"][key], key
        assert card["deterministic"][key] == wf["deterministic"][key], key
    assert card["pass_at_1"] == (0.0 if name == "noop" else 1.0)
    assert (card["items"], card["runs"], card["fields_graded"]) == (ITEMS, 15, wf["fields_graded"])
    assert card["tool_efficiency"] == wf["tool_efficiency"]
    assert card["median_time_to_resolution_ms"] == wf["timing"]["median_time_to_resolution_ms"]
    assert card["unsupported_values"] == wf["unsupported_values"]
    if name != "noop":  # the oracle reads the gold: exempt, and the outputs say so
        assert card["unsupported_values"]["label"] == "exempt (oracle)"
        assert card["unsupported_values"]["rate"] is None
    gates = _by_path(report["workflow"]["gates"], report, runs[name])
    assert gates["rates"] == wf["gates"]
    assert gates["av_deterministic"] == wf["deterministic"]["AV"]
    assert gates["successes"] == round(15 * wf["pass_at_1"])
    floor = _by_path(report["workflow"]["floor"], report, runs[name])
    assert floor["floor"] == summary["floor"]
    assert floor["correction_uptake"] == wf["correction_uptake"]
    if name == "noop":
        assert gates["failures"] == {g: round(15 * (1 - r)) for g, r in wf["gates"].items()}


def test_interaction_panel_is_the_summary_s_or_recomputed(
    report: dict[str, Any], runs: dict[str, Path], tmp_path: Path
) -> None:
    panel = _by_path(report["interaction"], report, runs["oracle"])
    assert panel["source"] == "summary.json"
    assert panel["panel"] == _summary(runs["oracle"])["interaction"]
    text_labels = {r["run"] for r in report["runs"] if r["condition"] == "text"}
    assert not text_labels & {r["run"] for r in report["interaction"]}  # text: no panel
    copy = tmp_path / "run"
    shutil.copytree(runs["oracle"], copy)
    (copy / "summary.json").unlink()
    again = analyze([copy])
    assert again["interaction"][0]["source"] == "recomputed"
    assert again["interaction"][0]["panel"] == panel["panel"]
    assert again["problems"] == []


def test_taxonomy_slices_count_items_and_runs(
    report: dict[str, Any], runs: dict[str, Path]
) -> None:
    snapshots = [json.loads(p.read_text()) for p in (runs["oracle"] / "items").glob("*.json")]
    label = _by_path(report["workflow"]["scorecard"], report, runs["oracle"])["run"]
    rows = [r for r in report["workflow"]["taxonomy"] if r["run"] == label]
    assert {r["dimension"] for r in rows} == set(DIMENSIONS)
    archetypes = Counter(s["taxonomy"]["work_archetype"] for s in snapshots)
    got = {r["value"]: (r["items"], r["runs"]) for r in rows if r["dimension"] == "work_archetype"}
    assert got == {k: (n, 3 * n) for k, n in archetypes.items()}
    gated = Counter(
        "gated" if any(t.get("requires_approval") for t in s["tools"]) else "not gated"
        for s in snapshots
    )
    gating = {r["value"]: r["items"] for r in rows if r["dimension"] == "approval_gating"}
    assert gating == dict(gated)
    for dim in DIMENSIONS:
        if dim != "duplex_phenomena":  # single-valued: every item once
            assert sum(r["items"] for r in rows if r["dimension"] == dim) == ITEMS, dim
    assert {r["pass_at_1"] for r in rows} == {1.0}
    fields = sum(r["fields"] for r in rows if r["dimension"] == "risk")
    assert fields == _summary(runs["oracle"])["workflows"]["fields_graded"]


def test_field_misses_list_every_field_the_noop_left_empty(
    report: dict[str, Any], runs: dict[str, Path]
) -> None:
    label = _by_path(report["workflow"]["scorecard"], report, runs["noop"])["run"]
    misses = [m for m in report["workflow"]["field_misses"] if m["run"] == label]
    expected = {}
    for path in (runs["noop"] / "items").glob("*.json"):
        item = json.loads(path.read_text())
        for artifact in item["artifacts"]:
            for field in artifact["fields"]:
                if field.get("gold") is not None:
                    expected[(item["id"], artifact["id"], field["name"])] = field["gold"]
    got = {(m["item_id"], m["artifact"], m["field"]): m for m in misses}
    assert set(got) == set(expected)
    for key, m in got.items():
        assert m["gold"] == expected[key]
        assert m["predicted"] == [None]
        assert (m["misses"], m["runs"], m["missing"]) == (3, 3, 3)
        assert [e["repetition"] for e in m["episodes"]] == [0, 1, 2]
        assert m["grader"]
    oracle = _by_path(report["workflow"]["scorecard"], report, runs["oracle"])["run"]
    assert not [m for m in report["workflow"]["field_misses"] if m["run"] == oracle]
    total = report["workflow"]["field_misses_total"]
    assert total == len(report["workflow"]["field_misses"]) == 2 * len(expected)


def test_frontier_marks_the_pareto_set(report: dict[str, Any], runs: dict[str, Path]) -> None:
    assert _by_path(report["workflow"]["frontier"], report, runs["oracle"])["pareto"] is True
    assert _by_path(report["workflow"]["frontier"], report, runs["noop"])["pareto"] is False
    cards = [
        {"run": name, "suite": "s", "agent": name, "condition": "c", "reliable_at_k": r,
         "median_time_to_resolution_ms": t}
        for name, r, t in (("fast", 0.6, 10_000), ("sure", 0.9, 40_000), ("worse", 0.5, 20_000),
                           ("tie", 0.9, 40_000), ("none", 0.9, None), ("other", 0.1, 5_000))
    ]  # fmt: skip
    cards[-1]["condition"] = "d"  # alone in its condition: on its own frontier
    marks = {p["run"]: p["pareto"] for p in frontier(cards)}
    assert marks == {"fast": True, "sure": True, "worse": False, "tie": True, "none": False,
                     "other": True}  # fmt: skip


@pytest.mark.parametrize("agent", ["ideal-floor", "silent"])
def test_action_tables_match_the_summary(
    report: dict[str, Any], runs: dict[str, Path], agent: str
) -> None:
    if not runs[agent].exists():
        pytest.skip("ideal-floor needs piper (the speech extra)")
    summary = _summary(runs[agent])
    label = next(r["run"] for r in report["runs"] if r["agent"] == agent)
    block = report["actions"]["blocks"][label]
    assert block == summary["actions"]
    rows = [r for r in report["actions"]["per_action"] if r["run"] == label]
    assert {r["action"] for r in rows} == set(summary["actions"]["per_action"])
    for r in rows:
        want = summary["actions"]["per_action"][r["action"]]
        assert (r["immediate"], r["n"], r["subsequent"], r["n_s"]) == (
            want["immediate"], want["n"], want["subsequent"], want["n_s"]
        )  # fmt: skip
    conditions = [r for r in report["actions"]["per_condition"] if r["run"] == label]
    assert {r["action_condition"] for r in conditions} == set(summary["actions"]["per_condition"])
    follow = [r for r in report["actions"]["follow_through_failures"] if r["run"] == label]
    for r in follow:
        want = summary["actions"]["per_condition"][r["action_condition"]]
        assert r["n_s"] == want["n_s"]
        assert r["failures"] == round(want["n_s"] * want["follow_through_failure"])
    failed = [f for f in report["actions"]["failures"] if f["run"] == label]
    assert all(f["reason"] and f["path"] for f in failed)
    immediate = sum(round(r["n"] * (1 - r["immediate"])) for r in rows if r["n"])
    assert sum(f["stage"] == "immediate" for f in failed) == immediate
    assert sum(f["stage"] == "follow-through" for f in failed) == sum(r["failures"] for r in follow)
    if agent == "ideal-floor":
        assert immediate == 0
        stop = next(r for r in rows if r["action"] == "stop")
        assert stop["timing"]["metric"] == "yield_latency_ms" and stop["timing"]["n"] == 1
    else:
        assert {f["action"] for f in failed} >= {"take_turn", "recover", "interrupt"}


def test_comparisons_from_comparison_json_or_computed(
    report: dict[str, Any], runs: dict[str, Path]
) -> None:
    saved = next(c for c in report["comparisons"] if c["agent"] == "oracle")
    assert saved["source"] == "comparison.json"
    stored = json.loads((runs["root"] / "cmp" / "comparison.json").read_text())["comparison"]
    assert saved["comparison"] == stored
    computed = next(c for c in report["comparisons"] if c["agent"] == "noop")
    assert computed["source"] == "computed" and computed["order"] == ["text", "clean"]
    items = [p.stem for p in (runs["noop"] / "items").glob("*.json")]
    per_task = {c: dict.fromkeys(items, 0.0) for c in ("text", "clean")}
    want = compare_conditions(per_task, ["text", "clean"], PERMUTATIONS, 0)
    assert {k: v for k, v in computed["comparison"].items() if k not in ("afa", "metric")} == want
    assert condition_order(["realistic", "noise+accents", "clean", "text", "noise"]) == [
        "text", "clean", "noise", "noise+accents", "realistic"
    ]  # fmt: skip


def test_a_deleted_episode_folder_is_a_problem_and_the_rest_reports(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    copy = tmp_path / "run"
    shutil.copytree(runs["noop"], copy)
    shutil.rmtree(copy / "episodes/noop/clean/order-revocation/r1")
    (copy / "items" / "meeting-scheduling.json").unlink()
    report = analyze([copy])
    problems = "\n".join(report["problems"])
    assert "1 episode folder(s) missing" in problems
    assert "episodes/noop/clean/order-revocation/r1" in problems
    assert "no item snapshot for meeting-scheduling" in problems
    card = report["workflow"]["scorecard"][0]
    assert (card["runs"], card["pass_at_1"], card["items"]) == (14, 0.0, ITEMS)
    unknown = [r for r in report["workflow"]["taxonomy"] if r["value"] == "(unknown)"]
    assert unknown and all(r["items"] == 1 for r in unknown)


def test_a_summary_this_version_cannot_read_is_a_problem_and_the_tables_still_report(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    copy = tmp_path / "run"
    shutil.copytree(runs["oracle"], copy)
    summary = json.loads((copy / "summary.json").read_text())
    del summary["trust"]  # a summary from before the trust block
    summary["workflows"]["reliablity"] = 1.0  # and a key no version wrote
    (copy / "summary.json").write_text(json.dumps(summary))
    report = analyze([copy])
    [problem] = report["problems"]
    assert "not a summary this version can read (2 problem(s)" in problem
    assert "`duplexbench score RUN_DIR` rewrites it" in problem
    card = report["workflow"]["scorecard"][0]
    assert card["pass_at_1"] == summary["workflows"]["pass_at_1"]  # from the index
    assert report["runs"][0]["summary"] is False


def test_an_older_run_directory_without_index_and_fields(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    copy = tmp_path / "old"
    shutil.copytree(runs["oracle"], copy)
    for path in copy.glob("index.sqlite*"):
        path.unlink()
    campaign = json.loads((copy / "campaign.json").read_text())
    for key in ("family", "prices", "run_format", "judge"):
        campaign.pop(key, None)
    (copy / "campaign.json").write_text(json.dumps(campaign))
    for path in copy.glob("episodes/*/*/*/r*/result.json"):
        data = json.loads(path.read_text())
        for key in ("floor", "interaction", "ws_deterministic", "usage", "time_to_resolution_ms"):
            data.pop(key)
        data["afa"].pop("correct_deterministic")
        path.write_text(json.dumps(data))
    (copy / "summary.json").write_text("{truncated")
    report = analyze([copy])
    assert any("no index.sqlite" in n for n in report["notes"])
    assert any("unreadable summary.json" in p for p in report["problems"])
    card = report["workflow"]["scorecard"][0]
    assert (card["pass_at_1"], card["afa"], card["afa_deterministic"]) == (1.0, 1.0, 1.0)
    assert card["median_time_to_resolution_ms"] is None
    assert report["workflow"]["floor"][0]["floor"] is None
    assert report["interaction"] == []


def test_search_depth_and_missing_paths(runs: dict[str, Path], tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*[f"d{i}" for i in range(MAX_DEPTH)])
    shutil.copytree(runs["noop"], deep / "run")  # depth MAX_DEPTH + 1: too deep
    shallow = tmp_path / "d0" / "run"
    shutil.copytree(runs["noop"], shallow)
    report = analyze([tmp_path, tmp_path / "nope"])
    assert [r["path"] for r in report["runs"]] == [str(shallow.resolve())]
    assert any("nope: no such file" in p for p in report["problems"])
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no run directory" in analyze([empty])["problems"][0]


def test_cli_report_json_html_and_export(runs: dict[str, Path], tmp_path: Path) -> None:
    html, csv = tmp_path / "out" / "report.html", tmp_path / "eps.csv"
    args = ["report", str(runs["oracle"]), str(runs["noop"]), "--json"]
    result = CliRunner().invoke(main, [*args, "--html", str(html), "--export", str(csv)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [c["pass_at_1"] for c in data["workflow"]["scorecard"]] == [1.0, 0.0]
    assert html.read_text().startswith("<!DOCTYPE html>")
    assert len(csv.read_text().splitlines()) == 31
    text = CliRunner().invoke(main, ["report", str(runs["root"])])
    assert text.exit_code == 0, text.output
    assert "workflow scorecard" in text.output and "τ-Voice panel" in text.output
    assert "actions: I (immediate)" in text.output
    none = CliRunner().invoke(main, ["report", str(tmp_path / "nothing")])
    assert none.exit_code == 2 and "no run directory" in none.output
