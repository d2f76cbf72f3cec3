"""Quality control of items behind `duplexbench suite validate`.

Agent checks (text channel; `audio=True` adds the clean audio channel): the
`oracle` must pass every item (WS = 1); `noop`, `silent` and `shortcut`
(commits at once without asking) must fail every item. Audits
(`audit.py`): leakage, gold provenance, corrections, approvals,
knowledge, gradable gold. Every check reports how many items it passed and
failed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from duplexbench.agents import NoopAgent, OracleAgent, ShortcutAgent, TextAgent
from duplexbench.items import WorkflowItem, item_checksum
from duplexbench.orchestrator import EpisodeSetup, TextEpisode
from duplexbench.scoring import EpisodeScore, score_episode
from duplexbench.suites._quality import audit
from duplexbench.trace import TraceEvent
from duplexbench.users import item_slots

Problems = list[tuple[str, str]]
BASELINES: dict[str, Callable[[], TextAgent]] = {
    "noop": NoopAgent,
    "silent": NoopAgent,  # on the text channel silence and doing nothing are one behavior
    "shortcut": ShortcutAgent,
}
CHECKS = (
    "oracle passes",
    "noop fails",
    "silent fails",
    "shortcut fails",
    "no leakage",
    "gold has a source",
    "corrections supersede",
    "approvals reachable",
    "knowledge agrees with gold",
    "gold is gradable",
)


@dataclass(frozen=True)
class Played:
    error: str | None
    score: EpisodeScore
    events: list[TraceEvent]


def play(item: WorkflowItem, agent: TextAgent, privileged: bool, name: str) -> Played:
    setup = EpisodeSetup(item, item_checksum(item), "validate", name)
    record = TextEpisode(setup, agent, privileged=privileged).run()
    score = score_episode(item, record.events, exempt=privileged)
    return Played(record.error, score, record.events)


def _oracle_problems(played: Played) -> Problems:
    if played.error is not None:
        return [("reference", f"the oracle could not finish: {played.error}")]
    if played.score.ws != 1:
        failed = [f"{c.gate} {c.name}" for c in played.score.checks if not c.passed]
        return [("reference", f"the oracle does not pass; failed: {failed}")]
    return []


def solvability_problems(item: WorkflowItem) -> Problems:
    """(path, message) for each failed check; empty when the item is sound:
    the oracle passes and an agent that does nothing fails."""
    problems = _oracle_problems(play(item, OracleAgent(), True, "oracle"))
    if play(item, NoopAgent(), False, "noop").score.ws == 1:
        problems.append(("gold", "an agent that does nothing passes; the gold checks nothing"))
    return problems


@dataclass
class QualityReport:
    """Per check: items passed, items failed, and the problems found."""

    passed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHECKS, 0))
    failed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHECKS, 0))
    problems: list[tuple[str, str, str]] = field(default_factory=list)
    """(item id, path, message)."""
    sources: dict[str, int] = field(default_factory=dict)
    """Gold values traced, by kind of source (user, knowledge, database, unrecorded)."""
    counted: dict[str, int] = field(default_factory=dict)
    """Things checked: facts, corrections, gated actions, knowledge fields."""
    warnings: list[tuple[str, str, str]] = field(default_factory=list)
    """(item id, path, message): weaknesses that do not make the item invalid."""

    def record(self, check: str, item_id: str, problems: Problems) -> None:
        if problems:
            self.failed[check] += 1
            self.problems += [(item_id, path, message) for path, message in problems]
        else:
            self.passed[check] += 1

    def count(self, what: str, n: int) -> None:
        self.counted[what] = self.counted.get(what, 0) + n

    @property
    def ok(self) -> bool:
        return not self.problems


def check_item_quality(item: WorkflowItem, report: QualityReport) -> None:
    """Run every check on one item, adding to `report`."""
    oracle = play(item, OracleAgent(), True, "oracle")
    trace_problems = audit.trace_leakage_problems(item, oracle.events)
    trace_problems += audit.trace_reveal_problems(item, oracle.events)
    report.record("oracle passes", item.id, _oracle_problems(oracle))
    for name, make in BASELINES.items():
        passes = play(item, make(), False, name).score.ws == 1
        message = f"the {name} agent passes; the gold does not need the work done"
        report.record(f"{name} fails", item.id, [("gold", message)] if passes else [])
    report.record("no leakage", item.id, audit.leakage_problems(item) + trace_problems)
    report.count("private facts", len([f for f in item.user.facts if f.reveal != "volunteer"]))
    provenance, kinds = audit.provenance_problems(item)
    report.record("gold has a source", item.id, provenance)
    for kind, n in kinds.items():
        report.sources[kind] = report.sources.get(kind, 0) + n
    for check, what, run in (
        ("corrections supersede", "corrections", audit.correction_problems),
        ("approvals reachable", "gated actions", audit.approval_problems),
        ("knowledge agrees with gold", "knowledge fields", audit.knowledge_problems),
        ("gold is gradable", "gold values", audit.gradable_problems),
    ):
        problems, n = run(item)
        report.record(check, item.id, problems)
        report.count(what, n)
    report.warnings += [(item.id, path, message) for path, message in description_warnings(item)]


def description_warnings(item: WorkflowItem) -> Problems:
    """Asked-for facts with no description (their own or their field's): the simulated
    user can then recognise questions about them only by their names."""
    out: Problems = []
    for slot in item_slots(item):
        if slot.held and not slot.description and slot.facts[0].reveal == "when_asked":
            index = item.user.facts.index(slot.facts[0])
            out.append(
                (
                    f"user.facts[{index}].description",
                    f"fact {slot.id!r} has no description (nor its field): the simulated "
                    "user recognises questions about it only by its name and aliases",
                )
            )
    return out


def item_problems(item: WorkflowItem) -> Problems:
    """Every check of `check_item_quality` on one item, as (path, message) pairs."""
    report = QualityReport()
    check_item_quality(item, report)
    return [(path, message) for _, path, message in report.problems]


def quality_report(
    items: list[WorkflowItem], progress: Callable[[int], None] | None = None
) -> QualityReport:
    report = QualityReport()
    for item in items:
        check_item_quality(item, report)
        if progress is not None:
            progress(1)
    return report
