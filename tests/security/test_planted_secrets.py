"""Planted API keys never reach a run directory, its index, its report or the CLI's output.

A hosted agent spec carries a key twice (in the environment variable it names,
and inline as `api_key=`), the agent's endpoint refuses the connection, and
every file the run, `score`, `report --html` and `view` write is scanned.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from duplexbench.cli import main
from support.fixtures import FIXTURES

ENV_KEY = "sk-planted-env-4f1c9a7d2e"
INLINE_KEY = "sk-planted-inline-8b3e6f0a1c"


def scan(folder: Path) -> list[str]:
    """Files under `folder` that contain either planted key (bytes, any encoding-free match)."""
    hits = []
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            if ENV_KEY.encode() in data or INLINE_KEY.encode() in data:
                hits.append(str(path.relative_to(folder)))
    return hits


def run_args(spec: str, out: Path) -> list[str]:
    return [
        "run", "--suite", str(FIXTURES), "--agent", spec, "-k", "1", "--items",
        "order-revocation", "--out", str(out), "--json", "-q",
    ]  # fmt: skip


def test_planted_keys_never_leak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DB_PLANTED_KEY", ENV_KEY)
    out = tmp_path / "run"
    spec = "openai-realtime?api_key_env=DB_PLANTED_KEY&base_url=ws://127.0.0.1:9/v1"
    result = CliRunner().invoke(main, run_args(spec, out))
    assert result.exit_code == 4, result.output  # its only episode errored: nothing measured
    assert '"errors": 1' in result.output  # the refused connection is a harness error
    outputs = [result.output]
    outputs.append(CliRunner().invoke(main, ["score", str(out), "--json"]).output)
    html = tmp_path / "report.html"
    outputs.append(
        CliRunner().invoke(main, ["report", str(out), "--html", str(html), "--json"]).output
    )
    episode = next(out.glob("episodes/*/*/*/r0"))
    outputs.append(CliRunner().invoke(main, ["view", str(episode)]).output)
    assert html.exists() and (episode / "view.html").exists()
    assert scan(tmp_path) == []  # traces, results, index.sqlite, summaries, HTML
    assert not any(ENV_KEY in o for o in outputs)


def test_an_inline_key_is_refused_without_echoing_it(tmp_path: Path) -> None:
    spec = f"openai-realtime?api_key={INLINE_KEY}&base_url=ws://127.0.0.1:9/v1"
    result = CliRunner().invoke(main, run_args(spec, tmp_path / "run"))
    assert result.exit_code == 2 and "unknown option(s) api_key" in result.output
    assert INLINE_KEY not in result.output and not (tmp_path / "run").exists()
