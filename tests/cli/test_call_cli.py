"""`duplexbench call`: the command a person runs, driven here by a WebSocket client in
place of the page (the page itself: tests/call/)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

from click.testing import CliRunner
from websockets.sync.client import connect
from websockets.sync.connection import Connection

from duplexbench.cli import main
from support.fixtures import FIXTURES

ITEM = "form-expense-correction"


def next_message(ws: Connection, kind: str, **fields: object) -> dict[str, object]:
    """The server's next JSON message of type `kind` with these `fields` (others, and
    audio, are skipped)."""
    while True:
        raw = ws.recv(timeout=60)
        if isinstance(raw, str):
            message: dict[str, object] = json.loads(raw)
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message


def test_a_call_runs_from_the_command_line_and_lands_in_a_human_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["call", "--suite", str(FIXTURES), "--item", ITEM, "--agent", "silent"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "duplexbench.cli", *args, "--port", "0", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = next(line.strip() for line in proc.stdout if line.strip().startswith("http://"))
        parts = urlsplit(url)
        with connect(f"ws://{parts.netloc}/ws?{parts.query}") as ws:
            assert next_message(ws, "item")["item_id"] == ITEM
            next_message(ws, "status", state="ready")
            ws.send(json.dumps({"type": "hello", "sample_rate": 16000}))
            ws.send(json.dumps({"type": "start"}))
            next_message(ws, "status", state="live")
            ws.send(bytes(640 * 25))  # half a second of silence
            ws.send(json.dumps({"type": "end"}))
            ended = next_message(ws, "ended")
        assert proc.wait(timeout=60) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        proc.kill()
    assert ended["complete"] is True and ended["reason"] == "user_ended"
    assert "workflow failed" in str(ended["summary"])  # the silent agent did no work
    assert json.loads((out / "campaign.json").read_text())["condition"] == "human"
    (result,) = out.glob("episodes/**/result.json")
    assert json.loads(result.read_text())["status"] == "ok"


def test_a_non_loopback_host_is_refused_unless_allowed() -> None:
    args = ["call", "--suite", str(FIXTURES), "--item", ITEM, "--agent", "silent"]
    result = CliRunner().invoke(main, [*args, "--host", "0.0.0.0"])
    assert result.exit_code == 2 and "not a loopback address" in result.output


def test_an_unknown_agent_is_refused_before_the_page_opens() -> None:
    result = CliRunner().invoke(
        main, ["call", "--suite", str(FIXTURES), "--item", ITEM, "--agent", "no-such-agent"]
    )
    assert result.exit_code == 2 and "no-such-agent" in result.output
    assert "http://" not in result.output


def test_a_run_directory_in_use_is_refused_with_a_message(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "notes.txt").write_text("mine")
    args = ["call", "--suite", str(FIXTURES), "--item", ITEM, "--agent", "silent"]
    result = CliRunner().invoke(main, [*args, "--port", "0", "--out", str(tmp_path / "run")])
    assert result.exit_code == 2 and "not empty" in result.output
    assert (tmp_path / "run" / "notes.txt").read_text() == "mine"


def call_once(proc: subprocess.Popen[str], item: str) -> dict[str, object]:
    """Answer the page's side of one call of `item`: start, half a second, end."""
    assert proc.stdout is not None
    url = next(line.strip() for line in proc.stdout if line.strip().startswith("http://"))
    parts = urlsplit(url)
    with connect(f"ws://{parts.netloc}/ws?{parts.query}") as ws:
        ws.send(json.dumps({"type": "hello", "sample_rate": 16000}))
        next_message(ws, "item", item_id=item)
        next_message(ws, "status", state="ready")
        ws.send(json.dumps({"type": "start"}))
        next_message(ws, "status", state="live")
        ws.send(bytes(640 * 25))
        ws.send(json.dumps({"type": "end"}))
        return next_message(ws, "ended")


def start_call(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "duplexbench.cli", "call", *args, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_an_audit_plan_is_walked_and_a_session_resumes_where_it_stopped(tmp_path: Path) -> None:
    plan = tmp_path / "audit.yaml"
    out = tmp_path / "audit-run"
    plan.write_text(
        f"suite: {FIXTURES}\nagent: silent\nitems: [{ITEM}, order-revocation]\nout: {out}\n"
    )
    first = start_call(["--plan", str(plan)])
    try:
        assert call_once(first, ITEM)["complete"] is True
    finally:
        first.kill()  # the person stops before the second call
        first.wait(timeout=30)
    again = start_call(["--plan", str(plan), "--resume"])
    try:
        assert again.stdout is not None
        ended = call_once(again, "order-revocation")
        assert again.wait(timeout=60) == 0
    finally:
        again.kill()
    assert ended["complete"] is True
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(r["item_id"] for r in rows) == ["form-expense-correction", "order-revocation"]
    spec = json.loads((out / "campaign.json").read_text())
    assert (spec["user"], spec["condition"]) == ("human", "human")


def test_a_plan_and_explicit_calls_are_not_mixed(tmp_path: Path) -> None:
    plan = tmp_path / "audit.yaml"
    plan.write_text(f"suite: {FIXTURES}\nagent: silent\nitems: [{ITEM}]\n")
    mixed = CliRunner().invoke(main, ["call", "--plan", str(plan), "--agent", "silent"])
    assert mixed.exit_code == 2 and "drop --suite/--item/--agent" in mixed.output
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"suite: {FIXTURES}\nagent: silent\nitems: [{ITEM}, {ITEM}]\nrepeats: 3\n")
    refused = CliRunner().invoke(main, ["call", "--plan", str(bad)])
    assert refused.exit_code == 2 and "invalid audit plan" in refused.output
    assert "repeats" in refused.output
    nothing = CliRunner().invoke(main, ["call", "--suite", str(FIXTURES)])
    assert nothing.exit_code == 2 and "--plan FILE" in nothing.output


def test_a_text_only_agent_is_refused_before_the_page_opens() -> None:
    """Bug: `--agent shortcut` (text only) opened the page, then died with a traceback."""
    args = ["call", "--suite", str(FIXTURES), "--item", ITEM, "--agent", "shortcut"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "has no audio channel" in result.output
    assert "http://" not in result.output
