"""Agents from outside duplexbench: isolated plug-ins, name conflicts, files, module:factory."""

from __future__ import annotations

import json
import logging
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duplexbench.agents import ScriptedAgent, get_agent, list_agents, register_agent
from duplexbench.agents import _plugins as plugins
from duplexbench.agents import _registry as registry
from duplexbench.agents._registry import AgentSpec
from duplexbench.campaign._spec import CampaignSpec
from duplexbench.campaign._trust import resolve_privileged
from duplexbench.cli import main
from support.fixtures import FIXTURES

AGENT_FILE = """
from duplexbench.agents import AgentTurn, ScriptedAgent, register_agent


@register_agent("file-agent", description="from a plug-in file")
def make(spec, channel):
    return ScriptedAgent([AgentTurn(say="hello from a file")])
"""

MODULE = '''
from duplexbench.agents import AgentTurn, ScriptedAgent


def make(spec, channel):
    """A scripted agent, by module path."""
    return ScriptedAgent([AgentTurn(say=spec.options.get("line", "hi"))])
'''


@pytest.fixture(autouse=True)
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test sees the built-ins and only its own plug-ins."""
    list_agents()  # the built-ins, registered once for the process
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.setattr(registry, "_CONFLICTS", {})
    monkeypatch.setattr(plugins, "_BROKEN", [])
    monkeypatch.setattr(plugins, "_DONE", set())
    monkeypatch.setenv(plugins.PLUGINS_ENV, "")  # restored (unset) after the test
    yield


class FakeDist:
    def __init__(self, name: str) -> None:
        self.name = name


class FakeEntryPoint:
    def __init__(self, name: str, dist: str, load: Callable[[], Any]) -> None:
        self.name, self.value, self.dist = name, f"{dist.replace('-', '_')}.agent", FakeDist(dist)
        self._load = load

    def load(self) -> Any:
        return self._load()


def _scripted(spec: AgentSpec, channel: str) -> ScriptedAgent:
    return ScriptedAgent([])


def _registers(name: str) -> Callable[[], None]:
    def load() -> None:
        register_agent(name, description=f"{name} from a plug-in")(_scripted)

    return load


def _broken() -> None:
    raise ImportError("No module named 'torch'")


def _install(monkeypatch: pytest.MonkeyPatch, *eps: FakeEntryPoint) -> None:
    monkeypatch.setattr(plugins, "entry_points", lambda group: list(eps))


def test_a_broken_plug_in_is_one_warning_and_the_rest_works(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _install(
        monkeypatch,
        FakeEntryPoint("bad", "broken-pkg", _broken),
        FakeEntryPoint("good", "good-pkg", _registers("good-agent")),
    )
    with caplog.at_level(logging.WARNING, logger="duplexbench.plugins"):
        names = {a.name: a for a in list_agents()}
        list_agents()  # loaded once: one warning, not one per lookup
    [warning] = caplog.messages
    assert "plug-in broken-pkg" in warning and "No module named 'torch'" in warning
    assert names["good-agent"].origin == "good-pkg"  # the distribution, not "built-in"
    assert get_agent("oracle")[0].origin == "built-in"
    listing = CliRunner().invoke(main, ["agents", "list", "--json"])
    assert listing.exit_code == 0, listing.output
    broken = [r for r in json.loads(listing.output) if r["status"] == "broken"]
    assert broken == [
        {
            "origin": "plug-in broken-pkg (entry point bad = broken_pkg.agent)",
            "status": "broken",
            "error": "ImportError: No module named 'torch'",
        }
    ]


def test_a_name_two_plug_ins_claim_fails_only_when_used(monkeypatch: pytest.MonkeyPatch) -> None:
    _install(
        monkeypatch,
        FakeEntryPoint("a", "pkg-one", _registers("twin")),
        FakeEntryPoint("b", "pkg-two", _registers("twin")),
        FakeEntryPoint("c", "pkg-three", _registers("oracle")),  # a built-in name
    )
    assert get_agent("oracle")[0].origin == "built-in"  # the built-in stays
    with pytest.raises(ValueError, match=r"'twin' is registered by more than one plug-in "):
        get_agent("twin")
    with pytest.raises(ValueError, match="pkg-one and pkg-two"):
        get_agent("twin")
    listing = CliRunner().invoke(main, ["agents", "list"])
    assert (
        listing.exit_code == 0 and "conflict: registered by pkg-one and pkg-two" in listing.output
    )


def test_run_with_an_oracle_beside_broken_and_clashing_plug_ins(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _install(
        monkeypatch,
        FakeEntryPoint("bad", "broken-pkg", _broken),
        FakeEntryPoint("a", "pkg-one", _registers("twin")),
        FakeEntryPoint("b", "pkg-two", _registers("twin")),
    )
    args = ["run", "--suite", str(FIXTURES), "--agent", "oracle", "--condition", "text"]
    result = CliRunner().invoke(main, [*args, "--limit", "1", "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output


def test_a_plug_in_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "my_agent.py"
    path.write_text(AGENT_FILE)
    listing = CliRunner().invoke(main, ["--plugin", str(path), "agents", "list", "--json"])
    assert listing.exit_code == 0, listing.output
    [row] = [r for r in json.loads(listing.output) if r.get("name") == "file-agent"]
    assert row["origin"] == f"file {path.resolve()}" and row["status"] == "ok"
    out = tmp_path / "run"
    args = ["--plugin", str(path), "run", "--suite", str(FIXTURES), "--agent", "file-agent"]
    result = CliRunner().invoke(
        main, [*args, "--condition", "text", "--limit", "1", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    trace = next(out.glob("episodes/*/*/*/r0/events.jsonl")).read_text()
    assert "hello from a file" in trace


def test_a_factory_by_module_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "my_team").mkdir()
    (tmp_path / "my_team" / "__init__.py").write_text("")
    (tmp_path / "my_team" / "agent.py").write_text(MODULE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    info, spec = get_agent("my_team.agent:make?line=bonjour")
    agent = info.create(spec, "text")
    assert isinstance(agent, ScriptedAgent) and agent.turns[0].say == "bonjour"
    assert not info.privileged and info.origin.startswith("module my_team.agent (")
    args = ["run", "--suite", str(FIXTURES), "--agent", "my_team.agent:make?line=bonjour"]
    out = tmp_path / "run"
    result = CliRunner().invoke(
        main, [*args, "--condition", "text", "--limit", "1", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "bonjour" in next(out.glob("episodes/*/*/*/r0/events.jsonl")).read_text()
    with pytest.raises(ValueError, match=r"has no callable 'nope'"):
        get_agent("my_team.agent:nope")
    with pytest.raises(ValueError, match="unknown agent 'no_such_module'"):
        get_agent("no_such_module:make")
    with pytest.raises(ValueError, match=r"unknown agent 'my_team\.agent'"):  # a run dir's spec
        get_agent("my_team.agent:make", modules=False)


def test_a_module_that_fails_to_import_names_the_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "crashy.py").write_text(textwrap.dedent("raise RuntimeError('no GPU here')\n"))
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match="'crashy' failed to import: RuntimeError: no GPU here"):
        get_agent("crashy:make")


def test_a_run_directory_s_agent_spec_never_imports_a_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Re-scoring reads campaign.json's agent (an older one without the privileged flag is
    looked up): a `module:factory` spec there must not run code from the import path."""
    marker = tmp_path / "imported"
    (tmp_path / "planted.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = CampaignSpec(
        duplexbench_version="0.1", suite="s", suite_version="1", suite_path="s",
        agent="planted:make", condition="text", repeats=1, seed=0, items=[], item_checksums={},
    )  # fmt: skip
    assert resolve_privileged(spec) is None and not marker.exists()
