"""Trust boundaries (docs/security.md): a privileged plug-in is labelled everywhere its
scores are shown, edited item snapshots are refused by `score`, and judge verdicts read
only from the cache (or cache entries no episode asked for) are named."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from duplexbench.agents._builtin import OracleAgent
from duplexbench.agents._protocol import TextAgent
from duplexbench.agents._registry import AgentSpec, Channel, list_agents, register_agent
from duplexbench.cli import main
from duplexbench.items._grading import GraderSpec
from duplexbench.items._load import item_checksum, load_item
from duplexbench.scoring._judge import PROMPT_VERSION
from support.chat_endpoint import ChatHandler, serve_chat
from support.fixtures import FIXTURES
from support.worked_example import cache_line, flawed_agent

PLUGIN = "test-privileged-plugin"
FLAWED = "test-flawed-benefits"
LABEL = "privileged: not a valid result"

if PLUGIN not in {a.name for a in list_agents()}:

    @register_agent(
        PLUGIN, description="a plug-in that registers itself privileged", privileged=True
    )
    def _plugin(spec: AgentSpec, channel: Channel) -> TextAgent:
        return OracleAgent()

    @register_agent(FLAWED, description="benefits-enrollment with one judgeable value")
    def _flawed(spec: AgentSpec, channel: Channel) -> TextAgent:
        return flawed_agent()


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def run(out: Path, agent: str, *extra: str) -> dict[str, Any]:
    args = ["run", "--suite", str(FIXTURES), "--agent", agent, "--condition", "text"]
    result = invoke(*args, "-k", "1", "--out", str(out), "--json", *extra)
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads(result.stdout)
    return summary


@pytest.fixture(scope="module")
def plugin_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("trust") / "plugin"
    run(out, PLUGIN, "--items", "meeting-scheduling,airline-rebooking")
    return out


def test_privileged_plugin_is_flagged_everywhere(plugin_run: Path, tmp_path: Path) -> None:
    campaign = json.loads((plugin_run / "campaign.json").read_text())
    summary = json.loads((plugin_run / "summary.json").read_text())
    assert campaign["privileged"] is True
    assert summary["privileged"] is True and summary["workflows"]["pass_at_1"] == 1.0
    assert summary["trust"]["warnings"] == [LABEL]
    # the scorecard: in its title and as a warning line
    card = invoke("score", str(plugin_run), "--no-write")
    assert card.exit_code == 0 and card.stdout.count(LABEL) >= 2
    # the report: its JSON, every table that names the run, and the HTML page
    report = json.loads(invoke("report", str(plugin_run), "--json").stdout)
    assert report["runs"][0]["privileged"] is True and report["runs"][0]["trust"] == [LABEL]
    assert all(LABEL in c["run"] for c in report["workflow"]["scorecard"])
    page = tmp_path / "report.html"
    assert invoke("report", str(plugin_run), "--html", str(page)).exit_code == 0
    html = page.read_text()
    assert 'id="trust-section"' in html and html.count(LABEL) >= 3
    # the per-episode viewer
    episode = plugin_run / "episodes" / PLUGIN / "text" / "meeting-scheduling" / "r0"
    assert invoke("view", str(episode), "--out", str(tmp_path / "v.html")).exit_code == 0
    assert f"run: {LABEL}" in (tmp_path / "v.html").read_text()


def test_an_unprivileged_run_carries_no_label(tmp_path: Path) -> None:
    summary = run(tmp_path / "noop", "noop", "--items", "meeting-scheduling")
    assert summary["privileged"] is False and summary["trust"]["warnings"] == []
    assert summary["trust"]["items"]["status"] == "verified"
    assert json.loads((tmp_path / "noop" / "campaign.json").read_text())["privileged"] is False


def test_old_run_without_the_flag_takes_it_from_the_registry(plugin_run: Path) -> None:
    path = plugin_run / "campaign.json"
    data = json.loads(path.read_text())
    del data["privileged"]  # a run directory made before the flag was recorded
    path.write_text(json.dumps(data))
    try:
        summary = json.loads(invoke("score", str(plugin_run), "--json", "--no-write").stdout)
        assert summary["privileged"] is True and LABEL in summary["trust"]["warnings"]
    finally:
        data["privileged"] = True
        path.write_text(json.dumps(data))


def _edit_gold(run_dir: Path, item_id: str) -> None:
    """What the issue found: the agent's value written over the gold in the snapshot."""
    path = run_dir / "items" / f"{item_id}.json"
    data = json.loads(path.read_text())
    data["title"] = data["title"] + " (edited)"
    path.write_text(json.dumps(data))


