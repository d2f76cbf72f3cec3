"""Render ahead: every clip a run's audio episodes need is in the bank before they start."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from duplexbench.agents import _cascade as cascade
from duplexbench.audio._wav import read_wav
from duplexbench.campaign import CONDITIONS
from duplexbench.campaign import _ahead as ahead_module
from duplexbench.campaign import _rehearsal as rehearsal_module
from duplexbench.campaign import _runner as runner_module
from duplexbench.campaign._ahead import AheadReport, plan_rehearsals, render_ahead
from duplexbench.campaign._model import ExecutionOptions, RunOptions
from duplexbench.campaign._rehearsal import Rehearsal, RehearsalCache, rehearse
from duplexbench.campaign._runner import prepare_target, run_campaign
from duplexbench.items._load import load_item
from duplexbench.speech import _bank as bank_module
from duplexbench.speech._asr import Transcript
from duplexbench.speech._bank import ClipRequest, SpeechBank
from support.fixtures import FIXTURES
from support.scores import workflow_scores

VOICE = "synthetic:alto"
ITEMS = ("meeting-scheduling", "airline-rebooking")
"""Items without a barge-in: lines said after one cuts the agent are not rehearsed."""


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    """The two fixture items, spoken in the fast synthetic voice."""
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "suite.yaml").write_text((FIXTURES / "suite.yaml").read_text())
    for name in ITEMS:
        data = yaml.safe_load((FIXTURES / f"{name}.yaml").read_text())
        data["user"]["persona"]["voice"] = VOICE
        (folder / f"{name}.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return folder


class ClipASR:
    """Hears exactly what was said: finds the bank's clips inside the audio."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _clips(self) -> Iterator[tuple[bytes, str]]:
        for sidecar in self.root.glob("*/*.json"):
            channels, _ = read_wav(sidecar.with_suffix(".wav"))
            yield channels[0].tobytes(), yaml.safe_load(sidecar.read_text())["text"]

    def transcribe(self, samples: np.ndarray[Any, Any]) -> Transcript:
        audio = samples.tobytes()
        found = sorted(
            (audio.find(clip), text) for clip, text in self._clips() if audio.find(clip) >= 0
        )
        return Transcript(" ".join(text for _, text in found), ())


@pytest.fixture
def ahead_log(monkeypatch: pytest.MonkeyPatch) -> list[tuple[AheadReport | None, int]]:
    """Each render-ahead of a run: its report and the process's renders when it ended."""
    log: list[tuple[AheadReport | None, int]] = []

    def recorded(*args: Any, **kwargs: Any) -> AheadReport | None:
        report = render_ahead(*args, **kwargs)
        log.append((report, bank_module.renders()))
        return report

    monkeypatch.setattr(runner_module, "render_ahead", recorded)
    return log


def _options(suite: Path, tmp_path: Path, agent: str, **kw: Any) -> RunOptions:
    condition = kw.pop("condition", "clean")
    return RunOptions(
        str(suite), agent=agent, condition=CONDITIONS[condition], repeats=kw.pop("repeats", 1),
        out=kw.pop("out", tmp_path) / f"run-{agent}-{condition}",
        speech_cache=tmp_path / "bank", **kw,
    )  # fmt: skip


def test_a_reference_run_renders_nothing_after_the_render_ahead(
    suite: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ahead_log: list[tuple[AheadReport | None, int]],
) -> None:
    monkeypatch.setattr(cascade, "get_asr", lambda name: ClipASR(tmp_path / "bank"))
    bars: dict[str, list[tuple[int, int]]] = {}

    def bar(description: str) -> Any:
        ticks = bars.setdefault(description, [])
        return lambda done, total, outcome: ticks.append((done, total))

    result = run_campaign(_options(suite, tmp_path, "reference"), bars=bar)
    [(report, renders_after_ahead)] = ahead_log
    assert report is not None and report.episodes == 2 and report.rehearsed == 2
    assert report.rendered == report.clips > 0 and not report.failures
    assert bank_module.renders() == renders_after_ahead  # no clip rendered during an episode
    text = run_campaign(_options(suite, tmp_path, "reference", condition="text", out=tmp_path))
    assert [s.afa for s in workflow_scores(result.scores)] == [
        s.afa for s in workflow_scores(text.scores)
    ]  # heard every word
    assert set(bars) == {"rehearsals · clean", "speech · clean"}
    assert bars["speech · clean"][-1] == (report.rendered, report.rendered)


def test_pool_workers_find_every_clip_in_the_bank(
    suite: Path, tmp_path: Path, ahead_log: list[tuple[AheadReport | None, int]]
) -> None:
    run_campaign(
        _options(suite, tmp_path, "oracle", repeats=2, execution=ExecutionOptions(workers=2))
    )
    [(report, _)] = ahead_log
    assert report is not None and (report.episodes, report.rehearsed) == (4, 4)
    clips = sorted((tmp_path / "bank").glob("*/*.wav"))
    assert len(clips) == report.clips  # the episodes, on two workers, added none
    target = prepare_target(_options(suite, tmp_path, "oracle", repeats=2, overwrite=True))
    again = render_ahead([target], ExecutionOptions())
    assert again is not None and (again.rehearsed, again.rendered) == (0, 0)  # all cached


