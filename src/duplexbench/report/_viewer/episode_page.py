"""`duplexbench view`: one episode folder as a static, offline HTML page.

The page holds a header (item, agent, condition, seeds, end reason, verdict),
the call's waveform (peaks computed here) with speech segments and a cursor
synced to an <audio> player, the scores (artifact fields against gold, or the
action verdict) and the whole event timeline. Every string that came from the
trace, the item or the scores is escaped; JSON inside <script> cannot close
the element; a Content-Security-Policy forbids every network request and
runs only the page's own script (by hash).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from duplexbench.campaign import run_warnings
from duplexbench.files import write_text_atomic
from duplexbench.report._load import read_summary
from duplexbench.report._viewer.assets import CSS, JS
from duplexbench.report._viewer.score_tables import Result, render_header, render_scores
from duplexbench.report._viewer.timeline_rows import GROUPS, fmt_ms, group_of, render_row
from duplexbench.report._viewer.waveform import EpisodeAudio, load_audio
from duplexbench.scoring import ActionScore, EpisodeScore
from duplexbench.trace import TraceError, read_events

_PLAIN_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
ITEM_SEARCH_DEPTH = 5
"""episodes/<agent>/<condition>/<item>/r<k>: the run directory is 5 levels up."""


class ViewerError(Exception):
    """The episode cannot be shown (no readable trace, no such folder, cannot write)."""


@dataclass
class Episode:
    path: Path
    events: list[dict[str, Any]]
    item: dict[str, Any] | None = None
    result: Result | None = None
    workbench: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)

    def first(self, event_type: str) -> dict[str, Any]:
        """Data of the first event of a type ({} when there is none)."""
        found = next((e["data"] for e in self.events if e["type"] == event_type), None)
        return found if isinstance(found, dict) else {}


def _read_json(path: Path, notes: list[str], missing: str) -> dict[str, Any] | None:
    if not path.is_file():
        notes.append(f"{path.name} is missing: {missing}")
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        notes.append(f"{path.name} is unreadable ({exc}): {missing}")
        return None
    if not isinstance(data, dict):
        notes.append(f"{path.name} is not a JSON object: {missing}")
        return None
    return data


def _result(path: Path, notes: list[str]) -> Result | None:
    raw = _read_json(path / "result.json", notes, "no scores (`duplexbench score RUN_DIR`).")
    if raw is None:
        return None
    model: type[EpisodeScore] | type[ActionScore] = ActionScore if "action" in raw else EpisodeScore
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        notes.append(f"result.json does not hold a {model.__name__} ({where}: {first['msg']}).")
        return None


def _item_snapshot(path: Path, item_id: str, notes: list[str]) -> dict[str, Any] | None:
    if not _PLAIN_ID.fullmatch(item_id):  # never a path out of RUN_DIR/items
        return None
    for parent in list(path.resolve().parents)[:ITEM_SEARCH_DEPTH]:
        snapshot = parent / "items" / f"{item_id}.json"
        if snapshot.is_file():
            return _read_json(snapshot, notes, "no item title.")
    return None


def _trust_notes(path: Path) -> list[str]:
    """The run's trust labels (a privileged agent, edited items; docs/security.md), read
    from the run directory above the episode folder."""
    for parent in list(path.resolve().parents)[:ITEM_SEARCH_DEPTH]:
        if (parent / "campaign.json").is_file():
            campaign = _read_json(parent / "campaign.json", [], "") or {}
            return [f"run: {w}" for w in run_warnings(campaign, read_summary(parent, []))]
    return []


def load_episode(path: Path) -> Episode:
    """Read an episode folder; only a missing or unreadable trace is an error."""
    if not path.is_dir():
        raise ViewerError(f"{path} is not an episode folder (no such directory)")
    try:
        events = [e.model_dump(mode="json") for e in read_events(path / "events.jsonl")]
    except TraceError as exc:
        raise ViewerError(f"cannot read the trace: {exc}") from None
    episode = Episode(path, events, notes=_trust_notes(path))
    item_id = str(episode.first("episode.start").get("item_id", ""))
    episode.item = _item_snapshot(path, item_id, episode.notes)
    episode.result = _result(path, episode.notes)
    if isinstance(episode.result, EpisodeScore):
        episode.workbench = _read_json(path / "workbench.json", [], "")
    return episode


def script_json(obj: Any) -> str:
    """JSON safe inside <script>: no `<`, `>`, `&` or line separators left raw."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(raw, escaped)
    return text


