"""The action family: DuplexAct-style interaction-action items, replayed.

Each episode replays its item's user timeline (direct or simulator replay)
to a step or streaming agent under an audio condition (what applies to a
replay: `orchestrator/_replay_caller.py`), is scored on immediate execution
and follow-through (`_action_scoring.py`), summarized per action, and compared
across conditions by per-task I and S for each action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from duplexbench.agents import StepAgent, StreamingAgent, get_agent
from duplexbench.campaign._action_compare import action_comparison
from duplexbench.campaign._action_scoring import (
    make_action_judge,
    save_action_episode,
    score_action_trace,
    summarize_actions,
)
from duplexbench.campaign._conditions import Condition
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
from duplexbench.campaign._preflight import preflight
from duplexbench.campaign._rundir import read_action_items
from duplexbench.campaign._setup import campaign_spec, free_run_dir
from duplexbench.campaign._spec import CampaignSpec, JudgeConfig, slug
from duplexbench.campaign._worker import bank_at
from duplexbench.items import ActionItem, load_action_suite, parse_action_item
from duplexbench.orchestrator import (
    ActionEpisode,
    ActionSetup,
    RealtimeClock,
    ReplayConfig,
    applies_to_replays,
)
from duplexbench.scoring import ActionJudge, ActionScore, EpisodeScore, action_error_score
from duplexbench.trace import ErrorKind


def check_condition(condition: Condition) -> None:
    """ValueError unless something of `condition` applies to action replays
    (`orchestrator/_replay_caller.py`; docs/actions.md, "Conditions")."""
    if condition.channel != "audio":
        raise ValueError(
            f"condition {condition.name!r} is {condition.channel}-only; action items replay "
            "audio, so only audio conditions apply to them"
        )
    if condition.name != "clean" and not applies_to_replays(condition.caller):
        raise ValueError(
            f"condition {condition.name!r} changes only the user's turn-taking, which every "
            "action item scripts itself: nothing of it applies to a replay"
        )


class ActionFamily:
    name: FamilyName = "action"
    score_type: type[EpisodeScore] | type[ActionScore] = ActionScore

    def prepare(self, opts: RunOptions) -> Target:
        condition = opts.condition
        check_condition(condition)
        info, agent_spec = get_agent(opts.agent)
        suite = load_action_suite(opts.suite, opts.items, opts.limit)  # only the items it runs
        noise_dir = None if opts.noise_dir is None else str(opts.noise_dir.resolve())
        voices = [s.voice for item in suite.items for s in item.segments]
        caller = replace(condition.caller, voice_fallback=opts.voice_fallback)
        preflight(info, agent_spec, replace(condition, caller=caller), voices, noise_dir)
        out = opts.out or free_run_dir(Path("runs") / slug(f"{suite.name}-{agent_spec.name}"))
        spec = campaign_spec(opts, suite)
        speech_cache = None if opts.speech_cache is None else str(opts.speech_cache)
        config = JobConfig(
            self.name, suite.name, opts.agent, spec.agent, opts.condition, opts.seed,
            opts.frame_ms, speech_cache, opts.realtime_speed, noise_dir=noise_dir,
            voice_fallback=opts.voice_fallback,
        )  # fmt: skip
        return Target(out, spec, {i.id: i for i in suite.items}, config)

    def read_items(self, run_dir: Path, spec: CampaignSpec) -> Mapping[str, Item]:
        return read_action_items(run_dir, spec)

    def make_judge(self, config: JudgeConfig | None, run_dir: Path) -> Judge | None:
        return make_action_judge(config, run_dir)

    def run_episode(self, job: EpisodeJob, folder: Path) -> tuple[str | None, ErrorKind | None]:
        c = job.config
        item = parse_action_item(job.item, f"items/{job.item_id}.json")
        info, agent_spec = get_agent(c.agent)
        agent = info.create(agent_spec, "audio")
        if not isinstance(agent, StepAgent | StreamingAgent):
            raise ValueError(f"agent {info.name!r} has no audio channel")
        clock = RealtimeClock(c.realtime_speed) if isinstance(agent, StreamingAgent) else None
        setup = ActionSetup(
            item,
            job.item_checksum,
            c.suite,
            c.agent_label,
            c.condition.name,
            job.repetition,
            c.seed,
        )
        caller = replace(
            c.condition.caller,
            noise_dir=c.noise_dir,
            voice_fallback=c.voice_fallback,
        )
        config = ReplayConfig(frame_ms=c.frame_ms, caller=caller)
        bank = bank_at(c.speech_cache)
        episode = ActionEpisode(
            setup, agent, bank, privileged=info.privileged, config=config, clock=clock
        )
        record = episode.run()
        save_action_episode(folder, record)
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
        assert isinstance(item, ActionItem) and (judge is None or isinstance(judge, ActionJudge))
        return score_action_trace(item, folder, repetition, judge, write, checksum=checksum)

    def error_score(self, item: Item, repetition: int, message: str) -> Score:
        assert isinstance(item, ActionItem)
        return action_error_score(item, repetition, message)

    def summarize(self, spec: CampaignSpec, scores: Sequence[Score]) -> dict[str, Any]:
        return summarize_actions(spec, [s for s in scores if isinstance(s, ActionScore)])

    def compare(self, runs: Runs, order: Sequence[str], seed: int) -> dict[str, Any]:
        return action_comparison(runs, order, seed)


register_family(ActionFamily())