def test_text_runs_and_ray_render_nothing(suite: Path, tmp_path: Path) -> None:
    text = prepare_target(_options(suite, tmp_path, "oracle", condition="text"))
    assert render_ahead([text], ExecutionOptions()) is None
    audio = prepare_target(_options(suite, tmp_path, "oracle"))
    assert render_ahead([audio], ExecutionOptions(backend="ray")) is None
    assert not (tmp_path / "bank").exists()


def test_only_the_selected_items_and_repetitions_are_rehearsed(suite: Path, tmp_path: Path) -> None:
    target = prepare_target(_options(suite, tmp_path, "oracle", repeats=3, limit=1))
    rehearsals = plan_rehearsals(target)
    assert [(r.item.id, r.repetition) for r in rehearsals] == [(min(ITEMS), i) for i in range(3)]


def test_agent_lines_are_predicted_only_for_agents_that_speak_through_the_bank() -> None:
    item = load_item(FIXTURES / "order-revocation.yaml")
    oracle = rehearse(Rehearsal(item, "oracle", CONDITIONS["clean"]))
    said = {t.say for t in item.reference.turns if t.say.strip()}
    assert said <= {c.text for c in oracle}
    user = rehearse(
        Rehearsal(item, "echo", CONDITIONS["clean"])
    )  # its own audio: the user's side only
    assert not said & {c.text for c in user}
    assert {c.text for c in user} <= {c.text for c in oracle}
    # Bug: the agent's lines were rehearsed in the caller's voice (piper:joe), so each was
    # rendered twice in a cold run, the second time inside the episode (the lent voice)
    assert {c.voice for c in oracle if c.text in said} == {"hibari:heart"}
    assert {c.voice for c in oracle if c.text not in said} == {"piper:joe"}


def test_a_caller_persona_speaks_in_its_own_voice_and_settings() -> None:
    item = load_item(FIXTURES / "order-revocation.yaml")
    clips = rehearse(Rehearsal(item, "oracle", CONDITIONS["accents"], repetition=1))
    agent = {t.say for t in item.reference.turns}
    user = [c for c in clips if c.text not in agent]
    assert len({(c.voice, c.settings) for c in user}) == 1
    assert {c.voice for c in clips if c.text in agent} == {"hibari:heart"}  # in every condition


def test_the_rehearsal_cache_is_keyed_by_code_and_recomputes_a_bad_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    item = load_item(FIXTURES / "order-revocation.yaml")
    r = Rehearsal(item, "oracle", CONDITIONS["clean"])
    cache = RehearsalCache(tmp_path)
    key = cache.key(r)
    assert cache.get(key) is None
    cache.put(key, rehearse(r))
    assert cache.get(key) == rehearse(r)
    cache.path(key).write_text('{"key": "truncated')
    assert cache.get(key) is None
    assert cache.key(Rehearsal(item, "oracle", CONDITIONS["clean"], repetition=1)) != key
    monkeypatch.setattr(rehearsal_module, "code_fingerprint", lambda: "other code")
    assert cache.key(r) != key


def test_a_clip_that_fails_is_reported_not_raised(tmp_path: Path) -> None:
    root = str(tmp_path / "bank")
    assert ahead_module.render_clip(root, bank_module.ClipRequest("Hi.", "nope:voice")) is not None
    assert ahead_module.render_clip(root, bank_module.ClipRequest("Hi.", VOICE)) is None
    assert SpeechBank(tmp_path / "bank").committed(SpeechBank().key("Hi.", VOICE))


def test_each_model_engine_renders_in_fresh_processes(tmp_path: Path) -> None:
    """A render-ahead process that rendered both piper's and hibari's clips held both
    models (540 MiB in a cold clean run); each engine now gets processes of its own."""
    calls: list[set[str]] = []

    class Pool:
        recycled = 0

        def map(self, fn: Any, args: list[Any], tick: Any) -> list[None]:
            calls.append({clip.voice for _, clip in args})
            assert self.recycled == len(calls)  # fresh processes for every engine
            for n in range(1, len(args) + 1):
                tick(n, len(args), None)
            return [None] * len(args)

        def recycle(self) -> None:
            self.recycled += 1

    ticks: list[int] = []
    step = ahead_module._Step(Pool(), 2, lambda _label: lambda n, _t, _o: ticks.append(n), "x")  # type: ignore[arg-type]
    clips = [ClipRequest("one", "piper:joe"), ClipRequest("two", "hibari:heart")]
    clips += [ClipRequest("three", "piper:joe"), ClipRequest("four", VOICE)]
    failures = ahead_module._render(SpeechBank(tmp_path), clips, step)
    assert failures == [] and calls == [{"hibari:heart"}, {"piper:joe"}]
    assert ticks == [1, 2, 3, 4]  # the synthetic clip here, then each engine's in turn
