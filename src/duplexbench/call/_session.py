"""A session of live calls: a person plays the caller of one or more items, one call
each, through the page; every call is an episode of one run directory.

For each item: the page gets the item and its role card and waits for Start; the
agent is created and the call runs on the realtime clock (the orchestrator's
`HumanEpisode`); the episode is saved and scored at once and its viewer page is
published on the server, so the page can link to it. A page that is not open
yet, or reloads between calls, is waited for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from duplexbench.agents import AgentError, StepAgent, StreamingAgent, get_agent
from duplexbench.call._phone import BrowserPhone, Line
from duplexbench.campaign import (
    CONDITIONS,
    CampaignSpec,
    ExecutionOptions,
    RunOptions,
    RunResult,
    close_run,
    episode_folder,
    open_run,
    record_episode,
    run_lock,
    saved_score,
)
from duplexbench.items import WorkflowItem
from duplexbench.orchestrator import (
    HUMAN_CONDITION,
    EpisodeRecord,
    EpisodeSetup,
    HumanCallConfig,
    HumanEpisode,
)
from duplexbench.report import ViewerError, write_viewer
from duplexbench.scoring import EpisodeScore
from duplexbench.speech import SpeechBank
from duplexbench.users import role_card

CHECK_CONDITION = "clean"
"""The simulated condition whose checks a human call passes first (audio channel)."""


class Publisher(Line, Protocol):
    """The page's server: a `Line` that can also serve a file (the viewer page)."""

    def publish(self, name: str, path: Path) -> str: ...


@dataclass(frozen=True)
class CallOptions:
    suite: str
    items: tuple[str, ...]
    agent: str
    out: Path | None = None
    overwrite: bool = False
    speech_cache: Path | None = None
    seed: int = 0
    resume: bool = False
    """Continue the session in `out`: items already called are kept, not called again."""
    config: HumanCallConfig = field(default_factory=HumanCallConfig)


@dataclass(frozen=True)
class CallOutcome:
    item_id: str
    folder: Path
    complete: bool
    reason: str
    summary: str


def run_calls(
    opts: CallOptions, line: Publisher, say: Callable[[str], None] = print
) -> tuple[RunResult, list[CallOutcome]]:
    """Play every item of `opts` with the person at the page; the run and each call."""
    run = RunOptions(
        suite=opts.suite,
        agent=opts.agent,
        condition=CONDITIONS[CHECK_CONDITION],
        repeats=1,
        seed=opts.seed,
        items=opts.items,
        out=opts.out,
        overwrite=opts.overwrite,
        speech_cache=opts.speech_cache,
        execution=ExecutionOptions(resume=opts.resume),
    )
    bank = SpeechBank(opts.speech_cache)
    outcomes: list[CallOutcome] = []
    target = open_run(run, HUMAN_CONDITION)
    with run_lock(target.run_dir):
        items = [target.items[item_id] for item_id in target.spec.items]
        for index, item in enumerate(items, 1):
            assert isinstance(item, WorkflowItem)
            if saved_score(target, item.id) is not None:
                say(f"{item.id}: called in an earlier session, kept")
                continue
            intro = [
                {"type": "item", "item_id": item.id, "title": item.title or item.id,
                 "index": index, "total": len(items)},
                role_card(item).to_message(),
            ]  # fmt: skip
            if not _wait_for_start(line, say, item.id, intro):
                say("the page ended the session before the call started")
                break
            record = _call(opts, line, bank, target.spec, item)
            score = record_episode(target, item.id, record)
            folder = episode_folder(target, item.id)
            outcome = _outcome(item.id, folder, record.end_reason, score)
            outcomes.append(outcome)
            _ended(line, outcome, record.error)
            say(f"{item.id}: {outcome.summary} ({outcome.folder})")
        result = close_run(target)
    return result, outcomes


def _call(
    opts: CallOptions, line: Line, bank: SpeechBank, spec: CampaignSpec, item: WorkflowItem
) -> EpisodeRecord:
    """One call: the agent created, the episode played on the realtime clock."""
    line.send({"type": "status", "state": "connecting", "message": "calling the agent"})
    setup = EpisodeSetup(
        item, spec.item_checksums[item.id], spec.suite, spec.agent, HUMAN_CONDITION, 0, opts.seed
    )
    info, agent_spec = get_agent(opts.agent)
    try:
        agent = info.create(agent_spec, "audio")
        if not isinstance(agent, StepAgent | StreamingAgent):
            raise AgentError(f"{opts.agent} is not an audio agent")
    except AgentError as exc:
        line.send({"type": "error", "where": "agent", "message": str(exc)})
        raise
    line.mic.clear()  # what the microphone heard before Start is not the call
    line.send({"type": "status", "state": "live", "message": "on the call"})
    phone = BrowserPhone(line, item)
    episode = HumanEpisode(
        setup, agent, bank, phone, privileged=info.privileged, config=opts.config
    )
    return episode.run()


def _wait_for_start(
    line: Line, say: Callable[[str], None], item_id: str, intro: list[dict[str, object]]
) -> bool:
    """Show the call on the page (again whenever a page connects) and block until it
    says Start; False if it asked to stop the session."""
    ready: dict[str, object] = {
        "type": "status",
        "state": "ready",
        "message": f"ready to call: {item_id}",
    }
    for message in [*intro, ready]:
        line.send(message)
    while True:
        control = line.next_control(timeout=None)
        if control is None:
            continue
        kind = control.get("type")
        if kind == "start":
            return True
        if kind == "connected":  # a page (re)loaded: show it where we are
            for message in [*intro, ready]:
                line.send(message)
        if kind == "quit":
            return False
        if kind == "mic_error":
            say(f"the page has no microphone: {control.get('message', '')}")


def _outcome(item_id: str, folder: Path, reason: str, score: object) -> CallOutcome:
    """What the call came to, in one line for the page and the terminal."""
    if not isinstance(score, EpisodeScore) or score.status == "error":
        error = score.error if isinstance(score, EpisodeScore) else None
        summary = f"incomplete ({error or reason}): saved, not scored as a pass"
        return CallOutcome(item_id, folder, False, reason, summary)
    passed = "passed" if score.ws else "failed"
    failed = [gate for gate, ok in score.gates.items() if not ok]
    gates = f"; gates failed: {', '.join(failed)}" if failed else ""
    afa = f", AFA {score.afa.correct}/{score.afa.total}" if score.afa is not None else ""
    summary = f"workflow {passed}{afa}{gates} (call ended: {reason})"
    return CallOutcome(item_id, folder, True, reason, summary)


def _ended(line: Publisher, outcome: CallOutcome, error: str | None) -> None:
    viewer: str | None = None
    try:
        page = write_viewer(outcome.folder, embed_audio=True)
        viewer = line.publish(f"{outcome.item_id}.html", page)
    except (OSError, ValueError, ViewerError) as exc:
        line.send({"type": "error", "where": "harness", "message": f"no viewer page: {exc}"})
    if error:
        line.send({"type": "error", "where": "harness", "message": error})
    line.send({"type": "status", "state": "ended", "message": outcome.summary})
    line.send(
        {
            "type": "ended",
            "reason": outcome.reason,
            "complete": outcome.complete,
            "folder": str(outcome.folder),
            "viewer": viewer,
            "summary": outcome.summary,
        }
    )
