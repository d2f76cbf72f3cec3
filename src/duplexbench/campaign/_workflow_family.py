"""The workflow family: APEX-Voice items with the reactive simulated user.

Its episodes run on the text or audio channel (`_episode_runner.EpisodeRunner`), are
scored by the Workflow Success gates and Artifact Field Accuracy with the
optional field judge, summarized with Pass@k / Reliable@k, and compared across
conditions by per-task Workflow Success and field accuracy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from duplexbench.agents import get_agent
from duplexbench.campaign._episode_runner import EpisodeRunner, save_episode
from duplexbench.campaign._family import register_family
from duplexbench.campaign._model import (
    EpisodeJob,
    FamilyName,
    Item,
    JobConfig,
    Judge,
    RunOptions,
    Runs,
    Score,
    Target,
)
from duplexbench.campaign._prices import load_prices
from duplexbench.campaign._rundir import read_items
from duplexbench.campaign._setup import campaign_spec, free_run_dir, judge_label, observer_for_run
from duplexbench.campaign._spec import CampaignSpec, JudgeConfig, slug
from duplexbench.campaign._worker import bank_at
from duplexbench.campaign._workflow_compare import comparison
from duplexbench.campaign._workflow_scoring import score_trace
from duplexbench.items import WorkflowItem, load_suite, parse_item
from duplexbench.orchestrator import EpisodeSetup
from duplexbench.scoring import (
    ActionScore,
    EpisodeScore,
    FieldJudge,
    JudgeCache,
    OpenAIChatJudge,
    build_summary,
    error_score,
    price_for,
)
from duplexbench.speech import SpeechBank
from duplexbench.trace import ErrorKind

_RUNNERS: dict[tuple[Any, ...], EpisodeRunner] = {}
"""Per worker process: one runner per (agent, condition, options), reused across jobs."""


def _runner(c: JobConfig) -> EpisodeRunner:
    key: tuple[Any, ...] = (c.agent, c.condition, c.frame_ms, c.speech_cache)
    key += (c.realtime_speed, c.decider, c.noise_dir, c.voice_fallback)
    if key not in _RUNNERS:
        info, spec = get_agent(c.agent)
        condition = c.condition
        bank = bank_at(c.speech_cache) if condition.channel == "audio" else None
        runner = EpisodeRunner(
            info,
            spec,
            condition,
            c.frame_ms,
            bank,
            c.realtime_speed,
            c.decider,
            c.noise_dir,
            c.voice_fallback,
        )
        _RUNNERS[key] = runner
    return _RUNNERS[key]


class WorkflowFamily:
    name: FamilyName = "workflow"
    score_type: type[EpisodeScore] | type[ActionScore] = EpisodeScore

    def prepare(self, opts: RunOptions) -> Target:
        condition = opts.condition
        info, agent_spec = get_agent(opts.agent)
        bank = SpeechBank(opts.speech_cache) if condition.channel == "audio" else None
        load_prices(opts.prices)  # a bad price table fails before any episode runs
        suite = load_suite(opts.suite, opts.items, opts.limit)  # reads only the items it runs
        out = opts.out or free_run_dir(Path("runs") / slug(f"{suite.name}-{agent_spec.name}"))
        decider = opts.user_model
        if decider is not None and decider.cache is None:
            decider = replace(decider, cache=out.resolve() / "user-decisions.jsonl")
        noise_dir = None if opts.noise_dir is None else str(opts.noise_dir.resolve())
        runner = EpisodeRunner(
            info,
            agent_spec,
            condition,
            opts.frame_ms,
            bank,
            opts.realtime_speed,
            decider,
            noise_dir,
            opts.voice_fallback,
        )
        runner.check(suite.items)
        observer = observer_for_run(opts.observer, out)
        spec = campaign_spec(replace(opts, observer=observer), suite)
        speech_cache = None if opts.speech_cache is None else str(opts.speech_cache)
        config = JobConfig(
            self.name, suite.name, opts.agent, spec.agent, opts.condition, opts.seed,
            opts.frame_ms, speech_cache, opts.realtime_speed, decider, noise_dir,
            voice_fallback=opts.voice_fallback,
            observer=observer,
        )  # fmt: skip
        return Target(out, spec, {i.id: i for i in suite.items}, config)

    def read_items(self, run_dir: Path, spec: CampaignSpec) -> Mapping[str, Item]:
        return read_items(run_dir, spec)

    def make_judge(self, config: JudgeConfig | None, run_dir: Path) -> Judge | None:
        """The field judge: cache (default RUN_DIR/judge-cache.jsonl) plus optional endpoint."""
        if config is None:
            return None
        cache = JudgeCache(Path(config.cache) if config.cache else run_dir / "judge-cache.jsonl")
        backend = OpenAIChatJudge(config.model, config.base_url) if config.base_url else None
        return FieldJudge(config.model, cache, backend)

    def run_episode(self, job: EpisodeJob, folder: Path) -> tuple[str | None, ErrorKind | None]:
        c = job.config
        item = parse_item(job.item, f"items/{job.item_id}.json")
        setup = EpisodeSetup(
            item, job.item_checksum, c.suite, c.agent_label, c.condition.name, job.repetition,
            c.seed,
            c.observer,
        )  # fmt: skip
        record = _runner(c).run(setup)
        save_episode(folder, record)
        return record.error, record.error_kind

    def score(
        self,
        item: Item,
        folder: Path,
        judge: Judge | None,
        repetition: int,
        write: bool = True,
        *,
        checksum: str | None = None,
        exempt: bool = False,
    ) -> Score:
        assert isinstance(item, WorkflowItem) and (judge is None or isinstance(judge, FieldJudge))
        return score_trace(item, folder, judge, repetition, write, checksum=checksum, exempt=exempt)

    def error_score(self, item: Item, repetition: int, message: str) -> Score:
        return error_score(item.id, repetition, message)

    def summarize(self, spec: CampaignSpec, scores: Sequence[Score]) -> dict[str, Any]:
        episodes = [s for s in scores if isinstance(s, EpisodeScore)]
        summary = build_summary(
            episodes,
            suite=spec.suite,
            agent=spec.agent,
            condition=spec.condition,
            repeats=spec.repeats,
            seed=spec.seed,
            judge=judge_label(spec.judge),
            price=price_for(load_prices(spec.prices), spec.agent),
            provenance_exempt=spec.provenance_exempt,
        )
        summary["family"] = self.name
        if spec.simulator is not None:
            summary["simulator"] = spec.simulator
        return summary

    def compare(self, runs: Runs, order: Sequence[str], seed: int) -> dict[str, Any]:
        return comparison(runs, order, seed)


register_family(WorkflowFamily())
