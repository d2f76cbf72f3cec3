"""Callers on a machine without flite and espeak-ng: a realistic run stops before its
first episode naming the package, unless `--allow-voice-fallback`, when the robotic
personas' neural fallbacks speak for them (recorded per episode) and both neural
voices are heard. The engines are hidden for real: a PATH without them, and
flite's fixed fallback path pointed nowhere, in a fresh process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from duplexbench.users import PERSONAS_VERSION

pytestmark = pytest.mark.slow  # two runs of two items x two repetitions; make test-e2e

ITEMS = "form-completion-01,corporate-negotiation-01"
"""Two items whose persona draws (seed 0, two repetitions) are hibari:heart, piper:joe,
an espeak-ng persona (fallback hibari:heart) and piper:joe."""
PROBE = (
    "import sys\n"
    "import duplexbench.speech._engines as engines\n"
    "engines.FLITE_FALLBACK = '/nonexistent/flite'\n"
    "from duplexbench.cli import main\n"
    "main(sys.argv[1:])\n"
)


def run(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    args = ["run", "--suite", "workflows-mini", "--items", ITEMS, "--agent", "oracle"]
    args += ["--condition", "realistic", "-k", "2", "--out", str(out), *extra]
    env = os.environ | {"PATH": str(Path(sys.executable).parent)}  # no espeak-ng, no flite
    command = [sys.executable, "-c", PROBE, *args]
    return subprocess.run(
        command, check=False, capture_output=True, text=True, env=env, timeout=600
    )


def personas(out: Path) -> list[dict[str, object]]:
    found = []
    for trace in sorted(out.glob("episodes/**/events.jsonl")):
        for line in trace.read_text().splitlines():
            event = json.loads(line)
            if event["type"] == "episode.condition":
                found.append(event["data"]["persona"])
    return found


def test_without_the_robotic_engines_a_run_stops_or_falls_back_when_allowed(
    tmp_path: Path,
) -> None:
    pytest.importorskip("hibari")
    pytest.importorskip("piper")
    refused = run(tmp_path / "refused")
    said = refused.stderr + refused.stdout
    assert refused.returncode != 0
    assert "apt-get install" in said and "--allow-voice-fallback" in said  # the package named
    assert not list((tmp_path / "refused").glob("episodes/**/events.jsonl"))
    done = run(tmp_path / "fallback", "--allow-voice-fallback")
    assert done.returncode == 0, done.stderr[-3000:]
    heard = personas(tmp_path / "fallback")
    assert len(heard) == 4
    assert {p["voice"] for p in heard} == {"piper:joe", "hibari:heart"}
    (stood_in,) = [p for p in heard if "fallback_for" in p]
    assert str(stood_in["fallback_for"]).startswith("espeak:")
    assert all(p["table_version"] == PERSONAS_VERSION for p in heard)
    spec = json.loads((tmp_path / "fallback" / "campaign.json").read_text())
    assert spec["voice_fallback"] is True
