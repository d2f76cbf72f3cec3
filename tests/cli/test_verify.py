"""`duplexbench verify`: a re-run sample reproduces a local agent's traces, and finds a
trace forged consistently (docs/security.md, "Verifying a run")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from duplexbench.cli import main
from support.fixtures import FIXTURES

ITEMS = "meeting-scheduling,form-expense-correction"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _run(out: Path, agent: str) -> Path:
    args = ["run", "--suite", str(FIXTURES), "--agent", agent, "--condition", "text"]
    result = invoke(*args, "-k", "1", "--items", ITEMS, "--out", str(out), "--json")
    assert result.exit_code == 0, result.output
    return out


def _verify(*paths: Path) -> tuple[int, list[dict[str, Any]]]:
    result = invoke("verify", *map(str, paths), "--sample", "1", "--json")
    checks: list[dict[str, Any]] = json.loads(result.stdout)
    return result.exit_code, checks


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("verify") / "reference", "reference")


def test_a_reference_run_reproduces_its_traces(reference: Path) -> None:
    code, [check] = _verify(reference)
    assert code == 0 and check["mode"] == "trace" and check["verified"] is True
    assert len(check["episodes"]) == check["agree"] == 2
    assert all(e["identical"] and e["difference"] is None for e in check["episodes"])


def _forge(run: Path) -> str:
    """Rewrite one written value everywhere the trace repeats it (call, field, result)."""
    [trace] = run.glob("episodes/reference/text/meeting-scheduling/r0/events.jsonl")
    lines = trace.read_text().splitlines()
    value: str = next(
        json.loads(line)["data"]["new"]
        for line in lines
        if json.loads(line)["type"] == "artifact.field"
        and isinstance(json.loads(line)["data"]["new"], str)
    )
    forged = json.dumps(value)[:-1] + ' (approved)"'
    events = [json.loads(line.replace(json.dumps(value), forged)) for line in lines]
    for event in events:  # the replay links a value to the fact it matches: unlink it too
        if event["type"] == "artifact.field" and event["data"]["new"] == json.loads(forged):
            event["data"]["fact_version"] = None
    trace.write_text("".join(json.dumps(e) + "\n" for e in events))
    return value


def test_a_consistent_forgery_passes_scoring_and_fails_verify(
    reference: Path, tmp_path: Path
) -> None:
    run = Path(shutil.copytree(reference, tmp_path / "forged"))  # the module's run stays clean
    _forge(run)
    scored = json.loads(invoke("score", str(run), "--json").stdout)
    assert scored["tampered"] == 0  # the replay check cannot see a consistent rewrite
    code, [check] = _verify(run)
    assert code == 1 and check["verified"] is False and check["agree"] == 1
    [bad] = [e for e in check["episodes"] if not e["identical"]]
    assert bad["item_id"] == "meeting-scheduling"
    assert "artifact" in bad["difference"] or "tool" in bad["difference"]


def test_runs_that_cannot_be_rerun_say_why_and_the_rest_are_verified(
    reference: Path, tmp_path: Path
) -> None:
    oracle = _run(tmp_path / "oracle", "oracle")
    missing = _run(tmp_path / "missing", "noop")
    spec = json.loads((missing / "campaign.json").read_text())
    spec["agent"] = "no-such-plugin-agent"
    (missing / "campaign.json").write_text(json.dumps(spec))
    code, checks = _verify(reference, oracle, missing)
    by_agent = {c["agent"]: c for c in checks}
    assert code == 0  # every run that could be re-run was verified
    assert by_agent["reference"]["verified"] is True
    assert "privileged" in by_agent["oracle"]["cannot_rerun"]
    assert "not available" in by_agent["no-such-plugin-agent"]["cannot_rerun"]
    table = invoke("verify", str(oracle), "--sample", "1")
    assert table.exit_code == 1 and "not re-run: the agent is privileged" in table.stdout
