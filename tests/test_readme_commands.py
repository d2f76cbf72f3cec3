"""The README's commands stay true: every line of the ```sh block under "## Using it" runs.

Two checks per line:

- it parses: the line with `--help` appended exits 0, so an unknown subcommand or
  option fails at once, for every line, slow or not (`test_readme_line_parses`);
- it runs: `RUNS` below says how, in a scratch folder (`tmp_path`, where
  `tests/fixtures` links to the repository's, so the README's relative paths work).
  Where the README's command takes minutes it runs a one-item subset (`--limit 1
  -k 1`, `--condition text` where the line allows it); a line whose run still takes
  long is marked `slow` and runs only with `pytest -m slow`. A run keeps the README
  line's subcommand and every option it names (`test_every_readme_line_has_a_run`).

Editing a line in the README therefore means updating its row in `RUNS`.
"""

from __future__ import annotations

import json
import select
import shlex
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner, Result

from duplexbench.cli import main
from support.fixtures import FIXTURES

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PREFIX = ".venv/bin/duplexbench "
CORPUS = ROOT / "src/duplexbench/suites/data/observer-corpus/test/form_completion.yaml"
ONE_V2_ITEM = ROOT / "src/duplexbench/suites/data/workflows-v2/form-completion-01.yaml"

DEMO = "run --condition text --items inspection-01 -k 1 --out runs/demo/text -q"
"""A one-episode stand-in for `make demo`'s runs/demo (text only: audio is slow)."""


@dataclass(frozen=True)
class Run:
    """How the test runs one README line, in the scratch folder."""

    args: str
    """The command line run: the README's, with the substitutions its comment names."""
    slow: bool = False
    before: tuple[str, ...] = ()
    """Command lines run first, making what the line reads (a run directory)."""
    expect: tuple[str, ...] = ()
    """Strings the output must hold."""
    server: str | None = None
    """A `serve-agent` line kept running (in a subprocess) while this one runs."""


# README line (after `.venv/bin/duplexbench`, without its comment) -> how it is run.
# {port}: a free port; {v2_item}: one workflows-v2 item file.
RUNS: dict[str, Run] = {
    # the default suite and agent, one item, on the text channel
    "run": Run("run --condition text --limit 1 -k 1"),
    "run --suite workflows-v2 --agent oracle --json": Run(
        "run --suite workflows-v2 --agent oracle --json --condition text --limit 1 -k 1",
        expect=('"pass_at_1": 1.0',),
    ),
    "suite list": Run("suite list", expect=("workflows-v2", "workflows-mini", "actions-v1")),
    "suite stats workflows-v2": Run("suite stats workflows-v2"),
    # every check of one workflows-v2 item (the whole suite: 35 s)
    "suite validate workflows-v2": Run("suite validate {v2_item}", expect=("all checks passed",)),
    # six entries of the labelled corpus (the whole corpus: about a minute)
    "observer-eval": Run("observer-eval --corpus corpus"),
    "run --suite workflows-v2 --agent 'reference?phrasing=paraphrase' --condition text -k 1": Run(
        "run --suite workflows-v2 --agent 'reference?phrasing=paraphrase' --condition text"
        " -k 1 --limit 1"
    ),
    "import apex-voice PATH OUT": Run("import apex-voice tests/fixtures/apex-voice OUT"),
    "suite validate actions-v1": Run("suite validate actions-v1", expect=("672 action item(s)",)),
    "run --suite actions-v1 --agent reference -k 1": Run(
        "run --suite actions-v1 --agent reference -k 1 --limit 1", slow=True
    ),
    "run --suite tests/fixtures --agent oracle --repeats 3 --json": Run(
        "run --suite tests/fixtures --agent oracle --repeats 3 --json --condition text",
        expect=('"pass_at_1": 1.0',),
    ),
    "run --suite tests/fixtures --condition text": Run(
        "run --suite tests/fixtures --condition text"
    ),
    "run --suite workflows-mini --condition text,clean,realistic -k 1": Run(
        "run --suite workflows-mini --condition text,clean,realistic -k 1 --limit 1", slow=True
    ),
    # plan.yaml: the oracle on one fixture item, text, one repetition
    "campaign run plan.yaml --out runs/big --workers 2": Run(
        "campaign run plan.yaml --out runs/big --workers 2"
    ),
    "report runs/demo --html report.html": Run(
        "report runs/demo --html report.html", before=(DEMO,)
    ),
    # the text run of the stand-in demo (make demo also writes clean/)
    "view runs/demo/clean/episodes/reference/clean/inspection-01/r0": Run(
        "view runs/demo/text/episodes/reference/text/inspection-01/r0", before=(DEMO,)
    ),
    "score runs/fixtures-oracle --json": Run(
        "score runs/fixtures-oracle --json",
        before=("run --suite tests/fixtures --agent oracle --condition text -k 1 --limit 1 -q",),
        expect=('"pass_at_1": 1.0',),
    ),
    "verify runs/demo --sample 0.1": Run(
        "verify runs/demo --sample 0.1", before=(DEMO,), expect=("verified",)
    ),
    "suite validate tests/fixtures": Run(
        "suite validate tests/fixtures", expect=("all checks passed",)
    ),
    "suite generate workflows --seed 7 --out my-suite": Run(
        "suite generate workflows --seed 7 --out my-suite --per-archetype 1",
        expect=("workflows-seed7: 12 items written to my-suite",),
    ),
    "suite build tests/fixtures": Run("suite build tests/fixtures", slow=True),
    "suite schema": Run("suite schema", expect=('"$schema"',)),
    "agents list": Run(
        "agents list",
        expect=(
            "openai-realtime",
            "xai-realtime",
            "azure-realtime",
            "gemini-live",
            "step-audio",
            "twilio-stream",
            "moshi",
            "text",
        ),
    ),
    "run --suite tests/fixtures --agent reference": Run(
        "run --suite tests/fixtures --agent reference --limit 1 -k 1", slow=True
    ),
    # started, serving, stopped with Ctrl-C (SIGINT); the next line talks to it
    "serve-agent --agent reference --port 8765": Run("serve-agent --agent reference --port {port}"),
    "run --suite tests/fixtures --agent 'openai-realtime?base_url=ws://127.0.0.1:8765/v1'": Run(
        "run --suite tests/fixtures --agent 'openai-realtime?base_url=ws://127.0.0.1:{port}/v1'"
        " --limit 1 -k 1",
        slow=True,
        server="serve-agent --agent reference --port {port}",
    ),
}


