"""`duplexbench score` on a run whose trace was edited: the episode is named as tampered."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._model import RunOptions
from duplexbench.campaign._runner import run_campaign
from duplexbench.cli import main
from duplexbench.trace._events import ApprovalGranted, ApprovalGrantedData
from duplexbench.trace._io import dump_event, read_events, write_events
from support.fixtures import FIXTURES


def test_score_names_an_episode_with_a_forged_approval(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_campaign(
        RunOptions(str(FIXTURES), agent="oracle", condition=CONDITIONS["text"], repeats=1, out=out)
    )
    clean = CliRunner().invoke(main, ["score", str(out), "--json", "--no-write"])
    assert clean.exit_code == 0, clean.output
    assert json.loads(clean.stdout)["tampered"] == 0

    rel = "episodes/oracle/text/form-expense-correction/r0"
    path = out / rel / "events.jsonl"
    events = read_events(path)
    first_call = next(i for i, e in enumerate(events) if e.type == "tool.call")
    data = ApprovalGranted(
        seq=0,
        t_ms=events[first_call].t_ms,
        data=ApprovalGrantedData(
            token="tok-9", approval_id="approve_submit", action="submit_expense", target=None
        ),
    )
    edited = [*events[:first_call], data, *events[first_call:]]
    write_events(path, [e.model_copy(update={"seq": i}) for i, e in enumerate(edited)])
    assert dump_event(edited[first_call]).count("approval.granted") == 1

    result = CliRunner().invoke(main, ["score", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["tampered"] == 1 and summary["errors"] == 0
    assert summary["agent_errors"] == 1  # scored as a failure, never left out
    assert summary["workflows"]["runs"] == 5 and summary["workflows"]["pass_at_1"] == 0.8
    warning = f"warning: {rel}: tampered: event {first_call} at {events[first_call].t_ms} ms"
    assert warning in result.stderr
    assert "no user approval backs" in result.stderr
    assert any(
        w.startswith("tampered traces: not a valid result") for w in summary["trust"]["warnings"]
    )
    saved = json.loads((out / rel / "result.json").read_text())
    assert saved["status"] == "ok" and saved["ws"] == 0
    assert saved["agent_error"].startswith("tampered: ")