def test_score_refuses_an_edited_item_snapshot(tmp_path: Path) -> None:
    out = tmp_path / "run"
    before = run(out, "noop", "--items", "meeting-scheduling,order-revocation")
    _edit_gold(out, "order-revocation")
    refused = invoke("score", str(out))
    assert refused.exit_code != 0
    assert "order-revocation" in refused.output and "meeting-scheduling" not in refused.output
    assert "--allow-edited-items" in refused.output
    assert json.loads((out / "summary.json").read_text()) == before  # nothing rewritten
    # allowed: scored, and every output says the items were edited
    allowed = invoke("score", str(out), "--allow-edited-items", "--json")
    summary = json.loads(allowed.stdout)
    assert allowed.exit_code == 0
    assert summary["trust"]["items"]["status"] == "edited"
    assert list(summary["trust"]["items"]["edited"]) == ["order-revocation"]
    assert any("items edited" in w for w in summary["trust"]["warnings"])
    assert json.loads((out / "summary.json").read_text()) == summary
    card = invoke("score", str(out), "--allow-edited-items", "--no-write").stdout
    assert "items edited: not a valid result (order-revocation" in card
    report = json.loads(invoke("report", str(out), "--json").stdout)
    assert "items edited: not a valid result" in report["workflow"]["scorecard"][0]["run"]


def test_snapshot_and_checksum_edited_together_are_caught_by_the_traces(tmp_path: Path) -> None:
    # The laundering attack: a failed episode turned into a harness error would be left
    # out of the rates. It is a tampered, failed episode, counted, and the run is invalid.
    out = tmp_path / "run"
    before = run(out, "noop", "--items", "meeting-scheduling,order-revocation")
    _edit_gold(out, "meeting-scheduling")
    # a forger recomputes the checksum in campaign.json too; the trace still disagrees
    campaign = json.loads((out / "campaign.json").read_text())
    fresh = load_item(out / "items" / "meeting-scheduling.json")
    campaign["item_checksums"]["meeting-scheduling"] = item_checksum(fresh)
    (out / "campaign.json").write_text(json.dumps(campaign))
    result = CliRunner().invoke(main, ["score", str(out), "--json"], catch_exceptions=False)
    summary = json.loads(result.stdout)
    assert summary["errors"] == 0 and summary["tampered"] == 1  # counted, never left out
    assert summary["workflows"]["runs"] == before["workflows"]["runs"] == 2
    assert summary["workflows"]["pass_at_1"] == before["workflows"]["pass_at_1"] == 0.0
    rel = "episodes/noop/text/meeting-scheduling/r0"
    assert f"{rel}: tampered: trace does not match its item: it ran on item checksum" in (
        result.stderr
    )
    trust = summary["trust"]
    assert trust["items"]["status"] == "edited" and list(trust["items"]["edited"]) == [
        "meeting-scheduling"
    ]
    assert any(w.startswith("tampered traces: not a valid result") for w in trust["warnings"])
    card = invoke("score", str(out), "--no-write").stdout
    assert "tampered traces: not a valid result" in card.splitlines()[0] + card


