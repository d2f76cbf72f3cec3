"""Determinism: the same campaign twice gives the same audio and scores; a copied run
directory re-scores to the same numbers; repetitions use different simulator seeds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from duplexbench.campaign import CONDITIONS
from duplexbench.campaign._model import RunOptions
from duplexbench.campaign._rescore import rescore_run
from duplexbench.campaign._runner import run_campaign
from support.fixtures import FIXTURES


def audio_hashes(out: Path) -> dict[str, tuple[str, ...]]:
    """Per episode: the user channel, the degraded line and the agent channel checksums,
    and the repetition seed."""
    hashes: dict[str, tuple[str, ...]] = {}
    for trace in sorted(out.glob("episodes/*/*/*/r*/events.jsonl")):
        events = [json.loads(line) for line in trace.read_text().splitlines()]
        audio = next(e["data"] for e in events if e["type"] == "episode.audio")
        start = events[0]["data"]
        key = str(trace.parent.relative_to(out))
        hashes[key] = (
            audio["user_sha256"],
            audio["line_sha256"] or "",
            audio["agent_sha256"],
            str(start["repetition_seed"]),
        )
    return hashes


def test_same_campaign_twice_same_audio_and_scores(tmp_path: Path) -> None:
    runs = []
    for name in ("a", "b"):
        opts = RunOptions(
            str(FIXTURES),
            agent="oracle",
            condition=CONDITIONS["noise"],
            repeats=2,
            out=tmp_path / name,
        )
        runs.append(run_campaign(opts))
    a, b = audio_hashes(tmp_path / "a"), audio_hashes(tmp_path / "b")
    assert len(a) == 10 and a == b  # user channel, line and agent audio byte-identical
    assert runs[0].summary == runs[1].summary
    seeds = {key.rsplit("/", 1)[0]: set() for key in a}  # type: dict[str, set[str]]
    for key, value in a.items():
        seeds[key.rsplit("/", 1)[0]].add(value[3])
    assert all(len(s) == 2 for s in seeds.values())  # r0 and r1: different simulator seeds
    lines = {key.rsplit("/", 1)[0]: set() for key in a}  # type: dict[str, set[str]]
    for key, value in a.items():
        lines[key.rsplit("/", 1)[0]].add(value[1])
    assert all(len(s) == 2 for s in lines.values())  # and different noise on the line


def test_score_on_a_copy_reproduces_every_number(tmp_path: Path) -> None:
    result = run_campaign(
        RunOptions(
            str(FIXTURES),
            agent="oracle",
            condition=CONDITIONS["text"],
            repeats=2,
            out=tmp_path / "a",
        )
    )
    shutil.copytree(tmp_path / "a", tmp_path / "copy")
    again = rescore_run(tmp_path / "copy", write=False)
    assert again.summary == result.summary
    assert [s.model_dump() for s in again.scores] == [s.model_dump() for s in result.scores]