def readme_lines() -> list[list[str]]:
    """The command lines of the README's "Using it" block, as argument lists."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Using it\n", 1)[1]
    block = section.split("```sh\n", 1)[1].split("\n```", 1)[0]
    lines = []
    for raw in block.splitlines():
        assert raw.startswith(PREFIX), f"not a duplexbench command line: {raw!r}"
        lines.append(shlex.split(raw.removeprefix(PREFIX), comments=True))
    return lines


def invoke(args: list[str]) -> Result:
    return CliRunner().invoke(main, args, catch_exceptions=False)


def parses(args: list[str]) -> Result:
    """`--help` after the line: exit 0 unless a subcommand or an option is unknown."""
    return invoke([*args, "--help"])


def subcommand(args: list[str]) -> list[str]:
    """The verb path of a line (`suite validate`, `campaign run`, `run`)."""
    ctx, path = click.Context(main), []
    group: click.Group = main
    for word in args:
        command = group.get_command(ctx, word)
        if command is None:
            break
        path.append(word)
        if not isinstance(command, click.Group):
            break
        group = command
    return path


def options(args: list[str]) -> set[str]:
    return {a for a in args if a.startswith("-")}


@pytest.mark.parametrize("args", readme_lines(), ids=shlex.join)
def test_readme_line_parses(args: list[str]) -> None:
    result = parses(args)
    assert result.exit_code == 0 and "Usage:" in result.output, result.output


def test_the_parse_check_catches_a_broken_line() -> None:
    assert parses(["run", "--suite", "tests/fixtures", "--no-such-option"]).exit_code == 2
    assert parses(["suite", "no-such-verb"]).exit_code == 2
    assert parses(["no-such-verb"]).exit_code == 2


def test_every_readme_line_has_a_run() -> None:
    lines = {shlex.join(a): a for a in readme_lines()}
    table = {shlex.join(shlex.split(k)): k for k in RUNS}
    assert not lines.keys() - table.keys(), "README lines without a row in RUNS"
    assert not table.keys() - lines.keys(), "rows of RUNS whose line left the README"
    for line, args in lines.items():
        run = shlex.split(RUNS[table[line]].args)
        assert subcommand(run) == subcommand(args), line
        assert options(args) <= options(run), f"{line}: the run drops an option"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder to run README lines in: tests/fixtures, plan.yaml, a tiny corpus."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "fixtures").symlink_to(FIXTURES, target_is_directory=True)
    plan = {
        "agents": ["oracle"],
        "suites": ["tests/fixtures"],
        "conditions": ["text"],
        "repetitions": 1,
        "limit": 1,
    }
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(plan), encoding="utf-8")
    corpus = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
    corpus["entries"] = corpus["entries"][:6]
    (tmp_path / "corpus" / "test").mkdir(parents=True)
    (tmp_path / "corpus" / "test" / CORPUS.name).write_text(yaml.safe_dump(corpus), "utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@contextmanager
def serving(line: str) -> Iterator[subprocess.Popen[str]]:
    """`duplexbench serve-agent ...` in a subprocess, from "serving" until Ctrl-C."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "duplexbench.cli", *shlex.split(line)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        first = proc.stdout.readline() if ready else ""  # printed once the socket listens
        assert first.startswith("serving"), first + (proc.stderr.read() if proc.stderr else "")
        yield proc
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _row(line: str, run: Run) -> object:
    return pytest.param(line, run, id=line, marks=[pytest.mark.slow] if run.slow else [])


@pytest.mark.parametrize(("line", "run"), [_row(line, run) for line, run in RUNS.items()])
def test_readme_line_runs(line: str, run: Run, scratch: Path) -> None:
    values = {"port": str(free_port()), "v2_item": str(ONE_V2_ITEM)}
    for before in run.before:
        done = invoke(shlex.split(before))
        assert done.exit_code == 0, f"{before}\n{done.output}"
    args = shlex.split(run.args.format(**values))
    if args[0] == "serve-agent":
        port = int(values["port"])
        with serving(shlex.join(args)) as proc, socket.create_connection(("127.0.0.1", port)):
            pass
        assert proc.returncode == 0
        return
    if run.server is None:
        result = invoke(args)
    else:
        with serving(run.server.format(**values)):
            result = invoke(args)
    assert result.exit_code == 0, f"{shlex.join(args)}\n{result.output}"
    for text in run.expect:
        assert text in result.output, f"{shlex.join(args)}: no {text!r} in\n{result.output}"
    if "--json" in args:
        json.loads(result.stdout)