def content_security_policy() -> str:
    digest = base64.b64encode(hashlib.sha256(JS.encode("utf-8")).digest()).decode("ascii")
    return (
        f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; "
        "media-src 'self' data: file:; img-src data:; base-uri 'none'; form-action 'none'"
    )


def _captions(events: list[dict[str, Any]]) -> list[list[Any]]:
    caps: list[list[Any]] = []
    for e in events:
        d, kind = e["data"], e["type"]
        if kind == "user.utterance":
            caps.append(["user", e["t_ms"], d["end_ms"], d["text"]])
        elif kind == "agent.utterance":
            caps.append(["agent", d["start_ms"], d["end_ms"], d["text"]])
        elif kind == "replay.segment":
            who = "" if d["role"] == "user" else f"[{d['role']}] "
            caps.append(["user", d["start_ms"], d["end_ms"], who + d["text"]])
    return sorted(caps, key=lambda c: (c[1], c[0]))


def wave_data(episode: Episode, audio: EpisodeAudio) -> dict[str, Any]:
    """What the script draws: peaks, speech spans, overlaps, effects, captions."""
    events = episode.events

    def spans(kind: str) -> list[dict[str, Any]]:
        return [e["data"] for e in events if e["type"] == kind]

    end_ms = events[-1]["t_ms"] if events else 0
    return {
        "duration_ms": max(audio.duration_ms, end_ms),
        "lanes": [
            {"key": ln.key, "label": ln.label, "pps": ln.pps, "peaks": ln.peaks}
            for ln in audio.lanes
        ],
        "spans": [[d["channel"], d["start_ms"], d["end_ms"]] for d in spans("floor.segment")],
        "overlaps": [[d["start_ms"], d["end_ms"]] for d in spans("floor.overlap")],
        "effects": sorted(  # longest first, so short effects are drawn over call-long ones
            ([d["start_ms"], d["end_ms"], d["effect"]] for d in spans("user.effect")),
            key=lambda fx: fx[0] - fx[1],
        ),
        "captions": _captions(events),
        "fx_colors": {**EFFECT_COLORS, "": OTHER_EFFECT},
    }


EFFECT_COLORS = {"muffle": "#7c3aed", "frame_drop": "#dc2626", "burst": "#ea580c"}
OTHER_EFFECT = "#94a3b8"
_LEGEND = (
    ("rgba(37,99,235,.35)", "user speech (VAD)"),
    ("rgba(217,119,6,.4)", "agent speech (VAD)"),
    ("rgba(220,38,38,.3)", "overlap"),
)


def _legend(effects: set[str]) -> str:
    keys = list(_LEGEND) + [
        (c, n.replace("_", " ")) for n, c in EFFECT_COLORS.items() if n in effects
    ]
    others = sorted(effects - set(EFFECT_COLORS))
    if others:
        keys.append((OTHER_EFFECT, ", ".join(o.replace("_", " ") for o in others)))
    return "".join(
        f'<span><span class="sw" style="background:{color}"></span>{escape(label)}</span>'
        for color, label in keys
    )


