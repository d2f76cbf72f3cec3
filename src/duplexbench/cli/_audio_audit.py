"""`duplexbench suite validate SUITE --audio`: can each item be passed through the voice
channel at all?

Runs the privileged `listener` (docs/agents.md) on every item once in a condition
(`clean` by default) through the campaign layer, then reports "audio-solvable N/M"
and, for each item it did not pass, the failed gates and each wrong value: the field,
what the caller said (the fact's spoken form), what the listener wrote, how many
repairs the caller made for it (`user.repair` events of its slot), and what the ASR
heard of the caller's turns that carried it (the user channel of `audio.wav`
transcribed again, turn by turn, by the harness's ASR: what a cascade hears; on the
text channel the words themselves).

The audit reads the run directory (traces, scores, final workbench states); it lives
here, not in `suites/_quality/`, because `suites` sits below `campaign`, which runs the
episodes (docs/architecture.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from duplexbench.audio import read_wav
from duplexbench.campaign import ExecutionOptions, RunOptions, parse_conditions, run_campaign
from duplexbench.cli._progress import episode_bars
from duplexbench.items import Fact, WorkflowItem
from duplexbench.speech import get_asr
from duplexbench.trace import TraceEvent, UserRepair, UserUtterance, read_events

MAX_HEARD = 4
"""Caller turns transcribed again per wrong value (the first ones that carried it)."""
Transcribe = Callable[[Path, int, int], str]
"""(audio.wav, start ms, end ms) -> what the ASR hears of the caller there."""


@dataclass(frozen=True)
class Miss:
    """One value the listener got wrong."""

    where: str
    """`artifact.field`, or `table.record.column` for a database item."""
    said: str | None
    """What the caller says for it (the fact's spoken form); None: not the caller's."""
    expected: Any
    written: Any
    cause: str | None
    repairs: int
    heard: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Unsolved:
    item: str
    failed: list[str]
    misses: list[Miss]
    error: str | None = None


@dataclass(frozen=True)
class Audit:
    suite: str
    condition: str
    items: int
    solved: int
    run_dir: str
    unsolved: list[Unsolved]

    @property
    def label(self) -> str:
        return "text-solvable" if self.condition == "text" else "audio-solvable"

    def data(self) -> dict[str, Any]:
        return {**asdict(self), "label": self.label}

    def lines(self) -> list[str]:
        out = [f"{self.suite}: {self.label} {self.solved}/{self.items} ({self.condition})"]
        for item in self.unsolved:
            out.append(f"  {item.item}: failed {'; '.join(item.failed) or '-'}")
            if item.error:
                out.append(f"    error: {item.error}")
            for miss in item.misses:
                said = "-" if miss.said is None else repr(miss.said)
                out.append(
                    f"    {miss.where}: said {said}, wrote {miss.written!r} "
                    f"(expected {miss.expected!r}), {miss.repairs} repair(s)"
                    + (f", {miss.cause}" if miss.cause else "")
                )
                out += [f"      heard: {h!r}" for h in miss.heard]
        out.append(f"run directory: {self.run_dir}")
        return out


def run_audit(
    suite: str,
    items: list[WorkflowItem],
    condition: str,
    out: Path,
    *,
    workers: int = 1,
    overwrite: bool = False,
    quiet: bool = False,
    name: str | None = None,
) -> Audit:
    """Run the listener on every item (k = 1) and audit the run."""
    opts = RunOptions(
        suite=suite,
        agent="listener",
        condition=parse_conditions(condition)[0],
        repeats=1,
        out=out,
        overwrite=overwrite,
        execution=ExecutionOptions(workers=workers),
    )
    with episode_bars(quiet) as bar:
        result = run_campaign(opts, bar(f"listener · {condition}"), bar)
    label = name or Path(suite).name
    return audit_run(result.run_dir, label, items, condition, transcriber(condition))


def transcriber(condition: str) -> Transcribe | None:
    """The harness's ASR over a stretch of the caller's channel (audio conditions)."""
    if condition == "text":
        return None
    engine = get_asr()

    def transcribe(wav: Path, start_ms: int, end_ms: int) -> str:
        channels, rate = read_wav(wav)
        user = channels[0][start_ms * rate // 1000 : end_ms * rate // 1000]
        return engine.transcribe(user).text.strip() if len(user) else ""

    return transcribe


def audit_run(
    run_dir: Path,
    suite: str,
    items: list[WorkflowItem],
    condition: str,
    transcribe: Transcribe | None,
) -> Audit:
    """The audit of a listener run directory (one repetition per item)."""
    unsolved: list[Unsolved] = []
    for item in items:
        folder = next(iter(sorted(run_dir.glob(f"episodes/*/*/{item.id}/r0"))), None)
        if folder is None or not (folder / "result.json").is_file():
            unsolved.append(Unsolved(item.id, ["not run"], []))
            continue
        result = json.loads((folder / "result.json").read_text(encoding="utf-8"))
        if result.get("ws") == 1:
            continue
        events = read_events(folder / "events.jsonl")
        failed = [f"{c['gate']} {c['name']}" for c in result.get("checks", []) if not c["passed"]]
        misses = _field_misses(item, result, events) + _record_misses(item, folder, events)
        if transcribe is not None and (folder / "audio.wav").is_file():
            misses = [
                _with_heard(m, item, events, folder / "audio.wav", transcribe) for m in misses
            ]
        else:
            misses = [_with_heard(m, item, events, None, None) for m in misses]
        error = result.get("agent_error") or result.get("error")
        unsolved.append(Unsolved(item.id, failed, misses, error))
    solved = len(items) - len(unsolved)
    return Audit(suite, condition, len(items), solved, str(run_dir), unsolved)


def _fact_of(item: WorkflowItem, key: str) -> Fact | None:
    """The caller fact a graded value comes from: its gold provenance `user:<fact>`, else
    the latest fact filling that field (or, in a database, named like the column)."""
    kind, _, ref = item.gold.provenance.get(key, "").partition(":")
    if kind == "user":
        return item.user.fact(ref)
    filling = [f for f in item.user.facts if f.field == key]
    if not filling and key.count(".") == 2:
        filling = item.user.versions(key.rsplit(".", 1)[1])
    return filling[-1] if filling else None


def _field_misses(
    item: WorkflowItem, result: dict[str, Any], events: list[TraceEvent]
) -> list[Miss]:
    out = []
    for score in result.get("fields", []):
        if score.get("score", 0) >= 1:
            continue
        key = f"{score['artifact']}.{score['field']}"
        fact = _fact_of(item, key)
        out.append(
            _miss(
                item,
                key,
                fact=fact,
                expected=score.get("gold"),
                written=score.get("predicted"),
                events=events,
                cause=score.get("cause"),
            )
        )
    return out


def _record_misses(item: WorkflowItem, folder: Path, events: list[TraceEvent]) -> list[Miss]:
    """Database items: each column of the final table that differs from the gold."""
    gold = item.gold.final_database or {}
    state_file = folder / "workbench.json"
    if not gold or not state_file.is_file():
        return []
    state = json.loads(state_file.read_text(encoding="utf-8")).get("database", {})
    out = []
    for table, records in gold.items():
        for record in records:
            rid = str(record.get("id"))
            have = state.get(table, {}).get(rid, {})
            for column, want in record.items():
                if have.get(column) != want:
                    key = f"{table}.{rid}.{column}"
                    fact = _fact_of(item, key)
                    written = have.get(column)
                    miss = _miss(
                        item,
                        key,
                        fact=fact,
                        expected=want,
                        written=written,
                        events=events,
                        cause=None,
                    )
                    out.append(miss)
    return out


def _miss(
    item: WorkflowItem,
    key: str,
    *,
    fact: Fact | None,
    expected: Any,
    written: Any,
    events: list[TraceEvent],
    cause: str | None,
) -> Miss:
    slot = item.user.slot_of(fact.id) if fact is not None else None
    repairs = sum(
        1 for e in events if isinstance(e, UserRepair) and slot is not None and e.data.slot == slot
    )
    said = fact.spoken if fact is not None else None
    return Miss(key, said, expected, written, cause, repairs)


def _carrying(item: WorkflowItem, fact: Fact, plan_ids: list[str]) -> bool:
    """Whether a caller turn with these plans said the fact (any version of its slot)."""
    slot = item.user.slot_of(fact.id)
    versions = {f.id for f in item.user.versions(slot)}
    for plan in plan_ids:
        kind, _, ref = plan.partition(":")
        if ref in versions:
            return True
        if kind == "event":
            event = next((e for e in item.user.events if e.id == ref), None)
            if event is not None and versions & set(event.reveals):
                return True
        volunteered = [f for v in versions if (f := item.user.fact(v)) is not None]
        if plan == "open" and any(f.reveal == "volunteer" for f in volunteered):
            return True
    return False


def _with_heard(
    miss: Miss,
    item: WorkflowItem,
    events: list[TraceEvent],
    wav: Path | None,
    transcribe: Transcribe | None,
) -> Miss:
    fact = _fact_of(item, miss.where)
    if fact is None:
        return miss
    turns = [
        e for e in events if isinstance(e, UserUtterance) and _carrying(item, fact, e.data.plan_ids)
    ][:MAX_HEARD]
    if wav is None or transcribe is None:
        heard = [e.data.text for e in turns]
    else:
        heard = [transcribe(wav, e.t_ms, e.data.end_ms) for e in turns]
    return Miss(miss.where, miss.said, miss.expected, miss.written, miss.cause, miss.repairs, heard)