def test_a_deleted_or_damaged_trace_is_a_counted_failure(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(out, "oracle", "--items", "meeting-scheduling,order-revocation")
    [trace] = out.glob("episodes/oracle/text/meeting-scheduling/r0/events.jsonl")
    trace.write_text(trace.read_text()[:200])  # cut short after the run
    summary = json.loads(invoke("score", str(out), "--json").stdout)
    assert summary["errors"] == 0 and summary["tampered"] == 1
    assert summary["workflows"]["pass_at_1"] == 0.5  # the oracle passed it; now it counts 0
    assert any("unreadable trace" in r for r in summary["agent_error_reasons"])


def test_a_run_that_left_episodes_out_says_so_in_its_headline(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(out, "noop", "--items", "meeting-scheduling,order-revocation")
    [trace] = out.glob("episodes/noop/text/order-revocation/r0/events.jsonl")
    lines = trace.read_text().splitlines()
    end = json.loads(lines[-1])
    assert end["type"] == "episode.end"
    end["data"]["reason"] = "error"
    end["data"]["detail"] = "the speech engine crashed"
    end["data"]["error_kind"] = "harness"
    trace.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n")
    card = invoke("score", str(out)).stdout
    title = next(line for line in card.splitlines() if "noop" in line)
    assert "1 of 2 episodes left out (harness errors)" in title
    report = invoke("report", str(out)).stdout
    assert report.splitlines()[0].startswith("episodes left out of the rates:")
    assert "1 of 2 episodes left out" in report.splitlines()[0]


def test_item_without_a_recorded_checksum_is_scored_as_unverified(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(out, "noop", "--items", "meeting-scheduling")
    campaign = json.loads((out / "campaign.json").read_text())
    campaign["item_checksums"] = {}
    (out / "campaign.json").write_text(json.dumps(campaign))
    result = invoke("score", str(out), "--json")
    summary = json.loads(result.stdout)
    assert result.exit_code == 0
    assert summary["trust"]["items"] == {
        "status": "unverified",
        "edited": {},
        "unverified": ["meeting-scheduling"],
    }
    assert any("items unverified" in w for w in summary["trust"]["warnings"])


VISION = cache_line(
    "enrollment.vision_plan",
    GraderSpec(name="enum", options={"values": ["Vision Basic", "Vision Plus", "None"]}),
    "Basic",
    "Vision Basic",
)
FORGED = json.dumps(
    {
        "model": "judge-x",
        "prompt_version": PROMPT_VERSION,
        "field": "enrollment.beneficiary",
        "predicted": "someone else",
        "gold": "nobody asked",
        "correct": True,
    }
)


def test_hand_written_judge_cache_is_named(tmp_path: Path) -> None:
    cache = tmp_path / "hand.jsonl"
    cache.write_text(VISION + "\n" + FORGED + "\n")
    out = tmp_path / "run"
    judge = ("--judge-model", "judge-x", "--judge-cache", str(cache))
    summary = run(out, FLAWED, "--items", "benefits-enrollment", *judge)
    block = summary["trust"]["judge"]
    assert (block["verdicts"], block["fetched"], block["cache_only"]) == (1, 0, 1)
    assert block["cache_only_verdicts"] == ["benefits-enrollment r0 enrollment.vision_plan"]
    assert block["endpoint"] is False and block["unknown_entries"] is None  # run: not checked
    assert "judge: 1 of 1 verdicts from the cache only" in " ".join(summary["trust"]["warnings"])
    # `score` asks every question again: the entry no episode asked for is named
    rescored = json.loads(invoke("score", str(out), "--json", *judge).stdout)
    block = rescored["trust"]["judge"]
    assert block["unknown_entries"] == 1
    assert block["unknown_examples"] == [
        "enrollment.beneficiary: 'someone else' for gold 'nobody asked' -> True"
    ]
    assert any("1 entries no episode asked for" in w for w in rescored["trust"]["warnings"])
    card = invoke("score", str(out), "--no-write", *judge).stdout
    assert "from the cache only" in card and "entries no episode asked for" in card


@pytest.fixture
def endpoint() -> Iterator[str]:
    yield from serve_chat()


def test_verdicts_fetched_in_the_run_are_not_cache_only(tmp_path: Path, endpoint: str) -> None:
    ChatHandler.replies = ['{"answer": "NO", "reason": "different"}'] * 3
    out = tmp_path / "run"
    judge = ("--judge-model", "judge-x", "--judge-base-url", endpoint)
    summary = run(out, FLAWED, "--items", "benefits-enrollment", *judge)
    block = summary["trust"]["judge"]
    assert block["verdicts"] == 3 == block["fetched"] and block["cache_only"] == 0
    assert summary["trust"]["warnings"] == []
    # re-scored without the endpoint: the same verdicts now come from the cache only
    rescored = json.loads(invoke("score", str(out), "--json").stdout)["trust"]["judge"]
    assert (rescored["fetched"], rescored["cache_only"], rescored["unknown_entries"]) == (0, 3, 0)
