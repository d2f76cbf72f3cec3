"""The two item families behind one interface (docs/architecture.md, "One family interface").

A run directory holds items of one family: workflows (APEX-Voice: a reactive
user, the Workbench, gates and field accuracy) or interaction actions
(DuplexAct: a replayed user timeline, immediate execution and follow-through).
Everything the campaign layer does with a run -- check and describe it, run
an episode in a worker, score a trace (with the shared header check and
catch-all), make an error score, build the summary, compare conditions, read
the item snapshots back -- goes through a :class:`Family`, so there is one
runner (`_runner.run_campaign`), one rescore (`_rescore.rescore_run`), one
engine and one index-row builder for both. A family is looked up by the name
that `campaign.json` and the suite manifest record (`get_family`, in
`_families.py`: the one place that knows which names exist and imports their
modules; this module is below the families, which register here).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from duplexbench.campaign._model import (
    EpisodeJob,
    FamilyName,
    Item,
    Judge,
    RunOptions,
    Runs,
    Score,
    Target,
)
from duplexbench.campaign._spec import CampaignSpec, JudgeConfig
from duplexbench.items import ActionItem
from duplexbench.scoring import ActionScore, EpisodeScore
from duplexbench.trace import ErrorKind

__all__ = [
    "Family",
    "FamilyName",
    "Item",
    "Judge",
    "Runs",
    "Score",
    "family_of",
    "register_family",
    "registered_family",
]


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


_FAMILIES: dict[str, Family] = {}


def register_family(family: Family) -> Family:
    """Called by each family's module when it is imported (`_families.py` imports them)."""
    _FAMILIES[family.name] = family
    return family


def registered_family(name: str) -> Family | None:
    return _FAMILIES.get(name)


def family_of(item: Item) -> FamilyName:
    return "action" if isinstance(item, ActionItem) else "workflow"
