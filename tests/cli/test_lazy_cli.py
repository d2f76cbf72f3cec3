"""The verbs load lazily: `--help` imports none of them, and its table says what they say."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from duplexbench.agents._registry import get_agent, list_agents
from duplexbench.cli import VERBS, main


def test_the_verb_table_matches_every_verb() -> None:
    ctx = click.Context(main)
    for name, (module, attribute, short) in VERBS.items():
        command = main.get_command(ctx, name)
        assert command is not None and command.name == name, name
        assert command.callback is None or command.callback.__module__ == module
        assert short == command.get_short_help_str(limit=300), f"{name}: update VERBS"
        assert attribute in vars(sys.modules[module])
    assert main.get_command(ctx, "no-such-verb") is None


def test_help_imports_no_verb() -> None:
    probe = (
        "import json, sys\n"
        "from duplexbench.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('duplexbench'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    loaded = set(json.loads(out.strip().splitlines()[-1]))
    assert "Commands:" in out and "serve-agent" in out
    assert loaded <= {"duplexbench", "duplexbench.cli"}, loaded


def test_a_verb_still_runs_and_an_unknown_one_is_refused() -> None:
    result = CliRunner().invoke(main, ["agents", "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output
    wrong = CliRunner().invoke(main, ["rnu"])
    assert wrong.exit_code == 2 and "No such command" in wrong.output


def test_a_local_agent_run_starts_without_the_network_stack(tmp_path: Path) -> None:
    """Up to its first episode, `run` with the reference agent imports no network
    adapter, asyncio or websockets (they cost start-up; only network agents use them)."""
    probe = (
        "import json, os, sys\n"
        "import duplexbench.campaign._episode_runner as episode_runner\n"
        "def first_episode(self, setup):\n"
        "    names = [m for m in sys.modules if m.split('.')[0] in ('asyncio', 'websockets')\n"
        "             or m.startswith('duplexbench.agents.') and m.split('.')[-1] in\n"
        "             ('openai_realtime', 'gemini_live', 'step_audio', 'transport', 'faults')]\n"
        "    print(json.dumps(sorted(names)), flush=True)\n"
        "    os._exit(0)\n"
        "episode_runner.EpisodeRunner.run = first_episode\n"
        "from duplexbench.cli import main\n"
        "main(sys.argv[1:])\n"
    )
    args = ["run", "--limit", "1", "-k", "1", "--condition", "text", "-q"]
    args += ["--out", str(tmp_path / "run")]
    done = subprocess.run(
        [sys.executable, "-c", probe, *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_network_agents_still_load_by_name_and_all_are_listed() -> None:
    assert get_agent("openai-realtime")[0].name == "openai-realtime"
    names = {a.name for a in list_agents()}
    assert {"reference", "oracle", "fault", "gemini-live", "step-audio"} <= names
