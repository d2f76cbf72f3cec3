"""`duplexbench view`: one episode folder as a static, offline HTML page."""

from __future__ import annotations

from pathlib import Path

import click

from duplexbench.cli._common import fail
from duplexbench.report import ViewerError, write_viewer


@click.command("view")
@click.argument("episode_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the page. Default: EPISODE_DIR/view.html.",
)
@click.option(
    "--embed-audio",
    is_flag=True,
    help="Inline the audio (downmixed to mono) as data: URIs so the page can be moved; "
    "by default it refers to the episode's WAV files by relative path.",
)
def view_command(episode_dir: Path, out: Path | None, embed_audio: bool) -> None:
    """Write an HTML page of the episode in EPISODE_DIR (a folder
    RUN_DIR/episodes/<agent>/<condition>/<item>/r<k>): header and verdict, the
    call's waveform with speech segments and a playback cursor, the artifact
    against gold (or the action verdict) and every trace event, filterable.
    It works offline from file:// and makes no network request. See docs/viewer.md."""
    try:
        page = write_viewer(episode_dir, out, embed_audio)
    except ViewerError as exc:
        fail(str(exc))
        return
    click.echo(f"viewer: {page}")
