"""Network agents on action suites: `ideal-floor` behind `serve-agent`, reached through the
`openai-realtime` adapter on the realtime clock, gives the in-process verdicts.

One item of each of actions-v1's 24 conditions, its voices swapped for synthetic
ones fitted to the annotated segment times (fast to render; the annotations stay
exact), run in process and over the network at 10x.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from duplexbench.campaign._model import RunOptions
from duplexbench.campaign._runner import run_campaign
from duplexbench.items._action import ActionItem
from duplexbench.items._action_suite import load_action_suite
from duplexbench.items._suite import SuiteManifest
from duplexbench.speech import agent_voice_for
from duplexbench.suites._package import resolve_suite, write_suite
from support.scores import action_scores

pytest.importorskip("piper", reason="ideal-floor speaks with piper:joe")

VOICES = {"user": "synthetic:alto", "other": "synthetic:tenor", "background": "synthetic:bass"}
LENT = agent_voice_for([(VOICES["user"], 0.0)])
"""The voice the harness lends in-process agents on these items (a synthetic caller keeps
the agent on its voice, `speech/_agent_voice.py`): the served agent speaks it too."""


def one_per_condition() -> list[ActionItem]:
    seen: dict[str, ActionItem] = {}
    for item in load_action_suite(resolve_suite("actions-v1")).items:
        seen.setdefault(item.condition, item)
    items = []
    for item in seen.values():
        segments = [s.model_copy(update={"voice": VOICES[s.role]}) for s in item.segments]
        update = {"segments": segments, "source": "extracted", "source_ref": "actions-v1"}
        items.append(item.model_copy(update=update))
    return items


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[ActionItem]]:
    root = tmp_path_factory.mktemp("network-actions")
    items = one_per_condition()
    manifest = SuiteManifest(name="actions-sample", family="action", version="1")
    write_suite(root / "suite", manifest, items)
    return root / "suite", root / "bank", items


@contextmanager
def served(suite: Path, bank: Path) -> Iterator[str]:
    """`duplexbench serve-agent --agent ideal-floor --suite SUITE` on a free loopback port,
    in its own process (as a user runs it); its base URL."""
    command = [sys.executable, "-c", "from duplexbench.cli import main; main()", "serve-agent"]
    command += ["--agent", "ideal-floor", "--suite", str(suite), "--port", "0"]
    command += ["--speech-cache", str(bank), "--voice", LENT]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # "serving ideal-floor (...) at ws://127.0.0.1:PORT/v1"
        assert " at ws://" in line, line
        yield line.rsplit(" at ", 1)[1].strip()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)


def test_network_replays_give_the_in_process_verdicts(
    sample: tuple[Path, Path, list[ActionItem]], tmp_path: Path
) -> None:
    suite, bank, _ = sample
    local = run_campaign(
        RunOptions(str(suite), "ideal-floor", repeats=1, speech_cache=bank, out=tmp_path / "a")
    )
    with served(suite, bank) as url:
        spec = f"openai-realtime?base_url={url}&episode_metadata=on&interrupt_response=off"
        options = RunOptions(
            str(suite), spec, repeats=1, speech_cache=bank, out=tmp_path / "b", realtime_speed=10
        )
        network = run_campaign(options)
    for result in (local, network):
        assert result.summary.errors == result.summary.agent_errors == 0
    assert len({s.condition for s in action_scores(network.scores)}) == 24
    here = {s.item_id: s.immediate for s in action_scores(local.scores)}
    there = {s.item_id: s.immediate for s in action_scores(network.scores)}
    assert here.keys() == there.keys()
    agree = [i for i in here if here[i] == there[i]]
    assert len(agree) >= 0.95 * len(here), {i: (here[i], there[i]) for i in here if i not in agree}
    assert all(here[i] is not False for i in here)  # the ceiling: nothing it fails in process


def test_a_privileged_agent_needs_the_item_named(
    sample: tuple[Path, Path, list[ActionItem]], tmp_path: Path
) -> None:
    """Without episode_metadata=on the served ideal-floor cannot know the item: the episode
    is the agent's error, with the reason, never a silent pass."""
    suite, bank, items = sample
    with served(suite, bank) as url:
        spec = f"openai-realtime?base_url={url}"
        options = RunOptions(
            str(suite), spec, repeats=1, speech_cache=bank, out=tmp_path / "b", items=(items[0].id,)
        )
        result = run_campaign(options)
    assert result.summary.agent_errors == 1 and result.summary.errors == 0
    assert "episode_metadata=on" in (result.scores[0].agent_error or "")
    assert action_scores(result.scores)[0].immediate is False
