"""`duplexbench call`: a person takes the caller's seat, in the browser."""

from __future__ import annotations

from pathlib import Path

import click

from duplexbench.agents import AgentError, get_agent, is_loopback
from duplexbench.call import (
    AuditPlan,
    AuditPlanError,
    CallOptions,
    CallServer,
    load_audit_plan,
    run_calls,
)
from duplexbench.campaign import RunDirError
from duplexbench.cli._common import fail
from duplexbench.items import ItemError
from duplexbench.orchestrator import HumanCallConfig
from duplexbench.speech import SpeechUnavailable
from duplexbench.suites import resolve_suite


@click.command("call")
@click.option("--suite", help="Suite name (e.g. workflows-mini) or folder.")
@click.option("--item", "items", multiple=True, help="Item to call (repeatable: in order).")
@click.option("--agent", help="Agent spec of an audio agent, e.g. reference.")
@click.option(
    "--plan",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="Audit plan (YAML: suite, agent, items, seed, out) instead of --suite/--item/--agent.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address of the page.")
@click.option("--port", default=8766, show_default=True, type=click.IntRange(0, 65535))
@click.option("--allow-remote", is_flag=True, help="Allow a non-loopback --host.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Run directory.")
@click.option("--overwrite", is_flag=True, help="Replace a non-empty --out.")
@click.option("--resume", is_flag=True, help="Continue the session in --out: skip items called.")
@click.option(
    "--speech-cache",
    type=click.Path(file_okay=False, path_type=Path),
    help="Speech bank for the agent's voice (default: $DUPLEXBENCH_SPEECH_CACHE or ~/.cache/...).",
)
@click.option("--asr", default="whisper", show_default=True, help="ASR for the caller's words.")
@click.option("--seed", default=0, show_default=True, type=int)
def call_command(
    *,
    suite: str | None,
    items: tuple[str, ...],
    agent: str | None,
    plan: Path | None,
    host: str,
    port: int,
    allow_remote: bool,
    out: Path | None,
    overwrite: bool,
    resume: bool,
    speech_cache: Path | None,
    asr: str,
    seed: int,
) -> None:
    """Play the caller of each --item yourself, through a local web page.

    Opens a page (loopback only, with a one-time token in its URL) that shows
    your role card (who you are, what you know, what to correct or revoke and
    when), streams your microphone to AGENT through the same episode loop as a
    simulated call, plays the agent back, and shows the transcript and the
    artifact as the agent fills it. Each call is saved and scored like a
    simulated episode, in a run directory marked as a human run (condition
    `human`, never pooled with simulated runs). `--plan` walks you through an
    audit plan's items; `--resume` continues an interrupted session
    (docs/human-caller.md).
    """
    if not allow_remote and not is_loopback(host):
        fail(f"--host {host} is not a loopback address; the page carries your microphone "
             "(pass --allow-remote to serve it anyway)")  # fmt: skip
    calls = _calls(suite, items, agent, plan, seed)
    opts = CallOptions(
        suite=calls.suite,
        items=tuple(calls.items),
        agent=calls.agent,
        out=out or (Path(calls.out) if calls.out else None),
        overwrite=overwrite,
        speech_cache=speech_cache,
        seed=calls.seed,
        resume=resume,
        config=HumanCallConfig(asr=asr),
    )
    server = CallServer(host, port)
    server.start()
    click.echo(f"Open this page to take the call (Ctrl-C to stop):\n  {server.url}")
    try:
        result, outcomes = run_calls(opts, server, click.echo)
        complete = sum(o.complete for o in outcomes)
        click.echo(f"{complete} of {len(outcomes)} calls complete; run directory: {result.run_dir}")
        click.echo("The page stays up to open the episode viewer; Ctrl-C (or close it) to end.")
        _linger(server)
    except KeyboardInterrupt:
        click.echo("stopped")
    except (RunDirError, AgentError, ItemError, SpeechUnavailable) as exc:
        fail(str(exc))
    finally:
        server.close()


def _calls(
    suite: str | None,
    items: tuple[str, ...],
    agent: str | None,
    plan: Path | None,
    seed: int,
) -> AuditPlan:
    """The session's calls: the audit plan, or the plan the options make; checked."""
    if plan is not None:
        if suite or items or agent:
            fail("--plan names the suite, the items and the agent: drop --suite/--item/--agent")
        try:
            calls = load_audit_plan(plan)
        except AuditPlanError as exc:
            fail(str(exc))
    elif suite and items and agent:
        calls = AuditPlan(suite=suite, agent=agent, items=list(items), seed=seed)
    else:
        fail("name the calls: --suite, --item (repeatable) and --agent, or --plan FILE")
    try:
        info, _ = get_agent(calls.agent)
        suite_path = resolve_suite(calls.suite)
    except (KeyError, ValueError, FileNotFoundError) as exc:
        fail(str(exc))
    if "audio" not in info.channels:  # a caller speaks: before any page opens
        fail(f"agent {info.name!r} has no audio channel; it supports: {', '.join(info.channels)}")
    return calls.model_copy(update={"suite": str(suite_path)})


def _linger(server: CallServer) -> None:
    """Serve the page (and its viewer links) until it closes or Ctrl-C."""
    while True:
        control = server.next_control(timeout=None)
        if control is not None and control.get("type") == "disconnected":
            return
