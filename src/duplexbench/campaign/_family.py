"""The two item families behind one interface (docs/architecture.md, "Item families").

A run directory holds items of one family: workflows (APEX-Voice: a reactive
user, the Workbench, gates and field accuracy) or interaction actions
(DuplexAct: a replayed user timeline, immediate execution and follow-through).
Everything the campaign layer does with a run -- check and describe it, run
an episode in a worker, score a trace (with the shared header check and
catch-all), make an error score, build the summary, compare conditions, read
the item snapshots back -- goes through a :class:`Family`, so there is one
runner (`runner.run_campaign`), one rescore (`rescore.rescore_run`), one
engine and one index-row builder for both. A family is looked up by the name
that `campaign.json` and the suite manifest record; this registry is the one
place that knows which names exist.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from duplexbench.items import ActionItem, WorkflowItem
from duplexbench.scoring import ActionJudge, ActionScore, EpisodeScore, FieldJudge, RunSummary
from duplexbench.trace import ErrorKind

if TYPE_CHECKING:
    from duplexbench.campaign._engine import Target
    from duplexbench.campaign._jobs import EpisodeJob
    from duplexbench.campaign._runner import RunOptions
    from duplexbench.campaign._spec import CampaignSpec, JudgeConfig

FamilyName = Literal["workflow", "action"]
Item = WorkflowItem | ActionItem
Score = EpisodeScore | ActionScore
Judge = FieldJudge | ActionJudge
Runs = Mapping[str, tuple[RunSummary, Sequence[Score]]]
"""Condition name -> (its run's summary, its episode scores)."""


class Family(Protocol):
    """What the campaign layer needs of one item family."""

    name: FamilyName
    score_type: type[EpisodeScore] | type[ActionScore]
    """The model of `result.json`."""

    def prepare(self, opts: RunOptions) -> Target:
        """Check everything a run needs before any episode (agent, condition, voices,
        options) and describe its run directory; ValueError / ItemError says what is wrong."""
        ...

    def read_items(self, run_dir: Path, spec: CampaignSpec) -> Mapping[str, Item]:
        """The run's item snapshots (RUN_DIR/items/)."""
        ...

    def make_judge(self, config: JudgeConfig | None, run_dir: Path) -> Judge | None: ...

    def run_episode(self, job: EpisodeJob, folder: Path) -> tuple[str | None, ErrorKind | None]:
        """In a worker: play the job's episode and save its files into `folder`;
        the episode's error and whose it is."""
        ...

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
        """Score the trace in `folder` (a misplaced, unreadable or unscorable trace is an
        error score saying so) and write `result.json`; `exempt`: the run's agent reads
        the gold, so unsupported values are not counted wrong (`CampaignSpec.provenance_exempt`)."""
        ...

    def error_score(self, item: Item, repetition: int, message: str) -> Score: ...

    def summarize(self, spec: CampaignSpec, scores: Sequence[Score]) -> dict[str, Any]: ...

    def compare(self, runs: Runs, order: Sequence[str], seed: int) -> dict[str, Any]:
        """The comparison block of a multi-condition run (paired tests per task)."""
        ...


_MODULES: dict[str, str] = {
    "workflow": "duplexbench.campaign._workflow_family",
    "action": "duplexbench.campaign._action_family",
}
"""Each family's module, imported when first used (start-up time); it registers itself."""
_FAMILIES: dict[str, Family] = {}


def register_family(family: Family) -> Family:
    _FAMILIES[family.name] = family
    return family


def get_family(name: str) -> Family:
    """The family of that name; ValueError naming the known ones."""
    if name not in _FAMILIES and name in _MODULES:
        importlib.import_module(_MODULES[name])
    try:
        return _FAMILIES[name]
    except KeyError:
        raise ValueError(f"unknown item family {name!r}; known: {', '.join(_MODULES)}") from None


def family_of(item: Item) -> FamilyName:
    return "action" if isinstance(item, ActionItem) else "workflow"
