"""`duplexbench serve-agent`: a local audio agent behind the OpenAI Realtime protocol."""

from __future__ import annotations

import asyncio
import json
import signal
from functools import partial
from pathlib import Path

import click

from duplexbench.agents import RealtimeServer, ServeConfig, SessionStats
from duplexbench.cli._common import fail
from duplexbench.items import ActionItem, ItemError, load_action_suite
from duplexbench.orchestrator import BankSpeech
from duplexbench.speech import AGENT_VOICE, SpeechBank
from duplexbench.suites import resolve_suite


@click.command("serve-agent")
@click.option("--agent", required=True, help="Agent spec of a local audio agent, e.g. echo.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535))
@click.option("--frame-ms", default=20, show_default=True, type=click.IntRange(10, 1000))
@click.option("--allow-remote", is_flag=True, help="Allow binding a non-loopback address.")
@click.option("--max-message-mb", default=16, show_default=True, type=click.IntRange(1, 1024))
@click.option("--max-session-s", default=1800.0, show_default=True, type=click.FloatRange(1))
@click.option("--idle-timeout-s", default=60.0, show_default=True, type=click.FloatRange(0.1))
@click.option(
    "--speech-cache",
    type=click.Path(file_okay=False, path_type=Path),
    help="Speech bank lent to the agent (default: $DUPLEXBENCH_SPEECH_CACHE or ~/.cache/...).",
)
@click.option(
    "--voice",
    default=str(AGENT_VOICE),
    show_default=True,
    help='The voice the served agent speaks with (docs/personas.md, "The agent\'s voice").',
)
@click.option(
    "--suite",
    help="Action suite (e.g. actions-v1) for a privileged test agent such as ideal-floor: "
    "the client names each session's item (openai-realtime option episode_metadata=on) and "
    "the agent gets that item; the cue onset is heard in the audio. To check that network "
    "replays give the in-process verdicts (docs/actions.md).",
)
@click.option(
    "--log-json",
    is_flag=True,
    help="Log each session as one JSON object per line on stderr (start, duration, how it "
    "ended, frames, client events, tool results, truncations, errors) instead of text.",
)
def serve_agent_command(
    *,
    agent: str,
    host: str,
    port: int,
    frame_ms: int,
    allow_remote: bool,
    max_message_mb: int,
    max_session_s: float,
    idle_timeout_s: float,
    speech_cache: Path | None,
    voice: str,
    suite: str | None,
    log_json: bool,
) -> None:
    """Serve AGENT over the OpenAI Realtime protocol (WebSocket) until Ctrl-C.

    Each connection gets a fresh agent that hears the client's audio frame by
    frame. Connect any Realtime client with base URL ws://HOST:PORT/v1, e.g.
    the agent spec `openai-realtime?base_url=ws://127.0.0.1:8765/v1`. Each
    session that ends is logged on stderr (one line; --log-json for JSON).
    """
    config = ServeConfig(
        agent=agent,
        host=host,
        port=port,
        frame_ms=frame_ms,
        allow_remote=allow_remote,
        max_message_bytes=max_message_mb * 1024 * 1024,
        max_session_s=max_session_s,
        idle_timeout_s=idle_timeout_s,
        speech=BankSpeech(SpeechBank(speech_cache), voice),
        items=_action_items(suite) if suite else {},
        on_session_end=partial(_log_session, log_json),
    )
    try:
        server = RealtimeServer(config)
    except ValueError as exc:
        fail(str(exc))
        return
    try:
        asyncio.run(_serve(server))
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
    except OSError as exc:
        fail(f"cannot serve on {host}:{port}: {exc}")


def _log_session(as_json: bool, stats: SessionStats) -> None:
    text = json.dumps(stats.record()) if as_json else stats.line()
    click.echo(text, err=True)


def _action_items(suite: str) -> dict[str, ActionItem]:
    try:
        loaded = load_action_suite(resolve_suite(suite))
    except ItemError as exc:
        fail(f"--suite {suite}: {exc}")
    return {item.id: item for item in loaded.items}


async def _serve(server: RealtimeServer) -> None:
    """Serve until SIGINT (Ctrl-C) or SIGTERM. The handlers are installed here, so the
    server stops even when it was started with SIGINT ignored (a background job)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with server:
            click.echo(f"serving {server.spec.raw} (OpenAI Realtime protocol) at {server.url}")
            click.echo(f"  agent spec: openai-realtime?base_url={server.url}", err=True)
            click.echo("  Ctrl-C stops", err=True)
            await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
    click.echo("stopped", err=True)