def _audio_panel(audio: EpisodeAudio, effects: set[str]) -> str:
    if not audio.sources:
        return ""
    players = "".join(
        f'<audio class="player" controls preload="metadata" src="{escape(s.src)}"'
        f"{' hidden' if i else ''}></audio>"
        for i, s in enumerate(audio.sources)
    )
    select = ""
    if len(audio.sources) > 1:
        options = "".join(
            f'<option value="{i}">{escape(s.label)}</option>' for i, s in enumerate(audio.sources)
        )
        select = f'<select id="source" title="what to play">{options}</select>'
    legend = _legend(effects)
    wave = ""
    if audio.lanes:
        wave = (
            '<div id="wave-box"><canvas id="wave" title="click to seek"></canvas>'
            f'<div id="cursor"></div></div><div class="legend">{legend}</div>'
        )
    return (
        f'<section id="audio-panel"><div class="players">{select}{players}</div>{wave}'
        '<div id="captions"><div class="cap" data-key="user"><b class="a-user">user</b>'
        '<span></span></div><div class="cap" data-key="agent"><b class="a-agent">agent</b>'
        "<span></span></div></div></section>"
    )


def _timeline(events: list[dict[str, Any]]) -> str:
    counts: dict[str, int] = {}
    for e in events:
        counts[group_of(e["type"])] = counts.get(group_of(e["type"]), 0) + 1
    boxes = "".join(
        f'<label><input type="checkbox" data-group="{key}" checked> {escape(label)} '
        f'<span class="dim">{counts[key]}</span></label>'
        for key, label in GROUPS
        if key in counts
    )
    rows = "\n".join(render_row(e) for e in events)
    return (
        f'<section class="card" id="events"><h2>Timeline · {len(events)} events</h2>'
        f'<div class="filters">{boxes}<input type="search" id="search" '
        'placeholder="filter text…"><label><input type="checkbox" id="follow"> follow playback'
        '</label></div><table id="timeline"><thead><tr><th>time</th><th>actor</th>'
        f"<th>event</th><th>what happened</th></tr></thead><tbody>\n{rows}\n</tbody></table>"
        "</section>"
    )


def build_html(episode: Episode, page: Path, embed_audio: bool = False) -> str:
    """The whole page for `episode`, to be written at `page` (audio URLs are relative to it)."""
    start = episode.first("episode.start")
    notes = list(episode.notes)
    if start.get("channel") == "text":
        audio = EpisodeAudio(notes=["text channel: no audio, no waveform."])
    else:
        audio = load_audio(episode.path, episode.first("episode.audio"), page.parent, embed_audio)
    notes += audio.notes
    effects = {e["data"]["effect"] for e in episode.events if e["type"] == "user.effect"}
    note_list = "".join(f"<li>{escape(n)}</li>" for n in notes)
    notes_html = f'<ul class="notes" id="notes">{note_list}</ul>' if notes else ""
    duration = fmt_ms(max(audio.duration_ms, episode.events[-1]["t_ms"]))
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy()}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(str(start.get('item_id', 'episode')))} · duplexbench view</title>\n"
        f'<link rel="icon" href="data:,">\n<style>{CSS}</style></head>\n<body><main>\n'
        f"{render_header(episode.events, episode.item, episode.result, duration)}{notes_html}\n"
        f"{_audio_panel(audio, effects)}\n"
        f"{render_scores(episode.result, episode.workbench)}\n{_timeline(episode.events)}\n"
        f'</main>\n<script type="application/json" id="viewer-data">'
        f"{script_json(wave_data(episode, audio))}</script>\n<script>{JS}</script>\n"
        "</body></html>\n"
    )


def write_viewer(episode_dir: Path, out: Path | None = None, embed_audio: bool = False) -> Path:
    """Write the page (default EPISODE_DIR/view.html) and return its path."""
    page = out if out is not None else episode_dir / "view.html"
    html = build_html(load_episode(episode_dir), page, embed_audio)
    try:
        write_text_atomic(page, html)
    except OSError as exc:
        raise ViewerError(f"cannot write {page}: {exc}") from None
    return page
