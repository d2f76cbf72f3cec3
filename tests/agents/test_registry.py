"""Agent specs, the registering decorator and listing."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from duplexbench.agents import AgentTurn, ScriptedAgent, get_agent, list_agents, register_agent
from duplexbench.agents import _catalog as catalog
from duplexbench.agents import _registry as registry
from duplexbench.agents._registry import AgentSpec, Channel, parse_spec, redact_spec


def test_parse_spec() -> None:
    spec = parse_spec("openai-realtime:gpt-realtime?voice=marin&base_url=http://x/v1")
    assert spec == AgentSpec(
        "openai-realtime",
        "gpt-realtime",
        {"voice": "marin", "base_url": "http://x/v1"},
        "openai-realtime:gpt-realtime?voice=marin&base_url=http://x/v1",
    )
    assert parse_spec("noop") == AgentSpec("noop", None, {}, "noop")


@pytest.mark.parametrize("bad", ["", "Upper", "a b", "x?=1&&"])
def test_bad_specs(bad: str) -> None:
    with pytest.raises(ValueError, match="agent spec"):
        parse_spec(bad)


def test_register_list_and_get() -> None:
    @register_agent("test-scripted", description="for this test")
    def _factory(spec: AgentSpec, channel: Channel) -> ScriptedAgent:
        return ScriptedAgent([AgentTurn(say=spec.options.get("line", "hi"))])

    names = [a.name for a in list_agents()]
    assert {"oracle", "noop", "test-scripted"} <= set(names)
    info, spec = get_agent("test-scripted?line=hello")
    agent = info.factory(spec, "text")
    assert isinstance(agent, ScriptedAgent) and agent.turns[0].say == "hello"
    with pytest.raises(ValueError, match="already registered"):
        register_agent("test-scripted", description="again")(_factory)


def test_unknown_agent_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown agent 'gpt-9'; known agents: .*noop.*oracle"):
        get_agent("gpt-9")


def test_secret_options_are_redacted_in_records() -> None:
    raw = "openai-realtime:m?api_key=sk-live-123&api_key_env=OPENAI_API_KEY&voice=marin"
    assert (
        redact_spec(raw) == "openai-realtime:m?api_key=***&api_key_env=OPENAI_API_KEY&voice=marin"
    )
    assert redact_spec("oracle") == "oracle"


def test_third_party_agents_register_through_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[str] = []

    class FakeEntryPoint:
        name = "plugin-agent"
        value = "my_package.duplexbench_agent"

        def load(self) -> None:
            loaded.append(self.value)

            @register_agent("plugin-agent", description="from a plug-in", origin="my-package")
            def _factory(spec: AgentSpec, channel: str) -> ScriptedAgent:
                return ScriptedAgent([])

    monkeypatch.setattr(
        "duplexbench.agents._plugins.entry_points", lambda group: [FakeEntryPoint()]
    )
    names = {a.name: a for a in list_agents()}
    assert names["plugin-agent"].origin == "my-package" and loaded == [FakeEntryPoint.value]
    list_agents()
    assert loaded == [FakeEntryPoint.value]  # imported once


def test_each_lazy_built_in_is_registered_by_its_catalog_module() -> None:
    """`_catalog.py` names the module of each lazy built-in; that module registers it as
    a built-in (the registry itself names no built-in)."""
    list_agents()  # imports every catalogued module
    for name, module in catalog._LAZY_BUILTINS.items():
        info = registry._REGISTRY[name]
        assert info.origin == registry.BUILT_IN and info.factory.__module__ == module, name


def test_importing_the_face_leaves_the_network_adapters_unimported() -> None:
    code = (
        "import sys, duplexbench.agents\n"
        "print(sorted(m for m in sys.modules if m.startswith('duplexbench.agents._')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    loaded = set(ast.literal_eval(done.stdout))
    assert "duplexbench.agents._catalog" in loaded
    assert not loaded & set(catalog._LAZY_BUILTINS.values())
